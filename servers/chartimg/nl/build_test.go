package nl

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// study renders a study as Name{k=v,...} for compact expectations.
func study(name string, input map[string]any) string {
	if len(input) == 0 {
		return name
	}
	keys := make([]string, 0, len(input))
	for k := range input {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, input[k])
	}
	return name + "{" + strings.Join(parts, ",") + "}"
}

// testNow is the clock of every test builder: a span such as "last 7 days"
// goes out as {from: testNow - 7 days, to: testNow}.
var testNow = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

func testBuilder() *Builder {
	b := New(docsparse.Snapshot())
	b.Now = func() time.Time { return testNow }
	return b
}

type want struct {
	symbol, interval, rng, theme, style string
	studies                             []string
	size                                string // WxH
	warn                                string // substring of some warning; "" means no warnings
	anyWarn                             bool   // warnings allowed without checking
}

const (
	RSI  = "Relative Strength Index"
	MA   = "Moving Average"
	EMA  = "Moving Average Exponential"
	BB   = "Bollinger Bands"
	MACD = "MACD"
)

var cases = []struct {
	text string
	w    want
}{
	// symbols
	{"Bitcoin chart", want{symbol: "BINANCE:BTCUSDT"}},
	{"show me BTC", want{symbol: "BINANCE:BTCUSDT"}},
	{"ethereum price", want{symbol: "BINANCE:ETHUSDT"}},
	{"ETH", want{symbol: "BINANCE:ETHUSDT"}},
	{"Apple stock", want{symbol: "NASDAQ:AAPL"}},
	{"AAPL", want{symbol: "NASDAQ:AAPL"}},
	{"EUR/USD", want{symbol: "FX:EURUSD"}},
	{"eurusd forex chart", want{symbol: "FX:EURUSD"}},
	{"gbp/jpy", want{symbol: "FX:GBPJPY"}},
	{"NYSE:BABA please", want{symbol: "NYSE:BABA"}},
	{"binance:solusdt", want{symbol: "BINANCE:SOLUSDT"}},
	{"solana", want{symbol: "BINANCE:SOLUSDT"}},
	{"Dogecoin", want{symbol: "BINANCE:DOGEUSDT"}},
	{"the S&P 500", want{symbol: "SP:SPX"}},
	{"gold", want{symbol: "OANDA:XAUUSD"}},
	{"crude oil", want{symbol: "TVC:USOIL"}},
	{"Tesla", want{symbol: "NASDAQ:TSLA"}},
	{"nvidia shares", want{symbol: "NASDAQ:NVDA"}},
	{"Microsoft", want{symbol: "NASDAQ:MSFT"}},
	{"dow jones", want{symbol: "DJ:DJI"}},
	{"nasdaq 100", want{symbol: "NASDAQ:NDX"}},
	{"bitcoin on coinbase", want{symbol: "COINBASE:BTCUSD"}},
	{"ETH on Kraken", want{symbol: "KRAKEN:ETHUSD"}},
	{"BTC/USDT", want{symbol: "BINANCE:BTCUSDT"}},
	{"solusdt", want{symbol: "BINANCE:SOLUSDT"}},
	{"XRP", want{symbol: "BINANCE:XRPUSDT"}},
	{"JPMorgan", want{symbol: "NYSE:JPM"}},
	{"chart ZZZZ", want{warn: "ticker ZZZZ has no known exchange"}},
	{"a nice chart", want{warn: "no symbol recognised"}},
	{"bitcoin vs ethereum", want{symbol: "BINANCE:BTCUSDT", warn: "one symbol per chart"}},

	// ranges
	{"BTC today", want{symbol: "BINANCE:BTCUSDT", rng: "1D", interval: "15m"}},
	{"BTC last 24 hours", want{symbol: "BINANCE:BTCUSDT", rng: "1D", interval: "15m"}},
	{"BTC past 1 day", want{symbol: "BINANCE:BTCUSDT", rng: "1D", interval: "15m"}},
	{"BTC this week", want{symbol: "BINANCE:BTCUSDT", rng: "WTD", interval: "30m"}},
	{"BTC last week", want{symbol: "BINANCE:BTCUSDT", rng: "since 2026-03-08T12:00:00Z", interval: "1h"}},
	{"BTC over the past 5 days", want{symbol: "BINANCE:BTCUSDT", rng: "5D", interval: "1h"}},
	{"BTC past month", want{symbol: "BINANCE:BTCUSDT", rng: "1M", interval: "4h"}},
	{"BTC last 30 days", want{symbol: "BINANCE:BTCUSDT", rng: "since 2026-02-13T12:00:00Z", interval: "4h"}},
	{"AAPL last quarter", want{symbol: "NASDAQ:AAPL", rng: "3M", interval: "1D"}},
	{"AAPL past 90 days", want{symbol: "NASDAQ:AAPL", rng: "since 2025-12-15T12:00:00Z", interval: "1D"}},
	{"AAPL over the last three months", want{symbol: "NASDAQ:AAPL", rng: "3M", interval: "1D"}},
	{"AAPL 6 months", want{symbol: "NASDAQ:AAPL", rng: "6M", interval: "1D"}},
	{"AAPL past six months", want{symbol: "NASDAQ:AAPL", rng: "6M", interval: "1D"}},
	{"AAPL last year", want{symbol: "NASDAQ:AAPL", rng: "1Y", interval: "1D"}},
	{"AAPL past 12 months", want{symbol: "NASDAQ:AAPL", rng: "1Y", interval: "1D"}},
	{"AAPL 5 years", want{symbol: "NASDAQ:AAPL", rng: "5Y", interval: "1W"}},
	{"AAPL over the last five years", want{symbol: "NASDAQ:AAPL", rng: "5Y", interval: "1W"}},
	{"bitcoin all time", want{symbol: "BINANCE:BTCUSDT", rng: "ALL", interval: "1M"}},
	{"bitcoin year to date", want{symbol: "BINANCE:BTCUSDT", rng: "YTD", interval: "1D"}},
	{"bitcoin YTD", want{symbol: "BINANCE:BTCUSDT", rng: "YTD", interval: "1D"}},
	{"bitcoin month-to-date", want{symbol: "BINANCE:BTCUSDT", rng: "MTD", interval: "1h"}},
	{"bitcoin week to date", want{symbol: "BINANCE:BTCUSDT", rng: "WTD", interval: "30m"}},
	{"bitcoin day to date", want{symbol: "BINANCE:BTCUSDT", rng: "DTD", interval: "5m"}},
	{"bitcoin last 2 weeks", want{symbol: "BINANCE:BTCUSDT", rng: "since 2026-03-01T12:00:00Z", interval: "4h"}},
	{"bitcoin past 10 days", want{symbol: "BINANCE:BTCUSDT", rng: "since 2026-03-05T12:00:00Z", interval: "4h"}},
	{"bitcoin last 2 years", want{symbol: "BINANCE:BTCUSDT", rng: "since 2024-03-15T12:00:00Z", interval: "1W"}},
	{"bitcoin over the past 10 years", want{symbol: "BINANCE:BTCUSDT", rng: "since 2016-03-15T12:00:00Z", interval: "1M"}},
	{"bitcoin past 4 months", want{symbol: "BINANCE:BTCUSDT", rng: "since 2025-11-15T12:00:00Z", interval: "1D"}},

	// intervals
	{"BTC 15 minute chart", want{symbol: "BINANCE:BTCUSDT", interval: "15m"}},
	{"BTC 15m", want{symbol: "BINANCE:BTCUSDT", interval: "15m"}},
	{"BTC on the 4 hour", want{symbol: "BINANCE:BTCUSDT", interval: "4h"}},
	{"BTC 4h candles", want{symbol: "BINANCE:BTCUSDT", interval: "4h"}},
	{"BTC four-hour chart", want{symbol: "BINANCE:BTCUSDT", interval: "4h"}},
	{"BTC hourly", want{symbol: "BINANCE:BTCUSDT", interval: "1h"}},
	{"BTC daily", want{symbol: "BINANCE:BTCUSDT", interval: "1D"}},
	{"BTC weekly chart", want{symbol: "BINANCE:BTCUSDT", interval: "1W"}},
	{"BTC monthly candles", want{symbol: "BINANCE:BTCUSDT", interval: "1M"}},
	{"BTC 1 minute", want{symbol: "BINANCE:BTCUSDT", interval: "1m"}},
	{"BTC 30-minute candles over the last 5 days", want{symbol: "BINANCE:BTCUSDT", interval: "30m", rng: "5D"}},
	{"BTC 10 minute chart", want{symbol: "BINANCE:BTCUSDT", interval: "15m", warn: "not a supported interval"}},
	{"BTC 60 minute bars", want{symbol: "BINANCE:BTCUSDT", interval: "1h"}},
	{"BTC 1D", want{symbol: "BINANCE:BTCUSDT", interval: "1D"}},
	{"ETH 2 hour candles past week", want{symbol: "BINANCE:ETHUSDT", interval: "2h", rng: "since 2026-03-08T12:00:00Z"}},

	// indicators
	{"BTC with RSI", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI}}},
	{"BTC with RSI 21", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI + "{length=21}"}}},
	{"BTC RSI(7)", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI + "{length=7}"}}},
	{"BTC 14-period RSI", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI + "{length=14}"}}},
	{"BTC relative strength index with a length of 10", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI + "{length=10}"}}},
	{"ETH with MACD", want{symbol: "BINANCE:ETHUSDT", studies: []string{MACD}}},
	{"ETH MACD 12 26 9", want{symbol: "BINANCE:ETHUSDT", studies: []string{MACD + "{in_0=12,in_1=26,in_2=9}"}}},
	{"ETH MACD(8, 21, 5)", want{symbol: "BINANCE:ETHUSDT", studies: []string{MACD + "{in_0=8,in_1=21,in_2=5}"}}},
	{"ETH MACD with fast 10 slow 30 signal 7", want{symbol: "BINANCE:ETHUSDT", studies: []string{MACD + "{in_0=10,in_1=30,in_2=7}"}}},
	{"AAPL bollinger bands", want{symbol: "NASDAQ:AAPL", studies: []string{BB}}},
	{"AAPL Bollinger Bands 20 2", want{symbol: "NASDAQ:AAPL", studies: []string{BB + "{in_0=20,in_1=2}"}}},
	{"AAPL bollinger bands with 2.5 standard deviations", want{symbol: "NASDAQ:AAPL", studies: []string{BB + "{in_1=2.5}"}}},
	// a number binds to the study and the parameter word next to it; "standard
	// deviations" after a study's numbers is its multiplier, not a second study
	{"Bitcoin with Bollinger Bands with length 20 and 2.5 standard deviations", want{symbol: "BINANCE:BTCUSDT", studies: []string{BB + "{in_0=20,in_1=2.5}"}}},
	{"AAPL Bollinger Bands with a length of 30 and 3 standard deviations", want{symbol: "NASDAQ:AAPL", studies: []string{BB + "{in_0=30,in_1=3}"}}},
	{"ETH bollinger with standard deviation 2 and period 50", want{symbol: "BINANCE:ETHUSDT", studies: []string{BB + "{in_0=50,in_1=2}"}}},
	{"SOL BB 20 std 2.5", want{symbol: "BINANCE:SOLUSDT", studies: []string{BB + "{in_0=20,in_1=2.5}"}}},
	{"BTC with RSI but with length 7", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI + "{length=7}"}}},
	{"RSI on BTC daily with length 9", want{symbol: "BINANCE:BTCUSDT", interval: "1D", studies: []string{RSI + "{length=9}"}}},
	{"ETH with EMA period 21", want{symbol: "BINANCE:ETHUSDT", studies: []string{EMA + "{length=21}"}}},
	{"MACD for ETH, fast 8 slow 21 signal 5", want{symbol: "BINANCE:ETHUSDT", studies: []string{MACD + "{in_0=8,in_1=21,in_2=5}"}}},
	{"AAPL MACD 12 fast 26 slow 9 signal and RSI period 10", want{symbol: "NASDAQ:AAPL", studies: []string{MACD + "{in_0=12,in_1=26,in_2=9}", RSI + "{length=10}"}}},
	{"SPY keltner channels with length 30 and multiplier 2", want{symbol: "AMEX:SPY", studies: []string{"Keltner Channels{in_1=30,in_2=2}"}}},
	{"BTC RSI and standard deviation 20", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI, "Standard Deviation{periods=20}"}}},
	// a study's building block named before a parameter word is no second study
	{"BTC Supertrend with ATR period 10 and multiplier 3", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Super Trend{in_0=10,in_1=3}"}}},
	{"SOL supertrend factor 2, atr period 7", want{symbol: "BINANCE:SOLUSDT", studies: []string{"Super Trend{in_0=7,in_1=2}"}}},
	{"ETH keltner channels with EMA length 20 and ATR multiplier 2", want{symbol: "BINANCE:ETHUSDT", studies: []string{"Keltner Channels{in_1=20,in_2=2}"}}},
	{"BTC supertrend and ATR period 14", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Super Trend", "Average True Range{in_0=14}"}}},
	// the docs type Super Trend's factor as Integer: 1.5 is rounded, and says so
	{"SOL supertrend with period 7 and multiplier 1.5", want{symbol: "BINANCE:SOLUSDT", studies: []string{"Super Trend{in_0=7,in_1=2}"}, warn: "1.5 was rounded to 2"}},
	// spans the range enum does not name go out exactly as {from,to}, to now
	{"BTC last 7 days", want{symbol: "BINANCE:BTCUSDT", rng: "since 2026-03-08T12:00:00Z", interval: "1h"}},
	{"ETH over the past 3 weeks", want{symbol: "BINANCE:ETHUSDT", rng: "since 2026-02-22T12:00:00Z", interval: "4h"}},
	{"AAPL last 18 months", want{symbol: "NASDAQ:AAPL", rng: "since 2024-09-15T12:00:00Z", interval: "1W"}},
	{"AAPL this quarter", want{symbol: "NASDAQ:AAPL", rng: "since 2026-01-01T00:00:00Z", interval: "1D"}},
	{"AAPL last 5 trading days", want{symbol: "NASDAQ:AAPL", rng: "5D", interval: "1h"}},
	{"SPY past 10 business days", want{symbol: "AMEX:SPY", rng: "since 2026-03-01T12:00:00Z", interval: "4h", warn: "14 calendar days"}},
	{"BTC past 36 hours on the 15m", want{symbol: "BINANCE:BTCUSDT", rng: "since 2026-03-14T00:00:00Z", interval: "15m"}},
	{"AAPL BB length 30 multiplier 3", want{symbol: "NASDAQ:AAPL", studies: []string{BB + "{in_0=30,in_1=3}"}}},
	{"AAPL 50-day MA", want{symbol: "NASDAQ:AAPL", studies: []string{MA + "{length=50}"}}},
	{"AAPL fifty-day moving average", want{symbol: "NASDAQ:AAPL", studies: []string{MA + "{length=50}"}}},
	{"AAPL 20 EMA", want{symbol: "NASDAQ:AAPL", studies: []string{EMA + "{length=20}"}}},
	{"AAPL with 50 and 200 day moving averages", want{symbol: "NASDAQ:AAPL", studies: []string{MA + "{length=50}", MA + "{length=200}"}}},
	{"AAPL 50-day and 200-day SMAs", want{symbol: "NASDAQ:AAPL", studies: []string{MA + "{length=50}", MA + "{length=200}"}}},
	{"AAPL EMA 9, 21 and 55", want{symbol: "NASDAQ:AAPL", studies: []string{EMA + "{length=9}", EMA + "{length=21}", EMA + "{length=55}"}}},
	{"AAPL 20 EMA and 50 SMA", want{symbol: "NASDAQ:AAPL", studies: []string{EMA + "{length=20}", MA + "{length=50}"}}},
	{"AAPL two hundred day simple moving average", want{symbol: "NASDAQ:AAPL", studies: []string{MA + "{length=200}"}}},
	{"AAPL with volume", want{symbol: "NASDAQ:AAPL", studies: []string{"Volume"}}},
	{"AAPL VWAP", want{symbol: "NASDAQ:AAPL", studies: []string{"VWAP"}}},
	{"BTC stochastic", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Stochastic"}}},
	{"BTC stoch 14 3 3", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Stochastic{in_0=14,in_1=3,in_2=3}"}}},
	{"BTC stochastic RSI", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Stochastic RSI"}}},
	{"BTC ATR", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Average True Range"}}},
	{"BTC average true range 10", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Average True Range{in_0=10}"}}},
	{"BTC ichimoku", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Ichimoku Cloud"}}},
	{"BTC supertrend 10 3", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Super Trend{in_0=10,in_1=3}"}}},
	{"BTC OBV and MFI", want{symbol: "BINANCE:BTCUSDT", studies: []string{"On Balance Volume", "Money Flow Index"}}},
	{"BTC parabolic SAR", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Parabolic SAR"}}},
	{"BTC williams %r", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Williams %R"}}},
	{"BTC ADX and CCI", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Average Directional Index", "Commodity Channel Index"}}},
	{"BTC with Donchian channels and Keltner channels", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Donchian Channels", "Keltner Channels"}}},
	{"BTC golden cross", want{symbol: "BINANCE:BTCUSDT", studies: []string{"MA Cross{in_0=50,in_1=200}"}}},
	{"BTC Hull moving average 21", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Hull Moving Average{in_0=21}"}}},
	{"BTC with pivot points", want{symbol: "BINANCE:BTCUSDT", warn: "not a documented"}},
	{"BTC RSI 5000", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI}, warn: "outside the documented"}},
	{"BTC with the foo indicator", want{symbol: "BINANCE:BTCUSDT", warn: "not in the documented indicator list"}},
	{"BTC RSI and MACD and volume", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI, MACD, "Volume"}}},

	// theme, style, size
	{"BTC dark mode", want{symbol: "BINANCE:BTCUSDT", theme: "dark"}},
	{"BTC in dark theme", want{symbol: "BINANCE:BTCUSDT", theme: "dark"}},
	{"BTC light", want{symbol: "BINANCE:BTCUSDT", theme: "light"}},
	{"BTC line chart", want{symbol: "BINANCE:BTCUSDT", style: "line"}},
	{"BTC as a bar chart", want{symbol: "BINANCE:BTCUSDT", style: "bar"}},
	{"BTC area chart", want{symbol: "BINANCE:BTCUSDT", style: "area"}},
	{"BTC heikin ashi", want{symbol: "BINANCE:BTCUSDT", style: "heikinAshi"}},
	{"BTC Heiken-Ashi candles", want{symbol: "BINANCE:BTCUSDT", style: "heikinAshi"}},
	{"BTC hollow candles", want{symbol: "BINANCE:BTCUSDT", style: "hollowCandle"}},
	{"BTC baseline", want{symbol: "BINANCE:BTCUSDT", style: "baseline"}},
	{"BTC hi-lo chart", want{symbol: "BINANCE:BTCUSDT", style: "hiLo"}},
	{"BTC column chart", want{symbol: "BINANCE:BTCUSDT", style: "column"}},
	{"BTC candlestick chart", want{symbol: "BINANCE:BTCUSDT", style: "candle"}},
	{"BTC 1280x720", want{symbol: "BINANCE:BTCUSDT", size: "1280x720"}},
	{"BTC 1920 by 1080", want{symbol: "BINANCE:BTCUSDT", size: "1920x1080"}},
	{"BTC in 1080p", want{symbol: "BINANCE:BTCUSDT", size: "1920x1080"}},
	{"BTC 5000x5000", want{symbol: "BINANCE:BTCUSDT", size: "2048x1920", warn: "above every plan"}},

	// combined
	{"Show me Bitcoin with RSI and MACD for the last 3 months in dark mode",
		want{symbol: "BINANCE:BTCUSDT", rng: "3M", interval: "1D", theme: "dark", studies: []string{RSI, MACD}}},
	{"Tesla daily candles with the 20 and 50 EMA over the past 6 months, light theme",
		want{symbol: "NASDAQ:TSLA", rng: "6M", interval: "1D", theme: "light", studies: []string{EMA + "{length=20}", EMA + "{length=50}"}}},
	{"ETH 4h heikin ashi with bollinger bands (20, 2.5) and RSI 21 past 30 days",
		want{symbol: "BINANCE:ETHUSDT", rng: "since 2026-02-13T12:00:00Z", interval: "4h", style: "heikinAshi", studies: []string{BB + "{in_0=20,in_1=2.5}", RSI + "{length=21}"}}},
	{"EUR/USD 1 hour chart with Ichimoku Cloud last week dark",
		want{symbol: "FX:EURUSD", rng: "since 2026-03-08T12:00:00Z", interval: "1h", theme: "dark", studies: []string{"Ichimoku Cloud"}}},
	{"nvidia weekly line chart 5 years with volume",
		want{symbol: "NASDAQ:NVDA", rng: "5Y", interval: "1W", style: "line", studies: []string{"Volume"}}},
	{"SOL 15 min with VWAP today",
		want{symbol: "BINANCE:SOLUSDT", rng: "1D", interval: "15m", studies: []string{"VWAP"}}},
	{"gold 200 week moving average",
		want{symbol: "OANDA:XAUUSD", interval: "1W", studies: []string{MA + "{length=200}"}}},
	{"BTC horizontal line at 65000", want{symbol: "BINANCE:BTCUSDT"}},

	// free phrasings
	{"Can you plot Ethereum on a 1-hour timeframe with a 200 EMA?", want{symbol: "BINANCE:ETHUSDT", interval: "1h", studies: []string{EMA + "{length=200}"}}},
	{"I want to see Apple's stock over the past 2 months with RSI(14) and volume",
		want{symbol: "NASDAQ:AAPL", rng: "since 2026-01-15T12:00:00Z", interval: "1D", studies: []string{RSI + "{length=14}", "Volume"}}},
	{"give me a dark themed 4H chart of SOL/USDT with bollinger bands and macd",
		want{symbol: "BINANCE:SOLUSDT", interval: "4h", theme: "dark", studies: []string{BB, MACD}}},
	{"Microsoft, weekly candles, 3 years, 50 and 100 week moving averages",
		want{symbol: "NASDAQ:MSFT", interval: "1W", rng: "since 2023-03-15T12:00:00Z", studies: []string{MA + "{length=50}", MA + "{length=100}"}}},
	{"plot the S&P500 with a 200 day SMA over the last year in light mode",
		want{symbol: "SP:SPX", rng: "1Y", theme: "light", studies: []string{MA + "{length=200}"}}},
	{"bitcoin 1d chart with rsi 14, macd 12/26/9, and 20/50 ema",
		want{symbol: "BINANCE:BTCUSDT", interval: "1D", studies: []string{RSI + "{length=14}", MACD + "{in_0=12,in_1=26,in_2=9}", EMA + "{length=20}", EMA + "{length=50}"}}},
	{"Show the price of gold for the past 3 months on a daily basis", want{symbol: "OANDA:XAUUSD", rng: "3M", interval: "1D"}},
	{"BTC chart, 1h, past 48 hours, with stochastic rsi and atr 14",
		want{symbol: "BINANCE:BTCUSDT", interval: "1h", rng: "since 2026-03-13T12:00:00Z", studies: []string{"Stochastic RSI", "Average True Range{in_0=14}"}}},
	{"Show me ETHUSDT for the last 7 days with the Ichimoku cloud in dark", want{symbol: "BINANCE:ETHUSDT", rng: "since 2026-03-08T12:00:00Z", theme: "dark", studies: []string{"Ichimoku Cloud"}}},
	{"Doge 30m chart with RSI seven", want{symbol: "BINANCE:DOGEUSDT", interval: "30m", studies: []string{RSI + "{length=7}"}}},
	{"tsla with twenty one period ema and fifty sma", want{symbol: "NASDAQ:TSLA", studies: []string{EMA + "{length=21}", MA + "{length=50}"}}},
	{"Chart NASDAQ:AAPL with Bollinger Bands (length 20, std 2) and MACD, 6 month, line",
		want{symbol: "NASDAQ:AAPL", rng: "6M", style: "line", studies: []string{BB + "{in_0=20,in_1=2}", MACD}}},
	{"XAU/USD daily with RSI and 2 hundred day ma", want{symbol: "OANDA:XAUUSD", interval: "1D", studies: []string{RSI, MA + "{length=200}"}}},
	{"btc 3 day candles last 6 months", want{symbol: "BINANCE:BTCUSDT", interval: "3D", rng: "6M"}},
	{"eth 12h", want{symbol: "BINANCE:ETHUSDT", interval: "12h"}},
	{"MSFT 5y weekly", want{symbol: "NASDAQ:MSFT", interval: "1W", rng: "5Y"}},
	{"SPY intraday 5 min with vwap", want{symbol: "AMEX:SPY", interval: "5m", rng: "1D", studies: []string{"VWAP"}}},
	{"a 4 hour chart of bitcoin with the 21 ema and rsi, past two weeks, 1600x900, dark",
		want{symbol: "BINANCE:BTCUSDT", interval: "4h", rng: "since 2026-03-01T12:00:00Z", size: "1600x900", theme: "dark", studies: []string{EMA + "{length=21}", RSI}}},
	{"Show BTC with Williams %R and the Awesome Oscillator over 3 months", want{symbol: "BINANCE:BTCUSDT", rng: "3M", studies: []string{"Williams %R", "Awesome Oscillator"}}},
	{"coinbase stock with on-balance volume", want{symbol: "NASDAQ:COIN", studies: []string{"On Balance Volume"}}},
	{"Chart of silver since January", want{symbol: "OANDA:XAGUSD", rng: "YTD"}},
	{"google 1 year with rsi 30 and bollinger 20,2", want{symbol: "NASDAQ:GOOGL", rng: "1Y", studies: []string{RSI + "{length=30}", BB + "{in_0=20,in_1=2}"}, warn: "also its documented LowerLimit level"}},
	{"Plot BTCUSDT on Binance with a 9 and 21 EMA on the 15-minute timeframe",
		want{symbol: "BINANCE:BTCUSDT", interval: "15m", studies: []string{EMA + "{length=9}", EMA + "{length=21}"}}},
	{"I'd like a weekly chart of Microsoft for the past five years", want{symbol: "NASDAQ:MSFT", interval: "1W", rng: "5Y"}},
	{"Ethereum price action last 24h on 5m candles", want{symbol: "BINANCE:ETHUSDT", interval: "5m", rng: "1D"}},
	{"Display AMZN with Bollinger bands, RSI and MACD indicators", want{symbol: "NASDAQ:AMZN", studies: []string{BB, RSI, MACD}}},
	{"Give me the SPX over YTD with a 200DMA", want{symbol: "SP:SPX", rng: "YTD", studies: []string{MA + "{length=200}"}}},
	{"ADA/USDT 1H chart, stochastic RSI, dark theme", want{symbol: "BINANCE:ADAUSDT", interval: "1h", theme: "dark", studies: []string{"Stochastic RSI"}}},
	{"chart for NVDA: 3M range, daily bars", want{symbol: "NASDAQ:NVDA", interval: "1D", rng: "3M"}},
	{"EURUSD H4 with 20 and 50 EMA", want{symbol: "FX:EURUSD", interval: "4h", studies: []string{EMA + "{length=20}", EMA + "{length=50}"}}},
	{"GBPUSD D1 last 6 months", want{symbol: "FX:GBPUSD", interval: "1D", rng: "6M"}},
	{"BTC with MA 50, MA 100 and MA 200", want{symbol: "BINANCE:BTCUSDT", studies: []string{MA + "{length=50}", MA + "{length=100}", MA + "{length=200}"}}},
	{"Keltner channel 20 2 on gold", want{symbol: "OANDA:XAUUSD", studies: []string{"Keltner Channels{in_1=20,in_2=2}"}}},
	{"Ichimoku (9, 26, 52) on the daily for bitcoin", want{symbol: "BINANCE:BTCUSDT", interval: "1D", studies: []string{"Ichimoku Cloud{in_0=9,in_1=26,in_2=52}"}}},
	{"show me the nasdaq over the past decade", want{symbol: "NASDAQ:IXIC", rng: "since 2016-03-15T12:00:00Z"}},
	{"Apple with 20-period Bollinger Bands at 2 standard deviations", want{symbol: "NASDAQ:AAPL", studies: []string{BB + "{in_0=20,in_1=2}"}}},
	{"MACD histogram for tesla", want{symbol: "NASDAQ:TSLA", style: "candle", studies: []string{MACD}}},
	{"a year of Netflix in a line chart", want{symbol: "NASDAQ:NFLX", rng: "1Y", style: "line"}},
	{"Renko chart of bitcoin", want{symbol: "BINANCE:BTCUSDT", style: "candle", warn: "not a chart-img style"}},
	{"BTC with fibonacci retracement", want{symbol: "BINANCE:BTCUSDT", warn: "Fib Retracement is a chart-img drawing"}},
	{"SOL since 2021", want{symbol: "BINANCE:SOLUSDT", warn: "a year alone such as 2021"}},
	{"coca-cola stock, black theme", want{symbol: "NYSE:KO", theme: "dark"}},
	{"bitcoin 4-hourly with RSI fourteen", want{symbol: "BINANCE:BTCUSDT", interval: "4h", studies: []string{RSI + "{length=14}"}}},
	{"Dogecoin (DOGE) an hour chart", want{symbol: "BINANCE:DOGEUSDT", interval: "1h"}},
	{"$TSLA 1 year chart with volume and OBV in HD", want{symbol: "NASDAQ:TSLA", rng: "1Y", size: "1280x720", studies: []string{"Volume", "On Balance Volume"}}},
	{"ETHBTC weekly", want{symbol: "BINANCE:ETHBTC", interval: "1W"}},
	{"Create a chart for BTCUSDT with RSI(14), MACD(12,26,9), 4h timeframe, last 7 days, dark theme, 1200x800",
		want{symbol: "BINANCE:BTCUSDT", interval: "4h", rng: "since 2026-03-08T12:00:00Z", theme: "dark", size: "1200x800", studies: []string{RSI + "{length=14}", MACD + "{in_0=12,in_1=26,in_2=9}"}}},
	{"Generate a candlestick chart of AAPL with 20-day and 50-day EMAs for the past 3 months",
		want{symbol: "NASDAQ:AAPL", rng: "3M", style: "candle", studies: []string{EMA + "{length=20}", EMA + "{length=50}"}}},
	{"Bitcoin price chart with volume, 1 day interval, 1 year range", want{symbol: "BINANCE:BTCUSDT", interval: "1D", rng: "1Y", studies: []string{"Volume"}}},
	{"show NVDA with SMA 20, SMA 50, SMA 200 on daily timeframe for 1 year",
		want{symbol: "NASDAQ:NVDA", interval: "1D", rng: "1Y", studies: []string{MA + "{length=20}", MA + "{length=50}", MA + "{length=200}"}}},
	{"Chart the EUR/USD pair on the 1 hour with a 50 period moving average", want{symbol: "FX:EURUSD", interval: "1h", studies: []string{MA + "{length=50}"}}},
	{"BTC/USD 15min last 2 days, VWAP and volume, dark", want{symbol: "COINBASE:BTCUSD", interval: "15m", rng: "since 2026-03-13T12:00:00Z", theme: "dark", studies: []string{"VWAP", "Volume"}}},
	{"Solana weekly chart since the beginning of the year with MACD", want{symbol: "BINANCE:SOLUSDT", interval: "1W", rng: "YTD", studies: []string{MACD}}},
	{"Apple, Tesla and Microsoft", want{symbol: "NASDAQ:AAPL", warn: "one symbol per chart"}},
	{"TSLA chart with the 9 EMA, 21 EMA and the daily VWAP", want{symbol: "NASDAQ:TSLA", interval: "1D", studies: []string{EMA + "{length=9}", EMA + "{length=21}", "VWAP"}}},
	{"gold price over the last month with RSI at 21", want{symbol: "OANDA:XAUUSD", rng: "1M", interval: "4h", studies: []string{RSI + "{length=21}"}}},
	{"Netflix monthly chart for all time", want{symbol: "NASDAQ:NFLX", interval: "1M", rng: "ALL"}},
	{"bitcoin heikin ashi 4 hour dark mode with supertrend", want{symbol: "BINANCE:BTCUSDT", interval: "4h", theme: "dark", style: "heikinAshi", studies: []string{"Super Trend"}}},
	{"show me crude oil prices over the last 5 years in a line chart", want{symbol: "TVC:USOIL", rng: "5Y", style: "line"}},
	{"I need a 30 min chart for MSFT with VWAP", want{symbol: "NASDAQ:MSFT", interval: "30m", studies: []string{"VWAP"}}},
	{"Ripple chart with Ichimoku cloud for the last quarter, light theme", want{symbol: "BINANCE:XRPUSDT", rng: "3M", theme: "light", studies: []string{"Ichimoku Cloud"}}},
	{"plot dogecoin 5 minute candles for today with bollinger bands", want{symbol: "BINANCE:DOGEUSDT", interval: "5m", rng: "1D", studies: []string{BB}}},
	{"bitcoin day chart", want{symbol: "BINANCE:BTCUSDT", interval: "1D"}},
	{"BTC 42", want{symbol: "BINANCE:BTCUSDT", warn: "the number 42 was not attached"}},
	{"Relative Strength Index (RSI) 14 on Apple", want{symbol: "NASDAQ:AAPL", studies: []string{RSI + "{length=14}"}}},
	{"Moving Average Convergence Divergence (MACD) for bitcoin", want{symbol: "BINANCE:BTCUSDT", studies: []string{MACD}}},
	{"BTC chart without volume, with RSI", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI}}},
	{"SOL 4h, hide the volume, add MACD", want{symbol: "BINANCE:SOLUSDT", interval: "4h", studies: []string{MACD}}},
	{"ETH 6mo chart", want{symbol: "BINANCE:ETHUSDT", rng: "6M", interval: "1D"}},
	{"AAPL 1yr with SMA50 and SMA200", want{symbol: "NASDAQ:AAPL", rng: "1Y", studies: []string{MA + "{length=50}", MA + "{length=200}"}}},
	{"the 50-, 100- and 200-day moving averages on the S&P 500", want{symbol: "SP:SPX", studies: []string{MA + "{length=50}", MA + "{length=100}", MA + "{length=200}"}}},
	{"Bollinger Bands with period 20 and deviation 2 on gold", want{symbol: "OANDA:XAUUSD", studies: []string{BB + "{in_0=20,in_1=2}"}}},
	{"BTC 240m candles", want{symbol: "BINANCE:BTCUSDT", interval: "4h"}},
	{"BTC 60 minute chart, no indicators", want{symbol: "BINANCE:BTCUSDT", interval: "1h"}},
	{"MSFT earnings", want{symbol: "NASDAQ:MSFT", warn: "not a documented chart-img indicator"}},
	{"bitcoin bollinger 2.5", want{symbol: "BINANCE:BTCUSDT", studies: []string{BB + "{in_1=2.5}"}}},
	{"EMA crossover 9/21 on ETH", want{symbol: "BINANCE:ETHUSDT", studies: []string{EMA + "{length=9}", EMA + "{length=21}"}}},
	{"BTC 24 hours", want{symbol: "BINANCE:BTCUSDT", rng: "1D", interval: "15m"}},
	{"BTC 48 hours 15m", want{symbol: "BINANCE:BTCUSDT", rng: "since 2026-03-13T12:00:00Z", interval: "15m"}},
	{"Tesla year chart", want{symbol: "NASDAQ:TSLA", rng: "1Y"}},
	{"Apple for the quarter", want{symbol: "NASDAQ:AAPL", rng: "3M"}},
	{"stochastic with %K 14 and %D 3 on BTC", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Stochastic{in_0=14,in_1=3}"}}},
	{"BTC month", want{symbol: "BINANCE:BTCUSDT", rng: "1M", interval: "4h"}},
	{"BINANCE:BTCUSDT.P 1h", want{symbol: "BINANCE:BTCUSDT.P", interval: "1h"}},
	{"NASDAQ:PLTR daily", want{symbol: "NASDAQ:PLTR", interval: "1D"}},
	{"TVC:US10Y weekly", want{symbol: "TVC:US10Y", interval: "1W"}},
	{"chart RSI:14 on bybit:ethusdt", want{symbol: "BYBIT:ETHUSDT", studies: []string{RSI + "{length=14}"}}},
	{"Symbol:ETHUSDT Interval:1h Range:1M Theme:dark Indicators:RSI(14),EMA(50)",
		want{symbol: "BINANCE:ETHUSDT", interval: "1h", rng: "1M", theme: "dark", studies: []string{RSI + "{length=14}", EMA + "{length=50}"}}},
	{"Symbol: AAPL; Interval: 4h; Range: 3M; Style: line", want{symbol: "NASDAQ:AAPL", interval: "4h", rng: "3M", style: "line"}},
	{"bitcion with bolinger bands", want{symbol: "BINANCE:BTCUSDT", studies: []string{BB}, warn: "read \"bitcion\" as \"bitcoin\""}},
	{"etherium daily with ichimoku", want{symbol: "BINANCE:ETHUSDT", interval: "1D", studies: []string{"Ichimoku Cloud"}, warn: "as \"ethereum\""}},
	{"Apple stock with stochastic", want{symbol: "NASDAQ:AAPL", studies: []string{"Stochastic"}}},
	{"ETH Donchian 55 weekly", want{symbol: "BINANCE:ETHUSDT", interval: "1W", studies: []string{"Donchian Channels{in_0=55}"}}},
	{"BTC with Aroon 25 and CCI 20", want{symbol: "BINANCE:BTCUSDT", studies: []string{"Aroon{in_0=25}", "Commodity Channel Index{in_0=20}"}}},
	{"SOL parabolic sar 0.02 0.02 0.2", want{symbol: "BINANCE:SOLUSDT", studies: []string{"Parabolic SAR{in_0=0.02,in_1=0.02,in_2=0.2}"}}},
	{"gold with money flow, OBV and accumulation/distribution", want{symbol: "OANDA:XAUUSD", studies: []string{"Money Flow Index", "On Balance Volume", "Accumulation/Distribution"}}},
	{"BTC RSI smoothing 9", want{symbol: "BINANCE:BTCUSDT", studies: []string{RSI + "{smoothingLength=9}"}}},
	{"ETH with hull ma 55 and vwma 20", want{symbol: "BINANCE:ETHUSDT", studies: []string{"Hull Moving Average{in_0=55}", "VWMA{in_0=20}"}}},
	{"btc with 2 EMAs (12 and 26)", want{symbol: "BINANCE:BTCUSDT", studies: []string{EMA + "{length=12}", EMA + "{length=26}"}}},
	{"three moving averages 10, 20, 50 on gold", want{symbol: "OANDA:XAUUSD", studies: []string{MA + "{length=10}", MA + "{length=20}", MA + "{length=50}"}}},
	{"Tesla: 1D candles, 3 months, EMA 9/21/50, RSI, volume; dark; 1280x720", want{symbol: "NASDAQ:TSLA", interval: "1D", rng: "3M", theme: "dark", size: "1280x720",
		studies: []string{EMA + "{length=9}", EMA + "{length=21}", EMA + "{length=50}", RSI, "Volume"}}},
	{"Bank Nifty 15m with supertrend (10,3) and VWAP, intraday", want{symbol: "NSE:BANKNIFTY", interval: "15m", rng: "1D", studies: []string{"Super Trend{in_0=10,in_1=3}", "VWAP"}}},
	{"plot ETH in percentage scale with extended hours", want{symbol: "BINANCE:ETHUSDT"}},
	{"Can I get a light-mode chart of USD/JPY with a 100-period SMA over the past 6 weeks?", want{symbol: "FX:USDJPY", theme: "light", rng: "since 2026-02-01T12:00:00Z", studies: []string{MA + "{length=100}"}}},
	{"Hello there! Could you please generate something beautiful for my presentation: Ethereum against the dollar, hourly candles, including exponential averages twenty and fifty, previous fortnight, thanks",
		want{symbol: "BINANCE:ETHUSDT", interval: "1h", rng: "since 2026-03-01T12:00:00Z", studies: []string{EMA + "{length=20}", EMA + "{length=50}"}}},
}

func check(t *testing.T, b *Builder, text string, w want) {
	t.Helper()
	r := b.Build(Request{Text: text})
	c := r.Config
	errs := []string{}
	eq := func(name, got, want string) {
		if want != "" && got != want {
			errs = append(errs, fmt.Sprintf("%s = %q, want %q", name, got, want))
		}
	}
	rng, _ := c.Range.(string)
	if obj, ok := c.Range.(map[string]any); ok {
		rng = "since " + fmt.Sprint(obj["from"])
		if obj["to"] != testNow.Format(time.RFC3339) {
			errs = append(errs, fmt.Sprintf("range.to = %v, want now (%s)", obj["to"], testNow.Format(time.RFC3339)))
		}
	}
	eq("symbol", c.Symbol, w.symbol)
	eq("interval", c.Interval, w.interval)
	eq("range", rng, w.rng)
	eq("theme", c.Theme, w.theme)
	eq("style", c.Style, w.style)
	eq("size", fmt.Sprintf("%dx%d", c.Width, c.Height), w.size)
	if w.studies != nil || len(c.Studies) > 0 {
		var got []string
		for _, s := range c.Studies {
			got = append(got, study(s.Name, s.Input))
		}
		if strings.Join(got, " | ") != strings.Join(w.studies, " | ") {
			errs = append(errs, fmt.Sprintf("studies = %v, want %v", got, w.studies))
		}
	}
	switch {
	case w.warn != "":
		found := false
		for _, x := range r.Warnings {
			found = found || strings.Contains(x, w.warn)
		}
		if !found {
			errs = append(errs, fmt.Sprintf("warnings %q lack %q", r.Warnings, w.warn))
		}
	case !w.anyWarn && len(r.Warnings) > 0:
		errs = append(errs, fmt.Sprintf("unexpected warnings %q", r.Warnings))
	}
	if len(errs) > 0 {
		t.Errorf("%q:\n  %s\n  reasoning: %q", text, strings.Join(errs, "\n  "), r.Reasoning)
	}
}

func TestConstructTable(t *testing.T) {
	b := testBuilder()
	if len(cases) < 80 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		check(t, b, tc.text, tc.w)
	}
	t.Logf("%d natural-language cases", len(cases))
}

func TestDefaults(t *testing.T) {
	b := testBuilder()
	r := b.Build(Request{Text: "bitcoin"})
	c := r.Config
	if c.Interval != "1D" || c.Range != nil || c.Theme != "light" || c.Style != "candle" || c.Width != 800 || c.Height != 600 {
		t.Errorf("defaults = %+v", c)
	}
	if len(r.Reasoning) == 0 {
		t.Error("no reasoning")
	}
}

func TestPreferencesOverrideText(t *testing.T) {
	b := testBuilder()
	r := b.Build(Request{Text: "BTC 4h dark last week 1920x1080",
		Prefs: Preferences{Theme: "light", Interval: "1D", Range: "3M", Resolution: "1024x768"}})
	c := r.Config
	if c.Theme != "light" || c.Interval != "1D" || c.Range != "3M" || c.Width != 1024 || c.Height != 768 {
		t.Errorf("preferences not applied: %+v", c)
	}
}

func TestSymbolAndExchangeArguments(t *testing.T) {
	b := testBuilder()
	for _, tc := range []struct{ text, symbol, exchange, want, warn string }{
		{"chart with RSI", "NASDAQ:AMD", "", "NASDAQ:AMD", ""},
		{"bitcoin", "ETH", "", "BINANCE:ETHUSDT", ""},
		{"chart of PLTRX", "", "NYSE", "NYSE:PLTRX", ""},
		{"chart", "SHOP", "TSX", "TSX:SHOP", ""},
		{"bitcoin", "", "KRAKEN", "KRAKEN:BTCUSD", ""},
		{"chart", "WEIRD", "", "", "no known exchange"},
	} {
		r := b.Build(Request{Text: tc.text, Symbol: tc.symbol, Exchange: tc.exchange})
		if r.Config.Symbol != tc.want {
			t.Errorf("%+v: symbol = %q (%q)", tc, r.Config.Symbol, r.Warnings)
		}
		if tc.warn != "" && !strings.Contains(strings.Join(r.Warnings, ";"), tc.warn) {
			t.Errorf("%+v: warnings %q", tc, r.Warnings)
		}
	}
}

func TestLabelledLevels(t *testing.T) {
	b := testBuilder()
	r := b.Build(Request{Text: "chart of ETH with a stop loss at 2800 and a target at 3500"})
	d := r.Config.Drawings
	if len(d) != 2 || d[0].Input["price"] != 2800.0 || d[0].Input["text"] != "Stop loss" || d[1].Input["text"] != "Target" || len(r.Warnings) != 0 {
		t.Errorf("drawings = %+v warnings %q", d, r.Warnings)
	}
}

func TestDrawingsFromText(t *testing.T) {
	b := testBuilder()
	r := b.Build(Request{Text: "BTC with support at 60k and resistance at 72,500"})
	if len(r.Config.Drawings) != 2 || r.Config.Drawings[0].Input["price"] != 60000.0 || r.Config.Drawings[1].Input["price"] != 72500.0 {
		t.Errorf("drawings = %+v", r.Config.Drawings)
	}
}

func TestBarsWarning(t *testing.T) {
	b := testBuilder()
	r := b.Build(Request{Text: "BTC 1 minute candles over the past year"})
	if r.Config.Interval != "1m" || r.Config.Range != "1Y" || !strings.Contains(strings.Join(r.Warnings, ";"), "bars") {
		t.Errorf("got %+v %q", r.Config, r.Warnings)
	}
}

func BenchmarkConstructChartConfig(b *testing.B) {
	bl := testBuilder()
	req := Request{Text: "Show me Tesla daily candles with the 20 and 50 EMA, RSI 14 and Bollinger Bands (20, 2.5) over the past 6 months in dark mode at 1280x720"}
	b.ReportAllocs()
	for b.Loop() {
		bl.Build(req)
	}
}

func FuzzConstruct(f *testing.F) {
	for _, tc := range cases {
		f.Add(tc.text, "", "")
	}
	f.Add("RSI:14 NASDAQ:AAPL 9/21 ema 1920x1080 (((", "btc", "KRAKEN")
	f.Add("AAPL last 3 days in Denver time, RSI levels at 80 and 20 with its 9 EMA smoothing, EST", "", "")
	f.Add("overbought oversold levels smoothing EMA Tokyo time timezone", "", "")
	b := testBuilder()
	f.Fuzz(func(t *testing.T, text, symbol, exchange string) {
		r := b.Build(Request{Text: text, Symbol: symbol, Exchange: exchange})
		c := r.Config
		if c.Width < 400 || c.Height < 300 || c.Width > 2048 || c.Height > 1920 {
			t.Fatalf("size %dx%d out of bounds", c.Width, c.Height)
		}
		if c.Interval == "" {
			t.Fatal("no interval")
		}
		if c.Timezone != "" && c.Timezone != chart.DefaultTimezone && !slices.Contains(b.zones, c.Timezone) {
			t.Fatalf("timezone %q is not on the docs' list", c.Timezone)
		}
	})
}

// A chatty request full of unknown long words exercises the typo fallback.
func BenchmarkConstructChatty(b *testing.B) {
	bl := testBuilder()
	req := Request{Text: "Hello there! Could you please generate something beautiful and informative for my presentation tomorrow: " +
		"Ethereum against the dollar, hourly candles, including exponential averages twenty and fifty, previous fortnight, thanks so much"}
	b.ReportAllocs()
	for b.Loop() {
		bl.Build(req)
	}
}

func TestScaleSessionFormat(t *testing.T) {
	b := testBuilder()
	for _, tc := range []struct{ text, scale, session, format string }{
		{"plot ETH in percentage scale with extended hours", "percent", "extended", ""},
		{"AAPL log scale pre-market as jpeg", "logarithmic", "extended", "jpeg"},
		{"SPY regular hours png", "", "regular", "png"},
	} {
		c := b.Build(Request{Text: tc.text}).Config
		if c.Scale != tc.scale || c.Session != tc.session || c.Format != tc.format {
			t.Errorf("%q → scale %q session %q format %q", tc.text, c.Scale, c.Session, c.Format)
		}
	}
}

// BenchmarkBuildRepresentative is the parse of a typical
// construct_chart_config request.
func BenchmarkBuildRepresentative(b *testing.B) {
	bl := testBuilder()
	req := Request{Text: "Tesla daily candles with the 20 and 50 EMA and RSI 14 over the past 6 months, dark"}
	b.ReportAllocs()
	for b.Loop() {
		bl.Build(req)
	}
}
