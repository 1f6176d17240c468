// Command fake-web-search runs the fake OpenAI Responses API (POST
// /v1/responses with the web_search tool) on loopback for demos and manual
// testing:
//
//	fake-web-search --addr 127.0.0.1:8797 --keys sk-test
//	OPENAI_BASE_URL=http://127.0.0.1:8797/v1 OPENAI_API_KEY=sk-test web-search
//
// Scenarios and faults: curl -XPOST localhost:8797/_fake/faults -d '{"scenario":"rate_limited","count":2}';
// curl localhost:8797/_fake/scenarios lists them; '{"latencyMs":20000}' makes answers slow.
// Drift (docs/drift.md): FAKE_DRIFT=deprecate,rename:status=state,enum:type=x,error_body, or
// curl -XPOST localhost:8797/_fake/drift -d '{"deprecate":true}'.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8797", "loopback address to listen on")
	keys := flag.String("keys", "sk-test", "accepted API keys, comma-separated")
	scenario := flag.String("scenario", "", "answer this scenario until told otherwise (default: completed)")
	flag.Parse()
	f := fake.New(fake.Options{Keys: strings.Split(*keys, ",")})
	if *scenario != "" {
		if !fake.Known(*scenario) {
			fmt.Fprintf(os.Stderr, "--scenario: unknown %q; one of %s\n", *scenario, strings.Join(fake.Scenarios(), ", "))
			os.Exit(2)
		}
		f.Push(fake.Fault{Scenario: *scenario})
	}
	dr, err := fakeupstream.DriftFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, fakeupstream.EnvDrift+":", err)
		os.Exit(2)
	}
	f.Drift().Set(dr)
	base, stop := f.StartAt(*addr)
	defer stop()
	fmt.Fprintf(os.Stderr, "fake OpenAI Responses API listening on %s (OPENAI_BASE_URL=%s/v1)\n", base, base)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	<-sig
}
