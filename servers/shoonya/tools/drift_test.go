package tools_test

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// TestRunTimeWatchSeesEachDrift: the fake Noren drifts each way and
// get_order_book's ordinary traffic notices it: one warn line per kind on
// the OrderBook route (the live probe: drift_probe_test.go).
func TestRunTimeWatchSeesEachDrift(t *testing.T) {
	servetest.WatchEveryAnswer(t)
	e := newEnv(t, noren.Legacy, envOpt{})
	e.connect()
	e.openOrder()
	cases := []struct {
		name  string
		drift fakeupstream.Drift
		kind  string
	}{
		{"deprecation headers", fakeupstream.Drift{Deprecate: true}, drift.Deprecated},
		{"renamed field", fakeupstream.Drift{RenameFrom: "norenordno", RenameTo: "order_no"}, drift.Missing},
		{"new enum value", fakeupstream.Drift{EnumField: "prctyp", EnumValue: "SL-LMT-GTT"}, drift.NewEnum},
		{"new error body", fakeupstream.Drift{ErrorBody: true}, drift.ErrorBody},
	}
	for _, c := range cases {
		e.fake.Drift().Set(c.drift)
		e.call("get_order_book", map[string]any{})
		e.call("get_order_book", map[string]any{})
		if n := strings.Count(e.conn.Logs(), `"route":"OrderBook","drift":"`+c.kind+`"`); n != 1 {
			t.Errorf("%s: %d warn lines", c.name, n)
		}
	}
	e.fake.Drift().Set(fakeupstream.Drift{})
	for k := range e.fake.Drift().Seen() {
		if !strings.HasPrefix(k, "POST /NorenWClientTP/") && !strings.HasPrefix(k, "GET /NorenWSTP") {
			t.Errorf("unexpected request %s", k)
		}
	}
}
