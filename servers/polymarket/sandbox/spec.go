package sandbox

// childArg marks a re-exec of our own binary as the sandbox helper.
const childArg = "__mcpfleet_python_sandbox__"

// spec is what the server tells the helper (argv[2], JSON). It holds no
// secret and nothing the user chose.
type spec struct {
	Python     string            `json:"python"`      // resolved interpreter path
	ReadDirs   []string          `json:"read_dirs"`   // read-only trees (stdlib, libraries)
	ExecFiles  []string          `json:"exec_files"`  // the interpreter and its ELF loader
	Memory     uint64            `json:"memory"`      // RLIMIT_AS
	CPUSeconds uint64            `json:"cpu_seconds"` // RLIMIT_CPU (soft; hard = +1)
	KernelOnly bool              `json:"kernel_only"`
	Break      string            `json:"break,omitempty"`
	HostNS     map[string]uint64 `json:"host_ns"` // the server's namespace inodes, to prove new ones
	Prelude    string            `json:"prelude"`
}

// Layer names, as reported in "sandbox unavailable: <layer>".
const (
	LayerPython     = "python"
	LayerNamespaces = "namespaces"
	LayerUser       = "uid"
	LayerNoNewPrivs = "no_new_privs"
	LayerLandlock   = "landlock"
	LayerSeccomp    = "seccomp"
	LayerRlimits    = "rlimits"
	LayerHelper     = "helper"
)

// namespaceKinds are the namespaces every run gets fresh.
var namespaceKinds = []string{"user", "net", "mnt", "ipc", "uts"}
