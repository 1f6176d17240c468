package nl

import (
	"testing"
)

// heldout are requests written independently of the main table, to check that the
// rules generalise: other word orders, casing, punctuation and abbreviations.
var heldout = []struct {
	text string
	w    want
}{
	{"TSLA 1hr chart last 5 days", want{symbol: "NASDAQ:TSLA", interval: "1h", rng: "5D"}},
	{"eth/usd 4H, past month, dark mode", want{symbol: "COINBASE:ETHUSD", interval: "4h", rng: "1M", theme: "dark"}},
	{"BTC-USD daily candles with RSI(14) and MACD (12,26,9)", want{symbol: "COINBASE:BTCUSD", interval: "1D", studies: []string{"Relative Strength Index{length=14}", "MACD{in_0=12,in_1=26,in_2=9}"}}},
	{"Microsoft weekly, last 5 years, 50 and 200 SMA", want{symbol: "NASDAQ:MSFT", interval: "1W", rng: "5Y", studies: []string{"Moving Average{length=50}", "Moving Average{length=200}"}}},
	{"S&P 500 D1 year to date light theme", want{symbol: "SP:SPX", interval: "1D", rng: "YTD", theme: "light"}},
	{"Nasdaq 100 hourly with VWAP and volume", want{symbol: "NASDAQ:NDX", interval: "1h", studies: []string{"VWAP", "Volume"}}},
	{"crude oil 4 hour chart past 3 months with bollinger 20 2", want{symbol: "TVC:USOIL", interval: "4h", rng: "3M", studies: []string{"Bollinger Bands{in_0=20,in_1=2}"}}},
	{"EURUSD 15m today", want{symbol: "FX:EURUSD", interval: "15m", rng: "1D"}},
	{"GBP/JPY H4 with EMA 9/21", want{symbol: "FX:GBPJPY", interval: "4h", studies: []string{"Moving Average Exponential{length=9}", "Moving Average Exponential{length=21}"}}},
	{"weekly chart of gold", want{symbol: "OANDA:XAUUSD", interval: "1W"}},
	{"Show me AAPL heikin-ashi on the daily, last 6 months", want{symbol: "NASDAQ:AAPL", interval: "1D", rng: "6M", style: "heikinAshi"}},
	{"bitcoin hollow candles 30 min past 2 days", want{symbol: "BINANCE:BTCUSDT", interval: "30m", rng: "since 2026-03-13T12:00:00Z", style: "hollowCandle"}},
	{"line chart of ETH, 1 year", want{symbol: "BINANCE:ETHUSDT", interval: "1D", rng: "1Y", style: "line"}},
	{"Apple area chart over the last quarter", want{symbol: "NASDAQ:AAPL", interval: "1D", rng: "3M", style: "area"}},
	{"NVDA rsi 7 on 5-min candles today", want{symbol: "NASDAQ:NVDA", interval: "5m", rng: "1D", studies: []string{"Relative Strength Index{length=7}"}}},
	{"BB(20, 2.5) on SOL 1h", want{symbol: "BINANCE:SOLUSDT", interval: "1h", studies: []string{"Bollinger Bands{in_0=20,in_1=2.5}"}}},
	{"stoch rsi and ATR 14 for dogecoin, 4h", want{symbol: "BINANCE:DOGEUSDT", interval: "4h", studies: []string{"Stochastic RSI", "Average True Range{in_0=14}"}}},
	{"ichimoku cloud on BTC daily", want{symbol: "BINANCE:BTCUSDT", interval: "1D", studies: []string{"Ichimoku Cloud"}}},
	{"supertrend on Tesla, 1 hour, last week", want{symbol: "NASDAQ:TSLA", interval: "1h", rng: "since 2026-03-08T12:00:00Z", studies: []string{"Super Trend"}}},
	{"1920x1080 chart of SPY in dark mode", want{symbol: "AMEX:SPY", interval: "1D", theme: "dark", size: "1920x1080"}},
	{"NVIDIA 1080p daily with volume", want{symbol: "NASDAQ:NVDA", interval: "1D", size: "1920x1080", studies: []string{"Volume"}}},
	{"ETHUSDT on binance 15 minute candles, RSI 14, MACD", want{symbol: "BINANCE:ETHUSDT", interval: "15m", studies: []string{"Relative Strength Index{length=14}", "MACD"}}},
	{"COINBASE:BTCUSD 1h last 7 days", want{symbol: "COINBASE:BTCUSD", interval: "1h", rng: "since 2026-03-08T12:00:00Z"}},
	{"Amazon 2-hour chart, month to date", want{symbol: "NASDAQ:AMZN", interval: "2h", rng: "MTD"}},
	{"gold H1 this week", want{symbol: "OANDA:XAUUSD", interval: "1h", rng: "WTD"}},
	{"dow jones monthly candles all time", want{symbol: "DJ:DJI", interval: "1M", rng: "ALL"}},
	{"Netflix, past 2 weeks, 1hr, EMA 20", want{symbol: "NASDAQ:NFLX", interval: "1h", rng: "since 2026-03-01T12:00:00Z", studies: []string{"Moving Average Exponential{length=20}"}}},
	{"BTC 3 day candles, last 6 months", want{symbol: "BINANCE:BTCUSDT", interval: "3D", rng: "6M"}},
	{"xrp 12h chart 3 months", want{symbol: "BINANCE:XRPUSDT", interval: "12h", rng: "3M"}},
	{"last 10 days of TSLA on the 4h", want{symbol: "NASDAQ:TSLA", interval: "4h", rng: "since 2026-03-05T12:00:00Z"}},
	{"silver 1D 1Y bar chart", want{symbol: "OANDA:XAGUSD", interval: "1D", rng: "1Y", style: "bar"}},
	{"Show natural gas in candlesticks, 1 week", want{symbol: "NYMEX:NG1!", interval: "1h", rng: "since 2026-03-08T12:00:00Z", style: "candle"}},
	{"eur/usd, M15, with bollinger bands and rsi", want{symbol: "FX:EURUSD", interval: "15m", studies: []string{"Bollinger Bands", "Relative Strength Index"}}},
	{"Solana weekly with the 20 week ema", want{symbol: "BINANCE:SOLUSDT", interval: "1W", studies: []string{"Moving Average Exponential{length=20}"}}},
	{"BTC 4h with EMA 50, EMA 100 and EMA 200, dark", want{symbol: "BINANCE:BTCUSDT", interval: "4h", theme: "dark", studies: []string{"Moving Average Exponential{length=50}", "Moving Average Exponential{length=100}", "Moving Average Exponential{length=200}"}}},
	{"Tesla 1 minute chart today dark theme", want{symbol: "NASDAQ:TSLA", interval: "1m", rng: "1D", theme: "dark", warn: "bars"}},
	{"AMD 45 min last 5 days", want{symbol: "NASDAQ:AMD", interval: "45m", rng: "5D"}},
	{"Intel daily, last 2 years", want{symbol: "NASDAQ:INTC", interval: "1D", rng: "since 2024-03-15T12:00:00Z"}},
	{"Meta 3m candles", want{symbol: "NASDAQ:META", interval: "3m"}},
	{"ETH monthly chart, 5 years", want{symbol: "BINANCE:ETHUSDT", interval: "1M", rng: "5Y"}},
	{"bitcoin since January", want{symbol: "BINANCE:BTCUSDT", interval: "1D", rng: "YTD"}},
	{"S&P 500 year-to-date with 50 day moving average", want{symbol: "SP:SPX", interval: "1D", rng: "YTD", studies: []string{"Moving Average{length=50}"}}},
	{"SPX intraday", want{symbol: "SP:SPX", interval: "15m", rng: "1D"}},
	{"Show me the Nasdaq 100 on a 30 min timeframe with VWAP", want{symbol: "NASDAQ:NDX", interval: "30m", studies: []string{"VWAP"}}},
	{"btc vs eth", want{symbol: "BINANCE:BTCUSDT", warn: "one"}},
	{"FOOBAR chart daily", want{interval: "1D", warn: "FOOBAR"}},
	{"BTC with pivot points", want{symbol: "BINANCE:BTCUSDT", warn: "pivot"}},
	{"AAPL with elliott wave count", want{symbol: "NASDAQ:AAPL", warn: "elliott"}},
	{"ETH 7 minute candles", want{symbol: "BINANCE:ETHUSDT", interval: "5m", warn: "5m"}},
	{"BTC 20 min chart", want{symbol: "BINANCE:BTCUSDT", interval: "15m", warn: "15m"}},
	{"BTC renko chart", want{symbol: "BINANCE:BTCUSDT", style: "candle", warn: "enko"}},
	{"Tesla with fibonacci retracement", want{symbol: "NASDAQ:TSLA", warn: "Fib"}},
	{"microsoft 4K dark", want{symbol: "NASDAQ:MSFT", theme: "dark", size: "2048x1920", warn: "maximum"}},
	{"BTCUSD 1h 1280x720", want{symbol: "COINBASE:BTCUSD", interval: "1h", size: "1280x720"}},
	{"GBPUSD daily chart, light mode, RSI 21", want{symbol: "FX:GBPUSD", interval: "1D", theme: "light", studies: []string{"Relative Strength Index{length=21}"}}},
	{"USD/JPY weekly 1Y", want{symbol: "FX:USDJPY", interval: "1W", rng: "1Y"}},
	{"Ethereum H4 MACD 8 21 5", want{symbol: "BINANCE:ETHUSDT", interval: "4h", studies: []string{"MACD{in_0=8,in_1=21,in_2=5}"}}},
	{"Doge 5m last 24 hours volume", want{symbol: "BINANCE:DOGEUSDT", interval: "5m", rng: "1D", studies: []string{"Volume"}}},
	{"Plot LTC on the 1 hour with Stochastic 14 3 3", want{symbol: "BINANCE:LTCUSDT", interval: "1h", studies: []string{"Stochastic{in_0=14,in_1=3,in_2=3}"}}},
	{"ADA heikin ashi 4h dark mode 1600x900", want{symbol: "BINANCE:ADAUSDT", interval: "4h", style: "heikinAshi", theme: "dark", size: "1600x900"}},
	{"Dax daily with ATR(10)", want{symbol: "XETR:DAX", interval: "1D", studies: []string{"Average True Range{in_0=10}"}}},
	{"Nikkei weekly chart past 5 years", want{symbol: "TVC:NI225", interval: "1W", rng: "5Y"}},
	{"FTSE 100 hourly 5 days", want{symbol: "TVC:UKX", interval: "1h", rng: "5D"}},
	{"NIFTY 15 min, today, with supertrend 10 3", want{symbol: "NSE:NIFTY", interval: "15m", rng: "1D", studies: []string{"Super Trend{in_0=10,in_1=3}"}}},
	{"brent crude, daily, 6 months, bollinger bands (20,2)", want{symbol: "TVC:UKOIL", interval: "1D", rng: "6M", studies: []string{"Bollinger Bands{in_0=20,in_1=2}"}}},
	{"VIX daily line chart 1 year", want{symbol: "CBOE:VIX", interval: "1D", rng: "1Y", style: "line"}},
	{"Dollar index DXY weekly", want{symbol: "TVC:DXY", interval: "1W"}},
	{"MSTR 2h with 21 EMA and 55 EMA", want{symbol: "NASDAQ:MSTR", interval: "2h", studies: []string{"Moving Average Exponential{length=21}", "Moving Average Exponential{length=55}"}}},
	{"BTC.D daily", want{symbol: "CRYPTOCAP:BTC.D", interval: "1D"}},
	{"pltr daily with rsi(9) in dark mode, hollow candles", want{symbol: "NASDAQ:PLTR", interval: "1D", theme: "dark", style: "hollowCandle", studies: []string{"Relative Strength Index{length=9}"}}},
	{"ETH/BTC 4h", want{symbol: "BINANCE:ETHBTC", interval: "4h"}},
	{"Bitcoin — 1W — ALL", want{symbol: "BINANCE:BTCUSDT", interval: "1W", rng: "ALL", anyWarn: true}},
	{"AAPL, interval 1h, range 1M", want{symbol: "NASDAQ:AAPL", interval: "1h", rng: "1M"}},
	{"TSLA 8 hour candles last 3 months with volume and obv", want{symbol: "NASDAQ:TSLA", interval: "8h", rng: "3M", studies: []string{"Volume", "On Balance Volume"}}},
	{"Coinbase stock daily", want{symbol: "NASDAQ:COIN", interval: "1D"}},
	{"BNB 6h chart, baseline style", want{symbol: "BINANCE:BNBUSDT", interval: "6h", style: "baseline"}},
	{"gold 1H with 200 EMA, past week, dark", want{symbol: "OANDA:XAUUSD", interval: "1h", rng: "since 2026-03-08T12:00:00Z", theme: "dark", studies: []string{"Moving Average Exponential{length=200}"}}},
	{"QQQ weekly with MA 10 and MA 40", want{symbol: "NASDAQ:QQQ", interval: "1W", studies: []string{"Moving Average{length=10}", "Moving Average{length=40}"}}},
	{"Show SPY in light mode at 1024 by 768 with williams %r", want{symbol: "AMEX:SPY", theme: "light", size: "1024x768", studies: []string{"Williams %R"}}},
	{"Russell 2000 daily with keltner channels and donchian channels, last year", want{symbol: "RUSSELL:RUT", interval: "1D", rng: "1Y", studies: []string{"Keltner Channels", "Donchian Channels"}}},
}

func TestConstructHeldout(t *testing.T) {
	b := testBuilder()
	if len(heldout) < 80 {
		t.Fatalf("only %d held-out cases", len(heldout))
	}
	for _, tc := range heldout {
		check(t, b, tc.text, tc.w)
	}
}
