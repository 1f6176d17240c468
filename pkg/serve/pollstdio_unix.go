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
// protocol's), and the flag is put back when it stops. One difference from
// writing fd 1 itself: once the client has gone, a write fails with EPIPE
// instead of the runtime ending the process with SIGPIPE; the server then
// stops at stdin's end, as it does anyway.
func pollable(f *os.File) (*os.File, func()) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, nil
	}
	var served *os.File
	var wasNonblock bool
	// Control, not f.Fd() (Fd would switch f to blocking mode). The
	// descriptor is used only inside it, while f is known to hold it open.
	if rc.Control(func(fd uintptr) { served, wasNonblock = pollableDup(int(fd), f.Name()) }) != nil || served == nil {
		return nil, nil
	}
	return served, func() {
		_ = served.Close()
		if !wasNonblock {
			// Through f again: if the caller has closed f meanwhile this
			// fails, rather than changing whatever now has that number.
			_ = rc.Control(func(fd uintptr) { _ = unix.SetNonblock(int(fd), false) })
		}
	}
}

// pollableDup is pollable's work on the descriptor itself: a non-blocking
// duplicate as a File, if fd is a pipe or a socket, and whether fd was
// non-blocking already.
func pollableDup(fd int, name string) (served *os.File, wasNonblock bool) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return nil, false
	}
	if t := st.Mode & unix.S_IFMT; t != unix.S_IFIFO && t != unix.S_IFSOCK {
		return nil, false
	}
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return nil, false
	}
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	if err := unix.SetNonblock(dup, true); err != nil {
		_ = unix.Close(dup)
		return nil, false
	}
	// A non-blocking descriptor makes NewFile register it with the poller.
	return os.NewFile(uintptr(dup), name), flags&unix.O_NONBLOCK != 0
}
