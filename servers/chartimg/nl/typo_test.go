package nl

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// TestTypoCycleEnds: "williams" and "william" start only longer phrases
// ("williams %r", "william r"…) and are each other's one-edit reading, so a
// "Williams" that starts none of them was re-read back and forth forever (a
// tool call that never returned; found by fuzzing). Every correctable word,
// followed by something that starts no phrase with it, must now come back
// as written, with no "read as" warning for a reading it gave up.
func TestTypoCycleEnds(t *testing.T) {
	b := New(docsparse.Snapshot())
	var texts []string
	for _, ks := range b.typoKeys {
		for _, k := range ks {
			texts = append(texts, "chart of BTC with "+k+" zzqx 77%R")
		}
	}
	texts = append(texts, "Show BTC with Williams 77%R and the Awesome Oscillator over 3 months", "ETH williams indicator", "william")
	done := make(chan []Result, 1)
	go func() {
		var out []Result
		for _, text := range texts {
			out = append(out, b.Build(Request{Text: text}))
		}
		done <- out
	}()
	select {
	case out := <-done:
		r := out[len(out)-3]
		// "%R" alone names Williams %R, and 77 is its length
		if st := r.Config.Studies; r.Config.Symbol != "BINANCE:BTCUSDT" || len(st) != 2 || study(st[0].Name, st[0].Input) != "Williams %R{in_0=77}" || st[1].Name != "Awesome Oscillator" {
			t.Errorf("%q → %+v", texts[len(texts)-3], r.Config)
		}
		for _, w := range r.Warnings {
			if strings.HasPrefix(w, "read ") {
				t.Errorf("a reading given up is still reported: %q", r.Warnings)
			}
		}
	case <-time.After(time.Minute): // a hang detector, not a timing: the loop takes milliseconds
		t.Fatal("Build did not return: a typo correction cycles")
	}
}
