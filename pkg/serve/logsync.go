package serve

import (
	"io"
	"os"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
)

// syncLogs puts a lock under a JSON logger whose writer is not a file (a
// test's buffer): concurrent calls log concurrently, and a bytes.Buffer is not
// safe for that. Files (a process's stderr) take one write per line as they
// are, and a console logger is left as it is.
//
// Batching info lines per 50 ms was tried (issue 20: the per-call log line's
// write syscall is ~6% of a server's CPU) and dropped: a client that kills
// the server right after its last call lost those lines.
func syncLogs(l zerolog.Logger, stderr io.Writer, format string) zerolog.Logger {
	if _, ok := stderr.(*os.File); ok || format == "console" {
		return l
	}
	return l.Output(zerolog.SyncWriter(redact.Writer{W: stderr}))
}
