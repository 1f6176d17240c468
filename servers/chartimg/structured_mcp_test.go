package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
)

// TestConstructStructuredThroughMCP: the structured fields as a client
// sends them, and their refusals as invalid_argument with the closest names.
func TestConstructStructuredThroughMCP(t *testing.T) {
	e := start(t, setup{})
	for _, c := range []struct {
		name    string
		args    map[string]any
		studies string // config.studies[*].name joined
		tz      string
		code    envelope.Code
		msg     string
	}{
		{name: "studies and timezone without text", args: map[string]any{"symbol": "NASDAQ:AAPL", "timezone": "America/New_York",
			"studies": []any{map[string]any{"name": "Relative Strength Index", "inputs": map[string]any{"length": 21}, "overrides": map[string]any{"UpperLimit.value": 80}}}},
			studies: "Relative Strength Index", tz: "America/New_York"},
		{name: "v2 spelling input/override taken", args: map[string]any{"naturalLanguage": "AAPL daily",
			"studies": []any{map[string]any{"name": "MACD", "input": map[string]any{"in_0": 8}}}}, studies: "MACD"},
		{name: "unknown study: closest names", args: map[string]any{"symbol": "NASDAQ:AAPL", "studies": []any{map[string]any{"name": "Bolinger Band"}}},
			code: envelope.InvalidArgument, msg: `"Bollinger Bands"`},
		{name: "unknown field", args: map[string]any{"symbol": "NASDAQ:AAPL", "studies": []any{map[string]any{"name": "MACD", "params": map[string]any{}}}},
			code: envelope.InvalidArgument, msg: "name, inputs, overrides"},
		{name: "timezone off the list", args: map[string]any{"symbol": "NASDAQ:AAPL", "timezone": "Asia/Kabul"},
			code: envelope.InvalidArgument, msg: "nearest"},
		{name: "nothing asked", args: map[string]any{}, code: envelope.InvalidArgument, msg: "naturalLanguage"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := e.call(t, "construct_chart_config", c.args)
			if c.code != "" {
				b := servetest.ErrorBody(t, res)
				if b.Code != c.code || !strings.Contains(b.Message, c.msg) {
					t.Fatalf("got %s %q, want %s containing %q", b.Code, b.Message, c.code, c.msg)
				}
				return
			}
			out := servetest.Decode[nl.Result](t, res)
			var names []string
			for _, st := range out.Config.Studies {
				names = append(names, st.Name)
			}
			if strings.Join(names, ",") != c.studies || out.Config.Timezone != c.tz {
				t.Fatalf("studies %v timezone %q: %s", names, out.Config.Timezone, servetest.ResultJSON(res))
			}
		})
	}
}
