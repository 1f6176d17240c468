// Package sandbox runs untrusted Python (polymarket's execute-python-code) in
// layers, each of which fails closed:
//
//  1. Request checks in Go (Validate): code ≤ 64 KiB, input_data ≤ 1 MiB of a
//     JSON object whose keys are Python identifiers; an empty environment, a
//     wall timeout that kills the process group, capped stdout and stderr, a
//     concurrency limit sized to the machine.
//  2. Kernel isolation in a re-exec'd helper of our own binary (MaybeChild):
//     new user, network, mount, IPC and UTS namespaces; uid/gid nobody;
//     no_new_privs; Landlock (read-only stdlib and libraries, execute only
//     the interpreter, no writes, no TCP, no signals out of the domain); a
//     seccomp allow-list (no fork, sockets, ptrace, mount, unshare, setns,
//     bpf, io_uring, keyctl, perf_event_open, kill); rlimits AS, CPU, NPROC,
//     FSIZE 0, NOFILE, CORE 0. The helper then execs Debian's python3 -I -S -B.
//  3. A Python prelude (prelude.py): whitelisted imports, restricted
//     builtins, an audit hook. Defence in depth and readable errors only:
//     audit hooks are not a boundary (python/cpython docs for sys.addaudithook).
//
// A missing layer makes every run answer "sandbox unavailable: <layer>" and
// run nothing. ref: polymarket.md §3.2, §3.6 (measured escapes and layers).
package sandbox
