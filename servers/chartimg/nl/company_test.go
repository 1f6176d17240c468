package nl

import (
	"strings"
	"testing"
)

// Company names that are also exchange names: with a word that marks the
// company they chart its stock; alone, or with a pair or a listed name, they
// stay the exchange.
func TestCompanyNamedLikeAnExchange(t *testing.T) {
	b := testBuilder()
	for _, c := range []struct{ text, symbol, rng, warn string }{
		{text: "Coinbase shares year to date", symbol: "NASDAQ:COIN", rng: "YTD"},
		{text: "shares of Coinbase YTD", symbol: "NASDAQ:COIN", rng: "YTD"},
		{text: "Coinbase stock daily", symbol: "NASDAQ:COIN"},
		{text: "Coinbase Global with RSI", symbol: "NASDAQ:COIN"},
		{text: "Nasdaq Inc stock 1 year", symbol: "NASDAQ:NDAQ", rng: "1Y"},
		{text: "CME Group weekly", symbol: "NASDAQ:CME"},
		{text: "ICE stock 6 months", symbol: "NYSE:ICE", rng: "6M"},
		{text: "Intercontinental Exchange daily", symbol: "NYSE:ICE"},
		{text: "Deutsche Börse shares", symbol: "XETR:DB1"},
		{text: "Deutsche Boerse 1 year", symbol: "XETR:DB1", rng: "1Y"},
		{text: "Cboe Global Markets", symbol: "CBOE:CBOE"},
		{text: "London Stock Exchange Group shares", symbol: "LSE:LSEG"},
		{text: "Hong Kong Exchanges and Clearing", symbol: "HKEX:388"},
		{text: "Robinhood stock ytd", symbol: "NASDAQ:HOOD", rng: "YTD"},
		// the exchange reading stays
		{text: "bitcoin on Coinbase", symbol: "COINBASE:BTCUSD"},
		{text: "BTCUSDT on Coinbase", symbol: "COINBASE:BTCUSDT"},
		{text: "GBPJPY on OANDA", symbol: "OANDA:GBPJPY"},
		{text: "AAPL on Nasdaq daily", symbol: "NASDAQ:AAPL"},
		{text: "Nasdaq 100 daily", symbol: "NASDAQ:NDX"},
		{text: "Coinbase", warn: "NASDAQ:COIN"},
		{text: "Nasdaq stocks", warn: "NASDAQ:NDAQ"},
	} {
		t.Run(c.text, func(t *testing.T) {
			r := b.Build(Request{Text: c.text})
			rng, _ := r.Config.Range.(string)
			if r.Config.Symbol != c.symbol || rng != c.rng {
				t.Fatalf("symbol %q range %q, want %q %q (warnings %v)", r.Config.Symbol, rng, c.symbol, c.rng, r.Warnings)
			}
			if c.warn != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), c.warn) {
				t.Fatalf("warnings %v lack %q", r.Warnings, c.warn)
			}
		})
	}
}
