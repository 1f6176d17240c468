package serve

import (
	"strings"
	"testing"
)

// Any of the three kinds of token counts as authentication for a
// non-loopback address; none does not, and the refusal names all three.
func TestCheckListenAuthenticated(t *testing.T) {
	for _, c := range []struct {
		name string
		o    Options
		ok   bool
	}{
		{"none", Options{}, false},
		{"static tokens", Options{AuthTokens: map[string]string{"static-0123456789abcdef": "ops"}}, true},
		{"issued tokens", Options{AuthIssued: true}, true},
	} {
		err := checkListen("0.0.0.0:8701", c.o.authenticated())
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
		if err != nil && (!strings.Contains(err.Error(), "MCPFLEET_AUTH_ISSUED=1") || !strings.Contains(err.Error(), "MCPFLEET_AUTH_TOKENS")) {
			t.Errorf("the refusal does not name every way to authenticate: %v", err)
		}
	}
	if err := checkListen("127.0.0.1:8701", false); err != nil {
		t.Errorf("loopback: %v", err)
	}
}
