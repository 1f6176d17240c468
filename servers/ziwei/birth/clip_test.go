package birth

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/extract/extracttest"
)

// Echoed input is clipped by runes: a multi-byte string cut by bytes would
// reach the message as \x escapes or invalid UTF-8.
func TestErrorEchoIsClippedByRunes(t *testing.T) {
	extracttest.RuneSafeEcho(t, func(in string) error {
		_, err := ParseClock(in)
		return err
	})
}
