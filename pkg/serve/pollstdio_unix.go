//go:build unix

package serve

import (
	"os"

	"golang.org/x/sys/unix"
)

// pollable gives the stdio transport a copy of f that the runtime's poller
// serves, when f is a pipe or a socket (what an MCP client hands a stdio
// server), and a func that closes the copy and leaves f's blocking mode as it
// found it. For anything else (a terminal, a file, /dev/null) it returns nil
// and the transport uses f as it is.
//
// Why (issue 20, docs/benchmarks.md twelfth run): os.Stdin and os.Stdout are
// blocking descriptors, so the goroutine waiting for the next request sits in
// read(2) holding its processor. While an answer's write(2) is in flight too,
// both of a 2-core box's processors are in system calls; sysmon takes one
// back, hands it to a thread that finds nothing to do, and the reader then
// returns without a processor. A trace of sequential calls showed that on a
// third of the calls (the floor, on a tenth) and ~0.5 more thread wake-ups a
// call. Through the poller the reader parks like any goroutine: sequential
// calls cost ~7% less server CPU (12 interleaved pairs, median 0.93).
//
// The copy is a dup, so closing it never closes the caller's descriptor. The
// non-blocking flag belongs to the open pipe both share: nothing else here
// reads stdin or writes stdout while the transport runs (stdout is the
// protocol's), and the flag is put back when it stops.
func pollable(f *os.File) (*os.File, func()) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, nil
	}
	fd := -1
	// Control, not f.Fd(): Fd would switch f to blocking mode.
	if rc.Control(func(u uintptr) { fd = int(u) }) != nil || fd < 0 {
		return nil, nil
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return nil, nil
	}
	if t := st.Mode & unix.S_IFMT; t != unix.S_IFIFO && t != unix.S_IFSOCK {
		return nil, nil
	}
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return nil, nil
	}
	wasNonblock := flags&unix.O_NONBLOCK != 0
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, nil
	}
	if err := unix.SetNonblock(dup, true); err != nil {
		_ = unix.Close(dup)
		return nil, nil
	}
	// A non-blocking descriptor makes NewFile register it with the poller.
	served := os.NewFile(uintptr(dup), f.Name())
	return served, func() {
		_ = served.Close()
		if !wasNonblock {
			_ = unix.SetNonblock(fd, false)
		}
	}
}
