package client

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Fuzz targets for every decoder of outside input: each must return a value
// or an *envelope.Error, never panic.

func seeds(f *testing.F, files ...string) {
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join("testdata", "contract", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`null`))
	f.Add([]byte(`{"outcomes":"[\"Yes\",1,null]","volume":"1,234.5","id":7}`))
	f.Add([]byte(`<html>`))
}

func check[T any](t *testing.T, b []byte) {
	if _, err := decode[T]("fuzz", b); err != nil {
		var e *envelope.Error
		if !errors.As(err, &e) || e.Code != envelope.UpstreamError {
			t.Fatalf("%v", err)
		}
	}
	if _, err := checkBody("fuzz", b, nil); err != nil {
		var e *envelope.Error
		if !errors.As(err, &e) {
			t.Fatalf("%v", err)
		}
	}
}

func FuzzMarket(f *testing.F) {
	seeds(f, "market_live_2025-12-31.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		check[Market](t, b)
		if m, err := decode[Market]("fuzz", b); err == nil {
			_ = m.Prices()
			_, _ = m.Vol(), m.Liq()
		}
	})
}

func FuzzMarketLists(f *testing.F) {
	seeds(f, "keyset_markets.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		check[[]Market](t, b)
		check[MarketPage](t, b)
		check[EventPage](t, b)
		check[[]Event](t, b)
		check[Search](t, b)
	})
}

func FuzzBook(f *testing.F) {
	seeds(f, "book.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		check[Book](t, b)
		check[[]Book](t, b)
		if bk, err := decode[Book]("fuzz", b); err == nil {
			_, _ = bk.BestBid()
			_, _ = bk.BestAsk()
		}
	})
}

func FuzzPricesAndHistory(f *testing.F) {
	seeds(f, "prices_live_strings.json", "prices_sdk_numbers.json", "history.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		check[map[string]map[string]numValue](t, b)
		check[struct {
			History []Point `json:"history"`
		}](t, b)
	})
}

func FuzzDataAPI(f *testing.F) {
	seeds(f, "builders.json", "holders.json", "error_invalid_user.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		check[[]Position](t, b)
		check[[]Activity](t, b)
		check[[]HolderGroup](t, b)
		check[[]Comment](t, b)
		check[[]Builder](t, b)
	})
}

func FuzzDetectors(f *testing.F) {
	seeds(f, "error_gamma_500.json")
	f.Add([]byte("<!DOCTYPE html><title>Attention Required! | Cloudflare</title>"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, st := range []int{200, 403, 425, 500} {
			if e := Cloudflare(st, b); e != nil && e.Code != envelope.UpstreamUnavailable {
				t.Fatal(e)
			}
			_ = TooEarly(st, b)
		}
	})
}
