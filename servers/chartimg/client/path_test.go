package client

import (
	"context"
	"errors"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
)

// TestSymbolsRefusesDotSegments: chart-img once saw GET /v3/tradingview/exchange/..
// (the exchange list); "." and ".." are refused before any request.
func TestSymbolsRefusesDotSegments(t *testing.T) {
	f := fake.New(fake.Options{NoRateLimit: true})
	base, stop := f.Start()
	defer stop()
	c := New(Config{APIURL: base, APIKey: "test-key", NoLimiter: true, Retries: -1})
	for _, ex := range []string{"..", ".", "../list", ""} {
		_, err := c.Symbols(context.Background(), ex, "", "")
		var e *envelope.Error
		if !errors.As(err, &e) || e.Code != envelope.InvalidArgument || e.Details["field"] != "exchange" {
			t.Errorf("exchange %q: %v, want invalid_argument naming exchange", ex, err)
		}
	}
	if n := f.Count(fake.RouteList) + f.Count(fake.RouteSymbols); n != 0 {
		t.Errorf("%d refused requests reached chart-img", n)
	}
	if _, err := c.Symbols(context.Background(), "BINANCE", "BTC", ""); err != nil || f.Count(fake.RouteSymbols) != 1 {
		t.Errorf("a good exchange: %v, %d requests", err, f.Count(fake.RouteSymbols))
	}
}
