// Command fake-chartimg runs the fake chart-img API on loopback for demos and
// manual testing:
//
//	go run ./cmd/fake-chartimg --addr 127.0.0.1:8793 --keys test-key=PRO,free=BASIC
//	CHART_IMG_API_URL=http://127.0.0.1:8793 CHART_IMG_DOCS_URL=http://127.0.0.1:8793/ CHART_IMG_API_KEY=test-key chartimg
//
// Faults: curl -XPOST localhost:8793/_fake/faults -d '{"status":429,"count":2}'.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8793", "loopback address to listen on")
	keys := flag.String("keys", "test-key=PRO", "API keys and their plans: key=PLAN,key=PLAN")
	noRate := flag.Bool("no-rate-limit", false, "turn off the per-plan per-second and daily limits")
	flag.Parse()
	m := map[string]string{}
	for _, kv := range strings.Split(*keys, ",") {
		k, p, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || k == "" {
			fmt.Fprintf(os.Stderr, "--keys: want key=PLAN, got %q\n", kv)
			os.Exit(2)
		}
		m[k] = strings.ToUpper(p)
	}
	f := fake.New(fake.Options{Keys: m, NoRateLimit: *noRate})
	dr, err := fakeupstream.DriftFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, fakeupstream.EnvDrift+":", err)
		os.Exit(2)
	}
	f.Drift().Set(dr)
	base, stop := f.StartAt(*addr)
	defer stop()
	fmt.Fprintf(os.Stderr, "fake chart-img listening on %s (docs at %s/)\n", base, base)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	<-sig
}
