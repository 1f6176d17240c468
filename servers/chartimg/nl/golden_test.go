package nl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// goldenFile holds, for every request of the corpus below, the whole result
// (config, reasoning, warnings) as the parser gave it before it was made
// cheaper: a faster parse must give the very same bytes.
const goldenFile = "testdata/golden.jsonl"

type goldenLine struct {
	Req Request         `json:"req"`
	Res json.RawMessage `json:"res"`
}

// goldenExtra are requests beyond the table tests': the regex-shaped parts
// (EXCHANGE:SYMBOL, pairs, sizes), casing, number words, typos, units.
var goldenExtra = []string{
	"Tesla daily candles with the 20 and 50 EMA and RSI 14 over the past 6 months, dark",
	"Show me Tesla daily candles with the 20 and 50 EMA, RSI 14 and Bollinger Bands (20, 2.5) over the past 6 months in dark mode at 1280x720",
	"Hello there! Could you please generate something beautiful and informative for my presentation tomorrow: " +
		"Ethereum against the dollar, hourly candles, including exponential averages twenty and fifty, previous fortnight, thanks so much",
	"RSI:14 NASDAQ:AAPL 9/21 ema 1920x1080 (((", "Theme:dark BINANCE:ETHUSDT rsi:21", "nyse:baba and NASDAQ:aapl and FX:EURUSD and OANDA:XAUUSD and BINANCE:BTCUSDT",
	"ABCDEFGHIJKLMNOPQRSTUVWXYZABC:FOO", "A:B", "x1:y", "foo:bar:baz", "TVC:DXY!", "CRYPTOCAP:BTC.D weekly", "RSI:14:21",
	"EUR/USD", "eur / usd", "btc-usd 4h", "BTC-USDT", "eth/btc and sol/usdt", "abcdef/usd", "eur/usdx", "eur/ usd", "eur /usd",
	"EUR/USD/JPY", "gbp-jpy-usd", "a/b/c/d/e/f/g/h/i/j", "usd/eur/gbp/jpy/chf/cad/aud/nzd/sek/nok/dkk",
	"1920x1080", "1920 x 1080", "1280×720", "1280 × 720 px", "800 by 600 pixels", "800 BY 600 PIXEL", "1024X768px", "12345x678",
	"1920x10800", "640x480pixels", "1920x1080pixelſ", "a1920x1080", "1920x1080b", "_1920x1080", "1920x1080_", "999x99", "100x100 and 200x200",
	"1920\tx\t1080", "1920x1080 px!", "1920  x 1080", "1920x 1080", "1920 x1080",
	"BTC 4h dark last week 1920x1080", "ETH 15m 4K", "BTC support at 4k", "ETH above 4K", "SPY 8k chart", "5K wallpaper of AAPL",
	"twenty one day ema", "two hundred day moving average", "one thousand two hundred", "fifty-day and two-hundred-day MAs",
	"bolinger bands on bitcion", "etherium macd", "stochastik rsi", "TESLA WEEKLY WITH RSI", "AAPL H4 M15 D1 W1 MN1",
	"nvda 1M 3M 6M 1Y", "MSFT 1D 1M", "4h 3M btc", "SOL 70k 1080p 2x std", "rsi14 ema20 sma200 bb20 macd12", "BB(20,2)",
	"MACD(12, 26, 9)", "Bollinger Bands with length 20 and 2.5 standard deviations", "bollinger bands at 2.5 standard deviations",
	"2 EMAs (12 and 26)", "three moving averages 10, 20, 50", "EMA 9, 21 and 55", "golden cross on SPY", "death cross 20 100",
	"without volume", "no RSI please", "the nasdaq 100", "BTC on the daily this week", "AAPL this quarter", "ETH 2-daily",
	"BTC 4-hourly", "donchian 55 weekly", "gold 1,000,000 and 1,234.5", "12,34", ".5 std", "1.2.3.4", "version 2.0",
	"pivot points and elliott waves", "renko chart", "fib retracement on btc", "horizontal line at 65000 and 70000",
	"support at 60k and 58k, resistance at 72,500", "stop loss 2800 target 3500 entry 3000", "width 1000 height 700",
	"1000 wide 700 tall", "BTC 1 minute candles over the past year", "ETH 2020 to 2023", "log scale pre-market as jpeg",
	"percentage scale extended hours png", "foo indicator", "technical indicators", "any oscillator", "ALL", "range: all",
	"Bitcoin — 1W — ALL", "日本 chart 株価", "\xff\xfe invalid utf8 BTC", "ünïcödé rsi", "İSTANBUL weekly", "café",
	"It's Apple's chart", "bitcoin's price", "()[]((", "", " ", "1", "RSI", "EMA EMA EMA", "nonsense words 999 EMA EMA EMA",
	"a year of BTC", "an hour chart of ETH", "Tesla year chart", "hour chart", "24 hours", "48 hours", "5 day chart",
	"13 weeks", "2 quarters", "decade of gold", "fortnight", "6mo 1yr", "a week", "every 4 hours", "interval: 1h range: 1M",
	"3M range", "4h candles", "1Y bar chart", "line chart", "as area", "style: line", "candle and line", "heikin ashi hollow candles",
	"hd", "full hd", "uhd square widescreen", "SPX vs NDX vs DJI vs RUT", "BTC ETH SOL XRP", "PLTR MSTR COIN", "SHOP on TSX",
}

// goldenRequests are the corpus: every table and held-out text, the extras,
// and arguments beside the text.
func goldenRequests() []Request {
	var reqs []Request
	for _, c := range cases {
		reqs = append(reqs, Request{Text: c.text})
	}
	for _, c := range heldout {
		reqs = append(reqs, Request{Text: c.text})
	}
	for _, t := range goldenExtra {
		reqs = append(reqs, Request{Text: t}, Request{Text: strings.ToUpper(t)}, Request{Text: strings.ToLower(t)})
	}
	return append(reqs, []Request{
		{Text: "chart with RSI", Symbol: "NASDAQ:AMD"}, {Text: "bitcoin", Symbol: "ETH"}, {Text: "chart of PLTRX", Exchange: "NYSE"},
		{Text: "chart", Symbol: "SHOP", Exchange: "TSX"}, {Text: "bitcoin", Exchange: "KRAKEN"}, {Text: "chart", Symbol: "WEIRD"},
		{Text: "ETH", Exchange: "NOWHERE"}, {Text: "apple", Exchange: "NYSE"}, {Text: "AAPL", Symbol: "tesla"},
		{Text: "BTC 4h dark last week 1920x1080", Prefs: Preferences{Theme: "light", Interval: "1D", Range: "3M", Resolution: "1024x768"}},
		{Text: "ETH light", Prefs: Preferences{Theme: "dark"}}, {Text: "ETH dark", Prefs: Preferences{Theme: "dark"}},
		{Text: "SOL", Prefs: Preferences{Resolution: "4000x3000"}}, {Text: "SOL", Prefs: Preferences{Resolution: "100x100"}},
		{Text: "BTC 1m", Prefs: Preferences{Range: "ALL"}},
	}...)
}

func TestGoldenOutputs(t *testing.T) {
	b := testBuilder()
	if os.Getenv("UPDATE_NL_GOLDEN") == "1" {
		var buf bytes.Buffer
		for _, r := range goldenRequests() {
			// as read back (invalid UTF-8 in the text becomes U+FFFD)
			rb, _ := json.Marshal(r)
			if err := json.Unmarshal(rb, &r); err != nil {
				t.Fatal(err)
			}
			res, err := json.Marshal(b.Build(r))
			if err != nil {
				t.Fatal(err)
			}
			line, _ := json.Marshal(goldenLine{Req: r, Res: res})
			buf.Write(line)
			buf.WriteByte('\n')
		}
		if err := os.WriteFile(goldenFile, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var g goldenLine
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		n++
		got, err := json.Marshal(b.Build(g.Req))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, g.Res) {
			t.Errorf("%+v:\n got %s\nwant %s", g.Req, got, g.Res)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 500 {
		t.Fatalf("only %d golden requests", n)
	}
}

// TestBuildConcurrent: parse states are pooled and the word tables built on
// first use, so concurrent calls must give exactly what one call at a time
// gives (run with -race).
func TestBuildConcurrent(t *testing.T) {
	b := testBuilder()
	reqs := goldenRequests()
	want := make([][]byte, len(reqs))
	for i, r := range reqs {
		want[i], _ = json.Marshal(b.Build(r))
	}
	errs := make(chan string, 8)
	for g := range 8 {
		go func() {
			for k := range reqs {
				i := (k*7 + g*31) % len(reqs)
				got, _ := json.Marshal(b.Build(reqs[i]))
				if !bytes.Equal(got, want[i]) {
					errs <- fmt.Sprintf("%+v: got %s, alone %s", reqs[i], got, want[i])
					return
				}
			}
			errs <- ""
		}()
	}
	for range 8 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
