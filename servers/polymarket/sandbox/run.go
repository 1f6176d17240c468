package sandbox

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/sys/unix"
)

//go:embed prelude.py
var prelude string

// Sandbox runs Python requests, a bounded number at a time.
type Sandbox struct {
	cfg   Config
	log   zerolog.Logger
	slots chan struct{}
	spec  spec
	probe Probe
	// probed is closed when the start-up probe has run; spec, probe and
	// scrub are read only after it (every exported method waits for it).
	probed    chan struct{}
	probeOnce sync.Once
	ctx       context.Context // the server's: the probe's runs end with it
	// scrub maps host paths that could surface in a message to neutral text.
	scrub *strings.Replacer
}

// Probe is what the start-up capability check found.
type Probe struct {
	// Unavailable names the first missing layer; "" when every layer works.
	Unavailable string
	// Layers is the helper's own report of what it applied, e.g.
	// "namespaces=user,net,mnt,ipc,uts uid=65534 no_new_privs=1 landlock_abi=7 ...".
	Layers string
	// Python is the interpreter that runs the code.
	Python string
}

// New prepares a sandbox and probes it in the background: it runs print(1)
// through every layer once and logs which layers are active. A sandbox whose probe failed
// answers every run with "sandbox unavailable: <layer>".
func New(ctx context.Context, cfg Config, log zerolog.Logger) *Sandbox {
	// A helper whose main (or TestMain) forgot MaybeChild must not serve, nor
	// start helpers of its own (each would do the same): become the helper.
	MaybeChild()
	cfg = cfg.withDefaults()
	s := &Sandbox{cfg: cfg, log: log, slots: make(chan struct{}, cfg.Concurrency), probed: make(chan struct{}), ctx: ctx}
	// The probe starts a Python process (~40 ms of CPU on a 2-core box): it
	// waits probeDelay, so the MCP handshake and the first calls do not
	// compete with it (issue 20: cold start), and still logs its finding
	// soon after start. A call that needs the sandbox first starts it then.
	go func() {
		t := time.NewTimer(probeDelay)
		defer t.Stop()
		select {
		case <-t.C:
			s.startProbe()
		case <-ctx.Done():
		}
	}()
	return s
}

// probeDelay is how long after start the probe runs when no call asked first.
const probeDelay = time.Second

// startProbe runs the probe once, in the background; probed closes when done.
func (s *Sandbox) startProbe() {
	s.probeOnce.Do(func() {
		go func() {
			defer close(s.probed)
			s.probe = s.prepare(s.ctx)
			ev := s.log.Info()
			if s.probe.Unavailable != "" {
				ev = s.log.Error()
			}
			ev.Str("unavailable", s.probe.Unavailable).Str("layers", s.probe.Layers).Int("concurrency", s.cfg.Concurrency).
				Dur("timeout", s.cfg.Timeout).Bool("kernel_only_test_mode", s.cfg.KernelOnly).Msg("python sandbox probe")
		}()
	})
}

// waitProbe starts the probe if it has not started and returns once it has run.
func (s *Sandbox) waitProbe() {
	s.startProbe()
	<-s.probed
}

// Probe returns the start-up capability check (waiting for it to finish).
func (s *Sandbox) Probe() Probe {
	s.waitProbe()
	return s.probe
}

func (s *Sandbox) prepare(ctx context.Context) Probe {
	py, err := filepath.EvalSymlinks(s.cfg.Python)
	if err != nil {
		return Probe{Unavailable: LayerPython}
	}
	if st, err := os.Stat(py); err != nil || st.Mode()&0o111 == 0 || !st.Mode().IsRegular() {
		return Probe{Unavailable: LayerPython}
	}
	base := filepath.Base(py) // python3.11
	root := filepath.Dir(filepath.Dir(py))
	s.spec = spec{
		Python:     py,
		Memory:     s.cfg.MemoryBytes,
		CPUSeconds: uint64((s.cfg.Timeout + time.Second - 1) / time.Second),
		KernelOnly: s.cfg.KernelOnly,
		Break:      s.cfg.breakLayer,
		Prelude:    prelude,
		HostNS:     map[string]uint64{},
	}
	for _, d := range []string{filepath.Join(root, "lib", base), filepath.Join(root, "lib", multiarch()), "/lib/" + multiarch(), "/lib64", "/usr/lib64"} {
		if real, err := filepath.EvalSymlinks(d); err == nil && !contains(s.spec.ReadDirs, real) {
			s.spec.ReadDirs = append(s.spec.ReadDirs, real)
		}
	}
	s.spec.ExecFiles = []string{py}
	if loader := elfInterpreter(py); loader != "" {
		s.spec.ExecFiles = append(s.spec.ExecFiles, loader)
	}
	for _, kind := range namespaceKinds {
		var st unix.Stat_t
		if err := unix.Stat("/proc/self/ns/"+kind, &st); err != nil {
			return Probe{Unavailable: LayerNamespaces}
		}
		s.spec.HostNS[kind] = st.Ino
	}
	// Where the server is deployed is nobody's business: its binary's
	// directory and working directory never appear in a message.
	var pairs []string
	wd, _ := os.Getwd()
	for _, p := range []string{s.selfDir(), wd} {
		if len(p) > 1 && !strings.HasPrefix(s.cfg.Python, p+"/") {
			pairs = append(pairs, p, "<server>")
		}
	}
	// Library paths show up in some exception messages ("cannot import name
	// x from json (/usr/lib/python3.11/json/__init__.py)").
	for _, d := range s.spec.ReadDirs {
		pairs = append(pairs, d, "<lib>")
	}
	s.scrub = strings.NewReplacer(pairs...)
	// The probe is a real run through every layer.
	pctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	r, layers, err := s.exec(pctx, []byte(`{"code":"print(1)","input_data":{}}`))
	switch {
	case err != nil:
		s.log.Error().Err(err).Msg("python sandbox probe could not start the helper")
		return Probe{Unavailable: LayerNamespaces, Python: py}
	case r.Unavailable != "":
		return Probe{Unavailable: r.Unavailable, Python: py}
	case !r.Success || r.Output != "1\n":
		s.log.Error().Str("error", r.Error).Str("stderr", r.Stderr).Msg("python sandbox probe: print(1) failed")
		return Probe{Unavailable: LayerPython, Python: py}
	}
	return Probe{Layers: layers, Python: py}
}

func (s *Sandbox) selfDir() string {
	if exe, err := os.Executable(); err == nil {
		return filepath.Dir(exe)
	}
	return ""
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func multiarch() string {
	switch runtime.GOARCH {
	case "arm64":
		return "aarch64-linux-gnu"
	default:
		return "x86_64-linux-gnu"
	}
}

// Run executes one request. It returns an error only for an invalid request
// (*InvalidError), ErrBusy, or a cancelled ctx; everything that happened to
// the code itself is in the Result.
func (s *Sandbox) Run(ctx context.Context, r Request) (Result, error) {
	input, err := Validate(r)
	if err != nil {
		return Result{}, err
	}
	s.waitProbe()
	if s.probe.Unavailable != "" {
		return Result{Error: "sandbox unavailable: " + s.probe.Unavailable, Unavailable: s.probe.Unavailable}, nil
	}
	release, err := s.Acquire(ctx)
	if err != nil {
		return Result{}, err
	}
	defer release()
	return s.RunAcquired(ctx, r.Code, input)
}

// Acquire takes a run slot, waiting up to QueueWait; release it when done.
func (s *Sandbox) Acquire(ctx context.Context) (release func(), err error) {
	t := time.NewTimer(s.cfg.QueueWait)
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-t.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// QueueWait is how long Acquire waits.
func (s *Sandbox) QueueWait() time.Duration { return s.cfg.QueueWait }

// Unavailable names the missing layer, "" when the sandbox can run code.
func (s *Sandbox) Unavailable() string {
	s.waitProbe()
	return s.probe.Unavailable
}

// RunAcquired runs validated input (from Validate) in a slot the caller holds.
func (s *Sandbox) RunAcquired(ctx context.Context, code string, input json.RawMessage) (Result, error) {
	s.waitProbe()
	if s.probe.Unavailable != "" {
		return Result{Error: "sandbox unavailable: " + s.probe.Unavailable, Unavailable: s.probe.Unavailable}, nil
	}
	req, err := json.Marshal(struct {
		Code      string          `json:"code"`
		InputData json.RawMessage `json:"input_data"`
	}{code, input})
	if err != nil {
		return Result{}, err
	}
	res, _, err := s.exec(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		s.log.Error().Err(err).Msg("python sandbox: helper did not start")
		return Result{Error: "sandbox unavailable: " + LayerHelper, Unavailable: LayerHelper}, nil
	}
	return res, nil
}

// exec starts the helper, feeds it req and collects what happened.
func (s *Sandbox) exec(ctx context.Context, req []byte) (Result, string, error) {
	specJSON, err := json.Marshal(s.spec)
	if err != nil {
		return Result{}, "", err
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		return Result{}, "", err
	}
	defer resR.Close()
	// The pipes' copy goroutines may overflow as soon as the helper starts:
	// the kill they trigger reads the pid set once it exists.
	var pgid atomic.Int64
	killGroup := func() {
		if p := pgid.Load(); p > 0 {
			_ = syscall.Kill(-int(p), syscall.SIGKILL)
		}
	}
	out := &capped{max: s.cfg.MaxOutput, onOverflow: killGroup}
	errOut := &capped{max: s.cfg.MaxStderr, onOverflow: killGroup}
	cmd := &exec.Cmd{
		Path:        "/proc/self/exe",
		Args:        []string{"python-sandbox", childArg, string(specJSON)},
		Env:         []string{},
		Dir:         "/",
		Stdin:       bytes.NewReader(req),
		Stdout:      out,
		Stderr:      errOut,
		ExtraFiles:  []*os.File{resW},
		SysProcAttr: procAttr(),
		WaitDelay:   time.Second,
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		resW.Close()
		return Result{}, "", err
	}
	resW.Close()
	pgid.Store(int64(cmd.Process.Pid))
	if out.overflowed() || errOut.overflowed() {
		killGroup() // overflowed before the pid was known
	}

	var resBuf bytes.Buffer
	resDone := make(chan struct{})
	go func() { // the result pipe: at most 64 KiB kept, the rest drained
		_, _ = io.Copy(&limitedWriter{w: &resBuf, n: 64 << 10}, resR)
		close(resDone)
	}()

	var mu sync.Mutex
	timedOut := false
	timer := time.AfterFunc(s.cfg.Timeout, func() {
		mu.Lock()
		timedOut = true
		mu.Unlock()
		killGroup()
	})
	stop := context.AfterFunc(ctx, killGroup)
	waitErr := cmd.Wait()
	// Reaped: its pid may be reused, so nothing may signal the group any
	// more. No process of the run can outlive it: seccomp and RLIMIT_NPROC
	// forbid any other process in the group.
	pgid.Store(0)
	timer.Stop()
	stop()
	elapsed := time.Since(start)
	select {
	case <-resDone:
	case <-time.After(time.Second):
		resR.Close()
		<-resDone
	}
	mu.Lock()
	wasTimeout := timedOut
	mu.Unlock()

	layerLine, pyResult, _ := strings.Cut(resBuf.String(), "\n")
	res := Result{Duration: elapsed, Output: s.scrubText(out.text("output")), Stderr: s.scrubText(errOut.text("stderr"))}
	if rest, ok := strings.CutPrefix(layerLine, "unavailable "); ok {
		layer := strings.TrimSpace(rest)
		s.log.Error().Str("layer", layer).Str("helper", strings.TrimSpace(errOut.String())).Msg("python sandbox: a layer is missing; nothing ran")
		return Result{Duration: elapsed, Error: "sandbox unavailable: " + layer, Unavailable: layer}, "", nil
	}
	layers, ok := strings.CutPrefix(layerLine, "ok ")
	if !ok {
		s.log.Error().Str("helper", strings.TrimSpace(errOut.String())).AnErr("wait", waitErr).Msg("python sandbox: the helper did not report its layers")
		return Result{Duration: elapsed, Error: "sandbox unavailable: " + LayerHelper, Unavailable: LayerHelper}, "", nil
	}
	// The prelude writes its verdict last, on its own line.
	verdict := pyResult
	if i := strings.LastIndexByte(pyResult, '\n'); i >= 0 {
		verdict = pyResult[i+1:]
	}
	var v struct {
		Error *string `json:"error"`
	}
	parsed := json.Unmarshal([]byte(verdict), &v) == nil
	switch {
	case out.overflowed():
		res.Error = fmt.Sprintf("output truncated: the code printed more than %d KiB and was stopped; print a summary instead", s.cfg.MaxOutput>>10)
	case errOut.overflowed():
		res.Error = fmt.Sprintf("output truncated: the code wrote more than %d KiB to stderr and was stopped", s.cfg.MaxStderr>>10)
	case wasTimeout:
		res.Error = fmt.Sprintf("timeout: the code ran longer than %s and was stopped", s.cfg.Timeout)
	case ctx.Err() != nil:
		res.Error = "cancelled: the request ended before the code finished"
	case cpuKilled(waitErr):
		res.Error = fmt.Sprintf("timeout: the code used its %d s of CPU time and was stopped", s.spec.CPUSeconds)
	case parsed && v.Error == nil && waitErr == nil:
		res.Success = true
	case parsed && v.Error != nil:
		res.Error = s.scrubText(*v.Error)
	case strings.Contains(errOut.String(), "MemoryError"):
		res.Error = "MemoryError: memory limit reached"
	default:
		s.log.Warn().AnErr("wait", waitErr).Msg("python sandbox: the interpreter ended without a verdict")
		res.Error = "the Python process ended unexpectedly (" + exitText(waitErr) + ")"
	}
	return res, layers, nil
}

func (s *Sandbox) scrubText(t string) string {
	if s.scrub == nil {
		return t
	}
	return s.scrub.Replace(t)
}

func cpuKilled(err error) bool {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return ws.Signal() == syscall.SIGXCPU || ws.Signal() == syscall.SIGKILL
		}
	}
	return false
}

func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "signal " + ws.Signal().String()
		}
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	if err == nil {
		return "no result"
	}
	return "wait failed"
}
