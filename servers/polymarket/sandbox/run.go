package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
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
	// scrub maps library paths that surface in messages to "<lib>".
	scrub *strings.Replacer
	// realLoader is the host file bwrap copies as the loader; libs are the
	// shared libraries of the root (its path → the host file); extraBinds
	// are further read-only files of the root (see prepare); stdlibFiles
	// are the stdlib files it holds (nil: the whole tree, KernelOnly).
	realLoader  string
	libs        map[string]string
	extraBinds  []string
	stdlibFiles []string
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
	// compete with it (cold start), and still logs its finding
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
	if st, err := os.Stat(s.cfg.Bwrap); err != nil || st.Mode()&0o111 == 0 || !st.Mode().IsRegular() {
		s.log.Error().Str("bwrap", s.cfg.Bwrap).Msg("python sandbox: bubblewrap is not installed (apt-get install bubblewrap)")
		return Probe{Unavailable: LayerBwrap, Python: py}
	}
	// A crash must not start the host's core_pattern handler with the
	// sandbox's memory: the process is not dumpable (see the loader below),
	// and not-dumpable processes dump only if fs.suid_dumpable allows it.
	if b, err := os.ReadFile("/proc/sys/fs/suid_dumpable"); err != nil || strings.TrimSpace(string(b)) != "0" {
		s.log.Error().Str("suid_dumpable", strings.TrimSpace(string(b))).Msg("python sandbox: fs.suid_dumpable must be 0 (sysctl fs.suid_dumpable=0) so that a crashing run dumps no core")
		return Probe{Unavailable: LayerCoreDump, Python: py}
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
		Tag:        processTag,
	}
	// The root holds, of the stdlib, only the files of the modules a run
	// loads (the whitelist and what it and the prelude import: 61 modules,
	// 118 files with their compiled copies, two of them extension modules,
	// of the tree's ~1,400 files on Debian 12), and, of the library
	// directory, only the shared
	// libraries the interpreter and those modules link, and the helper's if
	// it is dynamically linked. KernelOnly (tests) binds the whole stdlib so
	// the kernel layers are tried against code holding every module,
	// ctypes included.
	stdlib, err := filepath.EvalSymlinks(filepath.Join(root, "lib", base))
	if err != nil {
		return Probe{Unavailable: LayerPython, Python: py}
	}
	s.spec.ReadDirs = []string{stdlib}
	roots := []string{py}
	s.stdlibFiles = nil
	if s.cfg.KernelOnly {
		dynload, _ := filepath.Glob(filepath.Join(stdlib, "lib-dynload", "*.so"))
		roots = append(roots, dynload...)
	} else {
		mctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		mods, err := rootModules(mctx, py)
		cancel()
		if err == nil {
			s.stdlibFiles, err = rootFiles(mods, stdlib)
		}
		if err != nil {
			s.log.Error().Err(err).Str("python", py).Msg("python sandbox: cannot build the sandbox root from the modules a run loads")
			return Probe{Unavailable: LayerPython, Python: py}
		}
		for _, f := range s.stdlibFiles {
			if strings.HasSuffix(f, ".so") {
				roots = append(roots, f)
			}
		}
	}
	if self, err := os.Executable(); err == nil {
		roots = append(roots, self)
	}
	if libDir, err := filepath.EvalSymlinks(filepath.Join(root, "lib", multiarch())); err == nil {
		s.libs = sharedLibs(libDir, roots...)
	}
	s.spec.ReadFiles = sortedPaths(s.libs)
	// Not dumpable: the kernel makes a process not dumpable when a file it
	// executes, its ELF loader included, is not readable by it
	// (fs/exec.c would_dump). The root holds an execute-only copy of the
	// loader (215 KB; copying the 6.8 MB interpreter instead cost ~40 ms a
	// run). A static interpreter has no loader: refused.
	loader := elfInterpreter(py)
	realLoader, err := filepath.EvalSymlinks(loader)
	if loader == "" || err != nil {
		s.log.Error().Str("python", py).Msg("python sandbox: the interpreter has no ELF loader to make it not dumpable")
		return Probe{Unavailable: LayerCoreDump, Python: py}
	}
	s.spec.Loader, s.realLoader = loader, realLoader
	s.spec.ExecFiles = []string{py, loader}
	// A dynamically linked helper (a cgo or -race build) with another
	// loader needs that one too.
	s.extraBinds = nil
	if self, err := os.Executable(); err == nil {
		if l := elfInterpreter(self); l != "" && l != loader {
			if real, err := filepath.EvalSymlinks(l); err == nil && real == l {
				s.extraBinds = append(s.extraBinds, l)
			}
		}
	}
	for _, kind := range namespaceKinds {
		var st unix.Stat_t
		if err := unix.Stat("/proc/self/ns/"+kind, &st); err != nil {
			return Probe{Unavailable: LayerNamespaces}
		}
		s.spec.HostNS[kind] = st.Ino
	}
	// Library paths show up in some exception messages ("cannot import name
	// x from json (/usr/lib/python3.11/json/__init__.py)"). They are the
	// sandbox's own paths (nothing of the host's is inside), shortened.
	var pairs []string
	for _, d := range s.spec.ReadDirs {
		pairs = append(pairs, d, "<lib>")
	}
	s.scrub = strings.NewReplacer(pairs...)
	// The probe is a real run through every layer.
	pctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	r, layers, err := s.exec(pctx, "print(1)", json.RawMessage("{}"))
	if err == nil && (r.Unavailable == LayerBwrap || r.Outcome == OutcomeTimeout) && pctx.Err() == nil {
		// Nothing ran, or print(1) did not finish in one run's time: a host
		// busy at start-up (namespace or process limits of the moment, a
		// loaded CPU) must not leave the sandbox unavailable for the whole
		// life of the server, so the probe, safe to repeat, runs once more.
		s.log.Warn().Str("unavailable", r.Unavailable).Str("error", r.Error).Msg("python sandbox probe: trying once more")
		r, layers, err = s.exec(pctx, "print(1)", json.RawMessage("{}"))
	}
	switch {
	case err != nil:
		s.log.Error().Err(err).Msg("python sandbox probe could not start bwrap")
		return Probe{Unavailable: LayerBwrap, Python: py}
	case r.Unavailable != "":
		return Probe{Unavailable: r.Unavailable, Python: py}
	case !r.Success || r.Output != "1\n":
		s.log.Error().Str("error", r.Error).Str("stderr", r.Stderr).Msg("python sandbox probe: print(1) failed")
		return Probe{Unavailable: LayerPython, Python: py}
	}
	return Probe{Layers: layers, Python: py}
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
// the code itself is in the Result, and so is a request refused as too
// deeply nested (*RefusedError from Validate).
func (s *Sandbox) Run(ctx context.Context, r Request) (Result, error) {
	input, err := Validate(r)
	var refused *RefusedError
	if errors.As(err, &refused) {
		return Result{Error: refused.Message, Outcome: OutcomeError}, nil
	}
	if err != nil {
		return Result{}, err
	}
	s.waitProbe()
	if s.probe.Unavailable != "" {
		return Result{Error: "sandbox unavailable: " + s.probe.Unavailable, Unavailable: s.probe.Unavailable, Outcome: OutcomeUnavailable}, nil
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
		return Result{Error: "sandbox unavailable: " + s.probe.Unavailable, Unavailable: s.probe.Unavailable, Outcome: OutcomeUnavailable}, nil
	}
	res, _, err := s.exec(ctx, code, input)
	if err == nil && res.Unavailable == LayerBwrap && ctx.Err() == nil {
		// bwrap failed before the helper wrote its first line, so nothing
		// ran and the run is safe to repeat: once, for a transient failure
		// of the host (namespace or process limits of the moment).
		res, _, err = s.exec(ctx, code, input)
	}
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		s.log.Error().Err(err).Msg("python sandbox: helper did not start")
		return Result{Error: "sandbox unavailable: " + LayerHelper, Unavailable: LayerHelper, Outcome: OutcomeUnavailable}, nil
	}
	return res, nil
}

// exec starts bwrap (which starts the helper), feeds it the request and
// collects what happened.
func (s *Sandbox) exec(ctx context.Context, code string, input json.RawMessage) (Result, string, error) {
	specJSON, err := json.Marshal(s.spec)
	if err != nil {
		return Result{}, "", err
	}
	req, err := json.Marshal(struct {
		Code      string          `json:"code"`
		InputData json.RawMessage `json:"input_data"`
	}{code, input})
	if err != nil {
		return Result{}, "", err
	}
	// The helper is this binary, reaching the sandbox as a descriptor; the
	// loader is copied by bwrap from its descriptor.
	self, err := os.Open("/proc/self/exe")
	if err != nil {
		return Result{}, "", err
	}
	defer self.Close()
	loader, err := os.Open(s.realLoader)
	if err != nil {
		return Result{}, "", err
	}
	defer loader.Close()
	resR, resW, err := os.Pipe()
	if err != nil {
		return Result{}, "", err
	}
	defer resR.Close()
	// The supervisor's status channel: the interpreter never holds it.
	statR, statW, err := os.Pipe()
	if err != nil {
		resW.Close()
		return Result{}, "", err
	}
	defer statR.Close()
	// The pipes' copy goroutines may overflow as soon as bwrap starts: the
	// kill they trigger reads the pid set once it exists.
	var pgid atomic.Int64
	killGroup := func() {
		if p := pgid.Load(); p > 0 {
			_ = syscall.Kill(-int(p), syscall.SIGKILL)
		}
	}
	out := &capped{max: s.cfg.MaxOutput, onOverflow: killGroup}
	errOut := &capped{max: s.cfg.MaxStderr, onOverflow: killGroup}
	report := &capped{max: maxReportBytes, onOverflow: killGroup}
	cmd := &exec.Cmd{
		Path:        s.cfg.Bwrap,
		Args:        append(append([]string{"bwrap"}, bwrapArgs(s.spec, s.stdlibFiles, s.libs, s.extraBinds)...), string(specJSON)),
		Env:         []string{},
		Dir:         "/",
		Stdin:       bytes.NewReader(req),
		Stdout:      out,
		Stderr:      errOut,
		ExtraFiles:  []*os.File{resW, self, loader, statW}, // resultFD, helperFD, loaderFD, statusFD
		SysProcAttr: procAttr(),
		WaitDelay:   time.Second,
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		resW.Close()
		statW.Close()
		return Result{}, "", err
	}
	resW.Close()
	statW.Close()
	pgid.Store(int64(cmd.Process.Pid))
	if out.overflowed() || errOut.overflowed() {
		killGroup() // overflowed before the pid was known
	}

	resDone := make(chan struct{})
	go func() { // the result pipe, capped and killed like stdout
		_, _ = io.Copy(report, resR)
		close(resDone)
	}()
	statDone := make(chan struct{})
	status := &capped{max: 4 << 10, onOverflow: killGroup}
	go func() { // one line from the supervisor
		_, _ = io.Copy(status, statR)
		close(statDone)
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
	// bwrap is reaped: its pid may be reused, so nothing may signal the
	// group any more. Everything inside dies with it: bwrap's PID 1 has
	// PR_SET_PDEATHSIG, and when a PID namespace's init dies the kernel
	// kills the rest. The result pipe closes when the last of them is gone.
	pgid.Store(0)
	timer.Stop()
	stop()
	elapsed := time.Since(start)
	drain := time.NewTimer(2 * time.Second)
	defer drain.Stop()
	for _, p := range []struct {
		done chan struct{}
		r    *os.File
	}{{resDone, resR}, {statDone, statR}} {
		select {
		case <-p.done:
		case <-drain.C:
			resR.Close()
			statR.Close()
			<-p.done
		}
	}
	mu.Lock()
	wasTimeout := timedOut
	mu.Unlock()

	res := Result{Duration: elapsed, Output: s.scrubText(out.text("output")), Stderr: s.scrubText(errOut.text("stderr"))}
	v := s.verdict(report.String(), status.String(), verdictFacts{
		stdoutOver: out.overflowed(), stderrOver: errOut.overflowed(), reportOver: report.overflowed(),
		timedOut: wasTimeout, cancelled: ctx.Err() != nil,
	})
	if v.unavailable != "" {
		s.log.Error().Str("layer", v.unavailable).Str("helper", strings.TrimSpace(errOut.String())).AnErr("wait", waitErr).Msg("python sandbox: a layer is missing; nothing ran")
		return Result{Duration: elapsed, Error: "sandbox unavailable: " + v.unavailable, Unavailable: v.unavailable, Outcome: OutcomeUnavailable}, "", nil
	}
	if v.unexpected {
		s.log.Warn().Str("status", strings.TrimSpace(status.String())).Str("error", v.err).Msg("python sandbox: the interpreter ended unexpectedly")
	}
	res.Success, res.Error, res.Outcome = v.success, s.scrubText(v.err), v.outcome
	if v.hideStderr {
		res.Stderr = ""
	}
	return res, v.layers, nil
}

func (s *Sandbox) scrubText(t string) string {
	if s.scrub == nil {
		return t
	}
	return s.scrub.Replace(t)
}

// processTag is random per server process; see ProcessTag.
var processTag = func() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}()

// ProcessTag marks the sandboxes this process started: the command line of
// each run's bwrap contains "tag":"<ProcessTag>". An operator (or a test)
// finds leftovers of this server with it; it tells the code nothing.
func ProcessTag() string { return processTag }
