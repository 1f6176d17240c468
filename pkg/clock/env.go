package clock

import (
	"fmt"
	"os"
	"time"
)

// EnvNow moves the "now" of the fakes and of the tests that read dates: an
// RFC 3339 time such as 2026-12-06T11:00:00+05:30 (a Sunday). Only fakes
// (servers/*/fake, cmd/fake-*) and tests read it; a server takes its clock
// from whoever builds it and never reads this variable. Go binaries read the
// time through the vDSO, so libfaketime cannot move them; this can, and
// `make test` runs the date-sensitive tests once more on a Sunday and on an
// exchange holiday with it.
const EnvNow = "MCPFLEET_FAKE_NOW"

// Running is a clock that stood at Start when it was made and runs at wall
// speed from there.
type Running struct {
	start time.Time
	made  time.Time
}

// StartingAt returns a clock standing at t now and running on from there.
func StartingAt(t time.Time) *Running { return &Running{start: t, made: time.Now()} }

// Now is the start plus the wall time since the clock was made.
func (c *Running) Now() time.Time { return c.start.Add(time.Since(c.made)) }

// FromEnv is the clock fakes and tests read: System, or, when EnvNow holds a
// time, a Running clock that starts there now. A value that is not RFC 3339
// is an error naming the variable and an example.
func FromEnv() (Clock, error) {
	v := os.Getenv(EnvNow)
	if v == "" {
		return System{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, fmt.Errorf("%s=%q: want an RFC 3339 time such as 2026-12-06T11:00:00+05:30", EnvNow, v)
	}
	return StartingAt(t), nil
}

// MustFromEnv is FromEnv for fakes and tests, where a bad value is a mistake
// of whoever runs them: it panics with FromEnv's message.
func MustFromEnv() Clock {
	c, err := FromEnv()
	if err != nil {
		panic(err)
	}
	return c
}
