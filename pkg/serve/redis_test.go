package serve_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

func TestRedisURL(t *testing.T) {
	rdb := redistest.Start(t)
	var got *serve.Registry
	app := testApp()
	inner := app.Register
	app.Register = func(ctx context.Context, r *serve.Registry) error { got = r; return inner(ctx, r) }

	t.Setenv("MCPFLEET_REDIS_URL", "redis://"+redistest.Addr(rdb)+"/0")
	o, err := serve.ParseOptions(app, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := serve.NewLogger(io.Discard, "info")
	if _, err := serve.Build(context.Background(), app, o, log); err != nil {
		t.Fatal(err)
	}
	if got.Redis == nil || got.Redis.Ping(context.Background()).Err() != nil {
		t.Fatal("Register did not get a working Redis client")
	}

	// A dead address fails at start-up, naming the address but not the password.
	t.Setenv("MCPFLEET_REDIS_URL", "redis://:s3cret-pass@127.0.0.1:9/0")
	var stderr bytes.Buffer
	code := serve.Run(context.Background(), testApp(), nil, strings.NewReader(""), io.Discard, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "127.0.0.1:9") || strings.Contains(stderr.String(), "s3cret-pass") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}
