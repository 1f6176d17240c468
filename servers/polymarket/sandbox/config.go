package sandbox

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Limits of one run: the seed's 30 s and 512 MB (its python-functions/README.md).
const (
	MaxCodeBytes      = 64 << 10
	MaxInputDataBytes = 1 << 20
	DefaultTimeout    = 30 * time.Second
	DefaultMemory     = 512 << 20
	DefaultMaxOutput  = 64 << 10
	DefaultMaxStderr  = 16 << 10
	DefaultQueueWait  = 5 * time.Second
	DefaultPython     = "/usr/bin/python3"
	// nobody: the uid and gid the code runs as inside its user namespace.
	nobody = 65534
	// maxOpenFiles is RLIMIT_NOFILE: stdio, the result pipe and a few files
	// the interpreter opens at start-up.
	maxOpenFiles = 32
	// maxReportBytes caps the result pipe (the helper's layer line and the
	// prelude's report); more stops the run, as for stdout.
	maxReportBytes = 64 << 10
)

// Config sets up a Sandbox. The zero value is the production configuration.
type Config struct {
	// Python is the interpreter; default /usr/bin/python3 (Debian's: pyenv
	// shims need $HOME and a writable root, which the sandbox has not).
	Python string
	// Bwrap is bubblewrap, which builds the namespaces and the root
	// (default /usr/bin/bwrap; missing, every run answers
	// "sandbox unavailable: bwrap").
	Bwrap string
	// Timeout is the wall-clock limit of one run (default 30 s); the CPU
	// rlimit is set to the same number of seconds.
	Timeout time.Duration
	// MemoryBytes is RLIMIT_AS (default 512 MiB).
	MemoryBytes uint64
	// MaxOutput and MaxStderr cap what is kept of stdout and stderr; a run
	// that writes more is stopped and says so.
	MaxOutput, MaxStderr int
	// Concurrency is how many runs may execute at once (default: sized to
	// the machine, see DefaultConcurrency). QueueWait is how long a run
	// waits for a free slot before it is refused as busy.
	Concurrency int
	QueueWait   time.Duration
	// KernelOnly is for tests only: it switches off the Python-level layers
	// (import whitelist, restricted builtins, audit hook) to prove that the
	// kernel layers hold on their own. Never set it in a server.
	KernelOnly bool

	// breakLayer makes the helper report that layer as unavailable (tests
	// of the fail-closed path on a kernel that has every layer).
	breakLayer string
}

func (c Config) withDefaults() Config {
	if c.Python == "" {
		c.Python = DefaultPython
	}
	if c.Bwrap == "" {
		c.Bwrap = DefaultBwrap
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MemoryBytes == 0 {
		c.MemoryBytes = DefaultMemory
	}
	if c.MaxOutput <= 0 {
		c.MaxOutput = DefaultMaxOutput
	}
	if c.MaxStderr <= 0 {
		c.MaxStderr = DefaultMaxStderr
	}
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency()
	}
	if c.QueueWait <= 0 {
		c.QueueWait = DefaultQueueWait
	}
	return c
}

// DefaultConcurrency is one run per CPU, but no more runs than 1 GiB of
// memory each allows (a run may take 512 MiB of address space, and the
// server needs room too), and at least one.
func DefaultConcurrency() int {
	n := runtime.NumCPU()
	if gib := memTotalGiB(); gib > 0 && gib < n {
		n = gib
	}
	return max(n, 1)
}

func memTotalGiB() int {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.Atoi(f[1])
			return kb >> 20
		}
	}
	return 0
}
