package sandbox

import (
	"errors"
	"time"
)

// Result is the outcome of a run that was attempted. A Python error, a
// timeout, the memory limit, too much output and a missing sandbox layer are
// all Success:false with Error saying which; they are answers, not failures
// of the tool.
type Result struct {
	Success  bool
	Output   string // stdout (capped; ends with a note when truncated)
	Error    string // "Type: message" of the Python exception, or what stopped the run
	Stderr   string // the user's stderr and traceback (capped)
	Duration time.Duration
	// Unavailable names the missing layer when the sandbox refused to run.
	Unavailable string
	// Outcome is the server's verdict (OutcomeOK, OutcomeTimeout, ...): the
	// label to count, never derived from the text of Error.
	Outcome string
}

// ErrBusy is returned when every run slot stayed taken for QueueWait.
var ErrBusy = errors.New("sandbox busy")
