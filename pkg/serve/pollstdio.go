package serve

import (
	"io"
	"os"
)

// pollableStdio swaps the stdio transport's stdin and stdout for copies the
// runtime's poller serves, where pollable can make them (pipes and sockets on
// unix), and returns what puts things back once the transport has stopped.
func pollableStdio(stdin io.Reader, stdout io.Writer) (io.Reader, io.Writer, func()) {
	var undo []func()
	if f, ok := stdin.(*os.File); ok {
		if p, u := pollable(f); p != nil {
			stdin, undo = p, append(undo, u)
		}
	}
	if f, ok := stdout.(*os.File); ok {
		if p, u := pollable(f); p != nil {
			stdout, undo = p, append(undo, u)
		}
	}
	return stdin, stdout, func() {
		for _, u := range undo {
			u()
		}
	}
}
