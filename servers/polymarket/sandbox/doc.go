// Package sandbox runs untrusted Python (polymarket's execute-python-code) in
// layers, each of which fails closed:
//
//  1. Request checks in Go (Validate): code ≤ 64 KiB, input_data ≤ 1 MiB of a
//     JSON object whose keys are Python identifiers, ≤ 100 levels deep; an
//     empty environment, a wall timeout that kills the process group, capped
//     stdout, stderr and result pipe, a concurrency limit sized to the machine.
//  2. Kernel isolation: bubblewrap builds new user, PID, network, mount,
//     IPC and UTS namespaces and a read-only root holding only the stdlib,
//     the shared libraries it links, the interpreter with an execute-only copy of its
//     ELF loader (so the process is not dumpable) and
//     its own /proc; it starts our own binary as the helper (MaybeChild),
//     which checks them, then applies uid/gid nobody, no_new_privs,
//     Landlock ABI ≥ 6 (read-only trees, execute only the interpreter, no
//     writes, no TCP, no signals out of the domain), a seccomp allow-list
//     (no fork, exec, sockets, ptrace, mount, unshare, kill, ...) and
//     rlimits, and execveats Debian's python3 -I -S -B.
//  3. A Python prelude (prelude.py): whitelisted imports, restricted
//     builtins, an audit hook, no closures to rewrite. Defence in depth and
//     readable errors only: audit hooks are not a boundary (python/cpython
//     docs for sys.addaudithook); the kernel layers are.
//
// The verdict is the server's: the helper's first line on the result pipe
// (written before user code), the exit status and the server's own facts.
//
// A missing layer makes every run answer "sandbox unavailable: <layer>" and
// run nothing. README.md names each layer, what it stops and its sources.
package sandbox
