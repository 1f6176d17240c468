package nl

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

// A timezone in the text is read as a zone on the docs' closed list (the
// phrasing classes: a city with "time" as traders write session times, "in
// New York time"; clock abbreviations, "EST", "UTC"; the IANA name itself;
// a city whose own zone is not listed, "Denver time"), and never swallowed:
// what cannot be read as a listed zone is a warning.
func TestTimezoneInText(t *testing.T) {
	b := testBuilder()
	for _, c := range []struct {
		text, zone, symbol, warn string
	}{
		{"AAPL 15 minute chart in New York time", "America/New_York", "NASDAQ:AAPL", ""},
		{"Nikkei daily, Tokyo time", "Asia/Tokyo", "", ""},
		{"BTC 1h EST", "America/New_York", "BINANCE:BTCUSDT", ""},
		{"bitcoin 4h chart UTC", "Etc/UTC", "BINANCE:BTCUSDT", ""},
		{"ETH hourly in GMT", "Etc/UTC", "BINANCE:ETHUSDT", ""},
		{"TSLA 5m PST", "America/Los_Angeles", "NASDAQ:TSLA", ""},
		{"EUR/USD 1h timezone Europe/London", "Europe/London", "FX:EURUSD", ""},
		{"gold daily in London time", "Europe/London", "", ""},
		{"SPY 30m eastern time", "America/New_York", "AMEX:SPY", ""},
		{"BTC 4h in Denver time", "US/Mountain", "BINANCE:BTCUSDT", "America/Denver is not on chart-img's list"},
		{"Nifty 15m IST", "Asia/Kolkata", "", "IST is read as India"},
		{"BTC 1h in Kabul time", "", "BINANCE:BTCUSDT", "no timezone was set"},
		{"BTC 1h EST and Tokyo time", "America/New_York", "BINANCE:BTCUSDT", "several timezones stated"},
		{"bitcoin with a mountain chart", "", "BINANCE:BTCUSDT", ""},
	} {
		t.Run(c.text, func(t *testing.T) {
			r := b.Build(Request{Text: c.text})
			if r.Config.Timezone != c.zone {
				t.Errorf("timezone %q, want %q (warnings %v)", r.Config.Timezone, c.zone, r.Warnings)
			}
			if c.symbol != "" && r.Config.Symbol != c.symbol {
				t.Errorf("symbol %q, want %q", r.Config.Symbol, c.symbol)
			}
			if got := strings.Join(r.Warnings, "; "); c.warn != "" && !strings.Contains(got, c.warn) {
				t.Errorf("warnings %q, want one containing %q", got, c.warn)
			}
		})
	}
}

// TestTimezoneTablesOnTheList: every zone an abbreviation or name is read
// as is on the docs' list (or the documented default), so what
// construct_chart_config writes passes validate_chart_config.
func TestTimezoneTablesOnTheList(t *testing.T) {
	b := testBuilder()
	on := map[string]bool{chart.DefaultTimezone: true}
	for _, z := range b.zones {
		on[z] = true
	}
	for _, m := range []map[string]string{chart.ZoneAbbreviations, chart.ZoneNames} {
		for word, zone := range m {
			if !on[zone] {
				t.Errorf("%q → %s, which is not on the docs' list", word, zone)
			}
		}
	}
}
