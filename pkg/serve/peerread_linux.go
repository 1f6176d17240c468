package serve

import (
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// peerReadWait bounds how long a progress notification waits for the client
// to read it (a client that stops reading must not hold the call).
const peerReadWait = 50 * time.Millisecond

// waitPeerRead returns a function that waits until the client has read
// everything written to w, when w is a pipe or a Unix socket (how clients
// spawn a stdio server), else nil.
//
// Why: the official TypeScript SDK handles a notification a microtask after
// the synchronous handling of the messages read with it, so a progress
// notification that reaches it in the same read as the result is handled
// after the result, for an "unknown token" (@modelcontextprotocol/sdk
// shared/protocol.js: _onnotification defers through Promise.resolve(),
// _onresponse does not). Once the client has read the notification, the
// result comes in a later read.
func waitPeerRead(w io.Writer) func() {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var req uint
	_ = rc.Control(func(fd uintptr) {
		var st unix.Stat_t
		if unix.Fstat(int(fd), &st) != nil {
			return
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFIFO:
			req = unix.TIOCINQ // FIONREAD: a pipe's unread bytes, from either end
		case unix.S_IFSOCK:
			req = unix.SIOCOUTQ // a Unix socket: bytes sent, not yet read by the peer
		}
	})
	if req == 0 {
		return nil
	}
	unread := func() int {
		n := 0
		if rc.Control(func(fd uintptr) {
			if v, err := unix.IoctlGetInt(int(fd), req); err == nil {
				n = v
			}
		}) != nil {
			return 0
		}
		return n
	}
	return func() {
		deadline := time.Now().Add(peerReadWait)
		for unread() > 0 && time.Now().Before(deadline) {
			time.Sleep(100 * time.Microsecond)
		}
	}
}
