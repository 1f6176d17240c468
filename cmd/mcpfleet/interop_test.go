package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// The interop suite drives every server with the official MCP SDK clients
// (the Go SDK here, the TypeScript SDK in interop_ts_test.go), in both
// protocol eras and over both transports, against the server's fake upstream.
// Every failure names server, era, transport and step.

// interopEras are the protocol revisions clients negotiate today: the
// session-based 2025-11-25 and the stateless 2026-07-28 (server/discover,
// request _meta, subscriptions/listen).
var interopEras = []string{"2025-11-25", "2026-07-28"}

var interopTransports = []string{"stdio", "http"}

// interopCall is one tools/call and a string its result must contain.
type interopCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args"`
	Want string         `json:"want"`
}

// interopPlan is what the suite calls on a server: a call that must succeed
// against the fake, and one with a required argument missing, which must be an
// isError result (invalid_argument) the model can read, not a protocol error.
type interopPlan struct {
	Valid   interopCall `json:"valid"`
	Invalid interopCall `json:"invalid"`
	// Subscribable: resources a client can watch (resources.subscribe advertised).
	Subscribable bool `json:"subscribable"`
}

var interopPlans = map[string]interopPlan{
	"ziwei": {
		Valid:   interopCall{"initialize_chart", map[string]any{"birthDate": "1990-05-17", "birthTimeIndex": 6, "gender": "female"}, "chart_id"},
		Invalid: interopCall{"initialize_chart", map[string]any{"birthTimeIndex": 6, "gender": "female"}, "invalid_argument"},
	},
	"shoonya": {
		Valid:        interopCall{"connect_shoonya_broker", map[string]any{}, "connected"},
		Invalid:      interopCall{"get_quotes", map[string]any{"exchange": "NSE"}, "invalid_argument"},
		Subscribable: true,
	},
	"chartimg": {
		Valid:   interopCall{"get_exchanges", map[string]any{}, "NASDAQ"},
		Invalid: interopCall{"validate_chart_config", map[string]any{}, "invalid_argument"},
	},
	"ktrdr": {
		Valid:   interopCall{"list_operations", map[string]any{}, "operation_id"},
		Invalid: interopCall{"trigger_data_loading", map[string]any{"timeframe": "1h"}, "invalid_argument"},
	},
	"polymarket": {
		Valid:        interopCall{"list_markets", map[string]any{}, "markets"},
		Invalid:      interopCall{"get_market", map[string]any{}, "invalid_argument"},
		Subscribable: true, // the live feed's resources (polymarket://feed)
	},
	"google-news-rss": {
		Valid:   interopCall{"build_search_feed", map[string]any{"terms": []string{"oil"}, "preset": "uae_focus"}, "gnq_"},
		Invalid: interopCall{"build_search_feed", map[string]any{"terms": []string{"oil"}, "preset": "no_such_preset"}, "invalid_argument"},
	},
	"web-search": {
		Valid:   interopCall{"get_search_capabilities", map[string]any{}, "calls_per_window"},
		Invalid: interopCall{"search_web", map[string]any{}, "invalid_argument"},
	},
}

// interopUpstream is the environment of one server for the suite: its fake
// upstream (shared by the server's runs, as one real upstream would be) and
// no bearer tokens over HTTP beyond the canary one.
func interopUpstream(t *testing.T, bins, name string) []string {
	t.Helper()
	if name == "ktrdr" {
		// Loads long enough for several progress notifications and a
		// cancellation while one runs.
		env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "MCPFLEET_LOG_LEVEL=debug",
			"MCPFLEET_AUTH_TOKENS=canary=" + canaryToken}
		addr := startFake(t, filepath.Join(bins, "fake-ktrdr"), "--data-load-duration", "2s", "--training-duration", "2s")
		return append(env, "KTRDR_API_URL=http://"+addr+"/api/v1", "KTRDR_API_KEY="+canaryAPIKey)
	}
	env := replicaUpstream(t, bins, name).env
	if name == "shoonya" {
		env = append(env, "MCPFLEET_LOG_LEVEL=debug", "MCPFLEET_AUTH_TOKENS=canary="+canaryToken)
	}
	return env
}

// bearer adds the canary token to every request, as a deployed client would.
type bearer struct{ rt http.RoundTripper }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+canaryToken)
	return b.rt.RoundTrip(r)
}

// wire records the bytes a client received, in arrival order, so a test can
// tell what came before what on the wire (a client's handlers run
// concurrently with its reader and cannot tell).
type wire struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *wire) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// progressOrder checks that every progress notification for token came
// before the result resultMark matches: a notification after the result is
// one a client drops.
func progressOrder(received, token string, resultMark *regexp.Regexp) error {
	loc := resultMark.FindStringIndex(received)
	if loc == nil {
		return fmt.Errorf("no result matching %s on the wire", resultMark)
	}
	res := loc[0]
	last := strings.LastIndex(received, token)
	if last < 0 {
		return fmt.Errorf("no progress notification for token %s", token)
	}
	if last > res {
		return fmt.Errorf("a progress notification for %s came after the result", token)
	}
	// The finished operation's 100 % is the last one before the result.
	start := strings.LastIndexByte(received[:last], '\n') + 1
	end := last + strings.IndexByte(received[last:], '\n')
	if end < last {
		end = len(received)
	}
	if line := received[start:end]; !strings.Contains(line, `"progress":100`) {
		return fmt.Errorf("the last progress notification before the result is not 100: %s", line)
	}
	return nil
}
