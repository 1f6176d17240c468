// Command fake-polymarket runs the fake Gamma, CLOB, Data API and BTC spot
// sources on one loopback port, for trying the polymarket server offline:
//
//	go run ./servers/polymarket/cmd/fake-polymarket --addr 127.0.0.1:8795
//	POLYMARKET_GAMMA_URL=http://127.0.0.1:8795 POLYMARKET_CLOB_URL=http://127.0.0.1:8795 \
//	POLYMARKET_DATA_URL=http://127.0.0.1:8795 POLYMARKET_BTC_URL=http://127.0.0.1:8795 \
//	POLYMARKET_BTC_FALLBACK_URL=http://127.0.0.1:8795 \
//	POLYMARKET_MARKET_WS_URL=ws://127.0.0.1:8795/ws/market polymarket
//
// Live feed: the market websocket is at /ws/market; curl -XPOST
// 127.0.0.1:8795/_fake/sockets/drop drops every open socket.
//
// Faults: curl -XPOST 127.0.0.1:8795/_fake/faults -d '{"kind":"429","retryAfter":2,"count":1}'.
// Drift (docs/drift.md): FAKE_DRIFT=deprecate,rename:conditionId=condition_id,enum:type=MAKER_REBATE,error_body,
// or curl -XPOST 127.0.0.1:8795/_fake/drift -d '{"deprecate":true}'.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8795", "loopback address to listen on")
	flag.Parse()
	f := fake.New(fake.Options{})
	dr, err := fakeupstream.DriftFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, fakeupstream.EnvDrift+":", err)
		os.Exit(2)
	}
	f.Drift().Set(dr)
	base, stop := f.StartAt(*addr)
	defer stop()
	fmt.Fprintf(os.Stderr, "fake polymarket (Gamma, CLOB, Data API, BTC spot) listening on %s\n", base)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	<-sig
}
