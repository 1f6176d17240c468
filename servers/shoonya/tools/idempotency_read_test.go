package tools_test

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestIdempotencyReadFailsSendsNothing: place_order reads the order book
// first to learn whether this key was placed already; when that read is
// refused or broken, the order is not sent (a refusal is not "no such order
// yet"), whether the model calls it directly or a person confirms on the page.
func TestIdempotencyReadFailsSendsNothing(t *testing.T) {
	faults := []struct {
		name  string
		fault fake.Fault
	}{
		{"jData refused", fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgJDataInvalid}},
		{"invalid input", fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgInvalidInput}},
		{"server timeout text", fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgServerTimeout}},
		{"malformed body", fake.Fault{Kind: fake.FaultMalformed}},
		{"http 502", fake.Fault{Kind: fake.FaultStatus, Status: 502}},
	}
	for _, era := range eras {
		for _, f := range faults {
			t.Run(string(era)+"/"+f.name, func(t *testing.T) {
				rep, proxy := newReplicas(t, era, 1, "", nil)
				e := rep[0]
				e.fake.SetFault("OrderBook", f.fault)
				res := e.call("place_order", limitBuy("SBIN-EQ", 1, 700, "idem-read"))
				if !res.IsError {
					t.Fatalf("placed without knowing whether the key was placed: %s", servetest.Text(res))
				}
				if n := proxy.count("PlaceOrder"); n != 0 {
					t.Fatalf("PlaceOrder requests %d with the idempotency read failing", n)
				}
				e.fake.ClearFaults()
				if out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", limitBuy("SBIN-EQ", 1, 700, "idem-read"))); out.Outcome != "placed" || proxy.count("PlaceOrder") != 1 {
					t.Fatalf("after the read recovers: %+v, PlaceOrder %d", out, proxy.count("PlaceOrder"))
				}
			})
		}
	}
	t.Run("through the confirmation page", func(t *testing.T) {
		ce := newConfirmEnv(t, noren.Legacy, "stdio", nil)
		out := servetest.Decode[tools.PlaceOut](t, ce.call("place_order", limitBuy("SBIN-EQ", 1, 700, "idem-page")))
		page := confirmPage(t, out.ConfirmURL)
		ce.fake.SetFault("OrderBook", fake.Fault{Kind: fake.FaultRefuse, Body: fake.EmsgJDataInvalid})
		got := postConfirm(t, out.ConfirmURL, page, nil)
		if strings.Contains(got.body, "Placed: order") || !strings.Contains(got.body, "Not placed") || ce.proxy.count("PlaceOrder") != 0 {
			t.Fatalf("page with the read failing: %d %s; PlaceOrder %d", got.status, got.body, ce.proxy.count("PlaceOrder"))
		}
	})
}
