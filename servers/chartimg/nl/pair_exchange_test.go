package nl

import "testing"

// A pair written with the exchange it trades on is charted there: the
// exchange ids are the docs' own (COINBASE, KRAKEN, OANDA are exchanges of
// their own in the "TradingView Symbols" tables), so the pair's default
// home (BINANCE for USDT quotes, FX for currencies) must give way.
func TestPairOnNamedExchange(t *testing.T) {
	b := testBuilder()
	for _, c := range []struct{ text, want string }{
		{"BTCUSDT on Coinbase", "COINBASE:BTCUSDT"},
		{"GBPJPY on OANDA", "OANDA:GBPJPY"},
		{"EUR/USD on oanda, 1h", "OANDA:EURUSD"},
		{"ETHUSD on Kraken daily", "KRAKEN:ETHUSD"},
		{"BTCUSDT", "BINANCE:BTCUSDT"},
		{"GBPJPY 4h", "FX:GBPJPY"},
	} {
		t.Run(c.text, func(t *testing.T) {
			r := b.Build(Request{Text: c.text})
			if r.Config.Symbol != c.want {
				t.Fatalf("symbol %q, want %q (warnings %v)", r.Config.Symbol, c.want, r.Warnings)
			}
		})
	}
}
