package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// setup starts a fake Polymarket and a polymarket server in front of it.
type setup struct {
	conn *servetest.Conn
	fake *fake.Server
	base string
}

type opts struct {
	timeout   string
	publicMax int
	userMax   int
	redisURL  string
}

func start(t testing.TB, o opts) *setup {
	t.Helper()
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	return &setup{conn: connect(t, base, o), fake: f, base: base}
}

func connect(t testing.TB, base string, o opts) *servetest.Conn {
	t.Helper()
	if o.timeout == "" {
		o.timeout = "2s"
	}
	if o.publicMax == 0 {
		o.publicMax = 10000
	}
	if o.userMax == 0 {
		o.userMax = 10000
	}
	t.Setenv("MCPFLEET_REDIS_URL", o.redisURL)
	cfg := configForTest()
	cfg.PublicPerMinute, cfg.UserPerMinute = o.publicMax, o.userMax
	return servetest.New(t, app(cfg), "--gamma-url", base, "--clob-url", base, "--data-url", base,
		"--btc-url", base, "--btc-fallback-url", base, "--timeout", o.timeout)
}

func TestToolsListBudget(t *testing.T) {
	s := start(t, opts{})
	ts := s.conn.Tools(t)
	total, descr := 0, 0
	for _, tl := range ts {
		b, _ := json.Marshal(tl)
		total += len(b)
		in, _ := json.Marshal(tl.InputSchema)
		if tl.RawInputSchema != nil {
			in = tl.RawInputSchema
		}
		descr += len(tl.Name) + len(tl.Description) + len(in)
		t.Logf("%-26s %5d B (name+description+input %d)", tl.Name, len(b), len(tl.Name)+len(tl.Description)+len(in))
	}
	avg, avgIn := total/len(ts), descr/len(ts)
	t.Logf("%d tools, %d B, %d B per tool on average, name+description+input %d B", len(ts), total, avg, avgIn)
	if avg > 1024 {
		t.Errorf("tools/list is %d B per tool on average, budget 1024", avg)
	}
	if avgIn > 700 {
		t.Errorf("name+description+input schema is %d B per tool on average, budget 700", avgIn)
	}
}

func configForTest() *tools.Config { return &tools.Config{RetryWait: 20 * time.Millisecond} }
