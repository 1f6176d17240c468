package sandbox

// childArg marks a re-exec of our own binary as the sandbox helper.
const childArg = "__mcpfleet_python_sandbox__"

// spec is what the server tells the helper (argv[2], JSON). It holds no
// secret and nothing the user chose. Paths are those inside the sandbox's
// root, which bwrap builds with the same paths as the host's for the few
// trees it holds.
type spec struct {
	Python     string            `json:"python"`      // the interpreter
	Loader     string            `json:"loader"`      // its ELF loader (PT_INTERP): an execute-only copy
	ReadDirs   []string          `json:"read_dirs"`   // read-only trees (the stdlib)
	ReadFiles  []string          `json:"read_files"`  // read-only files (the shared libraries)
	ExecFiles  []string          `json:"exec_files"`  // the interpreter and its ELF loader
	Memory     uint64            `json:"memory"`      // RLIMIT_AS
	CPUSeconds uint64            `json:"cpu_seconds"` // RLIMIT_CPU (soft; hard = +1)
	KernelOnly bool              `json:"kernel_only"`
	Break      string            `json:"break,omitempty"`
	HostNS     map[string]uint64 `json:"host_ns"` // the server's namespace inodes, to prove new ones
	Prelude    string            `json:"prelude"`
	// Tag is ProcessTag: it marks this server's sandboxes in the host's
	// process table (bwrap's command line), so leftovers can be found.
	Tag string `json:"tag"`
}

// Layer names, as reported in "sandbox unavailable: <layer>".
const (
	LayerPython     = "python"
	LayerBwrap      = "bwrap"
	LayerNamespaces = "namespaces"
	LayerUser       = "uid"
	LayerNoNewPrivs = "no_new_privs"
	LayerLandlock   = "landlock"
	LayerSeccomp    = "seccomp"
	LayerRlimits    = "rlimits"
	LayerCoreDump   = "core_dump"
	LayerHelper     = "helper"
)

// namespaceKinds are the namespaces every run gets fresh.
var namespaceKinds = []string{"user", "pid", "net", "mnt", "ipc", "uts"}

// Fixed descriptors of the helper (set up by the server and bwrap).
const (
	// resultFD carries the helper's layer line, then the prelude's "run"
	// line and report; the interpreter holds it.
	resultFD = 3
	// helperFD is the server's own binary, which bwrap execs as the helper
	// through /proc/self/fd (the sandbox's root holds no copy of it).
	helperFD = 4
	// loaderFD is the interpreter's ELF loader, which bwrap copies into the
	// root as an execute-only file.
	loaderFD = 5
	// statusFD is the supervisor's status channel: the helper, which stays
	// the interpreter's parent, writes how the interpreter ended (its real
	// wait status and CPU time) there. It is close-on-exec: the interpreter
	// never holds it, so nothing the code does can write a verdict.
	statusFD = 6
	// listenFD is the seccomp listener the interpreter's process creates
	// before its one exec; the helper answers every execve/execveat on it
	// (the first, its own, continues; every later one fails with EPERM).
	listenFD = 101
)

// sandboxHostname is the UTS name inside (the host's is not copied).
const sandboxHostname = "sandbox"
