package redact

import "testing"

// The prefilter may say "maybe" too often but never "no" for a line the
// field rule would scrub.
func FuzzPrefilterNeverMisses(f *testing.F) {
	for _, s := range []string{
		`{"X-Api-Key":"a"}`, `{"PASSWD":"a"}`, `{"client_secret":"x"}`, `{"SuserToken":"t"}`,
		`{"Factor2":"1"}`, `{"JKEY":"k"}`, `{"tool":"get_market","code":"ok"}`, `{"Authorization":"Bearer x"}`,
		`{"appKey":"k"}`, `{"Cookie":"c"}`, `{"pwd":"p"}`, `{"tokens":"t"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if jsonField.MatchString(s) && !mayNameSecret([]byte(s)) {
			t.Fatalf("prefilter misses %q", s)
		}
	})
}

func TestPrefilterSkipsPlainCallLines(t *testing.T) {
	line := []byte(`{"level":"info","server":"ziwei","tool":"initialize_chart","user":"local","code":"ok","duration_ms":0.05,"time":"2026-11-24T06:00:00Z","message":"tool call"}`)
	if mayNameSecret(line) {
		t.Fatal("an ordinary call line should skip the regular expression")
	}
	if got := string(Scrub([]byte(`{"X-API-KEY":"abc"}`))); got != `{"X-API-KEY":"`+mask+`"}` {
		t.Fatalf("upper-case field not scrubbed: %s", got)
	}
}

// containsFoldEach is the prefilter as it was (one scan per stem): the
// one-pass version must answer the same for every line.
func containsFoldEach(p []byte) bool {
	for _, w := range secretWords {
		for i := 0; i+len(w) <= len(p); i++ {
			if hasFoldAt(p, i, w) {
				return true
			}
		}
	}
	return false
}

func FuzzPrefilterOnePass(f *testing.F) {
	for _, s := range []string{`{"X-Api-Key":"a"}`, `pAsS`, `facto`, `factor2`, "\x12", `kEy`, `tok`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		if got, want := mayNameSecret(p), containsFoldEach(p); got != want {
			t.Fatalf("%q: one pass %v, per stem %v", p, got, want)
		}
	})
}

func BenchmarkPrefilterCallLine(b *testing.B) {
	line := []byte(`{"level":"info","server":"ziwei","tool":"initialize_chart","user":"local","code":"ok","duration_ms":0.05,"time":"2026-11-24T06:00:00Z","message":"tool call"}`)
	b.Run("per-stem", func(b *testing.B) {
		for b.Loop() {
			containsFoldEach(line)
		}
	})
	b.Run("one-pass", func(b *testing.B) {
		for b.Loop() {
			mayNameSecret(line)
		}
	})
}
