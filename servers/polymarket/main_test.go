package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/feed"
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
		"--btc-url", base, "--btc-fallback-url", base, "--timeout", o.timeout,
		"--market-ws-url", "ws"+strings.TrimPrefix(base, "http")+"/ws/market")
}

func configForTest() *tools.Config {
	return &tools.Config{RetryWait: 20 * time.Millisecond,
		Feed: feed.Options{IdleClose: 100 * time.Millisecond, MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond}}
}
