package nl

import (
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

type kind uint8

const (
	kNone kind = iota
	kSymbol
	kIndicator
	kStyle
	kStyleWeak // line, bar, area… only a style next to chart/graph/style or after "as"
	kTheme
	kRangeWord
	kIntervalWord
	kUnit
	kRangeCue
	kIntervalCue
	kThis
	kExchange
	kScale
	kSession
	kFormat
	kRole
	kFiller
	kAnd
	kChart
	kDrawing
	kUnsupported
	kSizeWord
	kCross
	kAt
	kOn
	kNum
	kWord
	kParen
	kTimezone // a zone on the docs' list: "Tokyo time", "EST", "America/New_York"
)

// entry is what a phrase means.
type entry struct {
	kind  kind
	value string
	sym   *symbol
}

// symbol is a charting symbol; crypto ones can move to another exchange's quote.
type symbol struct {
	full   string // EXCHANGE:TICKER
	base   string // crypto base, e.g. BTC
	crypto bool
	name   string
}

// phrase is a multi-word key: words already normalised.
type phrase struct {
	words []string
	e     entry
}

type dict map[string][]phrase

func (d dict) add(text string, e entry) {
	var words []string
	for _, t := range lex(text, nil) {
		switch t.kind {
		case tWord:
			words = append(words, t.word)
		case tNum:
			words = append(words, "#"+t.orig)
		case tSep:
			words = append(words, t.word)
		}
	}
	if len(words) == 0 {
		return
	}
	d[words[0]] = append(d[words[0]], phrase{words, e})
}

// cryptoQuote is the quote currency each crypto exchange lists majors against.
var cryptoQuote = map[string]string{
	"BINANCE": "USDT", "BYBIT": "USDT", "KUCOIN": "USDT", "OKX": "USDT", "BITGET": "USDT", "MEXC": "USDT",
	"GATEIO": "USDT", "HTX": "USDT", "COINBASE": "USD", "KRAKEN": "USD", "BITSTAMP": "USD", "GEMINI": "USD",
	"BITFINEX": "USD", "BINANCEUS": "USD",
}

// cryptos: names and tickers → base. Ambiguous English words (link, near, dot, one) are left out.
var cryptos = [][2]string{
	{"bitcoin|btc|xbt", "BTC"}, {"ethereum|eth|ether", "ETH"}, {"solana|sol", "SOL"}, {"ripple|xrp", "XRP"},
	{"dogecoin|doge", "DOGE"}, {"cardano|ada", "ADA"}, {"bnb|binance coin", "BNB"}, {"litecoin|ltc", "LTC"},
	{"polkadot", "DOT"}, {"avalanche|avax", "AVAX"}, {"chainlink", "LINK"}, {"polygon|matic", "MATIC"},
	{"shiba inu|shiba|shib", "SHIB"}, {"tron|trx", "TRX"}, {"pepe", "PEPE"}, {"sui", "SUI"}, {"aptos", "APT"},
	{"arbitrum", "ARB"}, {"uniswap", "UNI"}, {"stellar|xlm", "XLM"}, {"monero|xmr", "XMR"},
	{"bitcoin cash|bch", "BCH"}, {"ethereum classic", "ETC"}, {"cosmos|atom", "ATOM"}, {"toncoin", "TON"},
	{"filecoin", "FIL"}, {"hedera|hbar", "HBAR"}, {"injective", "INJ"},
}

// listed: names and tickers of stocks, ETFs, indices, commodities, rates, forex.
var listed = [][2]string{
	{"apple|aapl", "NASDAQ:AAPL"}, {"microsoft|msft", "NASDAQ:MSFT"}, {"tesla|tsla", "NASDAQ:TSLA"},
	{"amazon|amzn", "NASDAQ:AMZN"}, {"google|alphabet|googl|goog", "NASDAQ:GOOGL"}, {"meta|facebook|meta platforms", "NASDAQ:META"},
	{"nvidia|nvda", "NASDAQ:NVDA"}, {"netflix|nflx", "NASDAQ:NFLX"}, {"amd|advanced micro devices", "NASDAQ:AMD"},
	{"intel|intc", "NASDAQ:INTC"}, {"palantir|pltr", "NASDAQ:PLTR"}, {"microstrategy|mstr|strategy inc", "NASDAQ:MSTR"},
	{"paypal|pypl", "NASDAQ:PYPL"}, {"adobe|adbe", "NASDAQ:ADBE"}, {"broadcom|avgo", "NASDAQ:AVGO"},
	{"qualcomm|qcom", "NASDAQ:QCOM"}, {"costco", "NASDAQ:COST"}, {"starbucks|sbux", "NASDAQ:SBUX"},
	{"pepsico|pepsi", "NASDAQ:PEP"}, {"cisco|csco", "NASDAQ:CSCO"},
	{"jpmorgan|jp morgan|jpm", "NYSE:JPM"}, {"berkshire|berkshire hathaway|brk.b", "NYSE:BRK.B"},
	{"walmart|wmt", "NYSE:WMT"}, {"disney|walt disney", "NYSE:DIS"}, {"coca cola|coca-cola|coke", "NYSE:KO"},
	{"visa", "NYSE:V"}, {"mastercard", "NYSE:MA"}, {"exxon|exxonmobil|exxon mobil|xom", "NYSE:XOM"},
	{"ibm", "NYSE:IBM"}, {"boeing", "NYSE:BA"}, {"nike|nke", "NYSE:NKE"}, {"goldman|goldman sachs", "NYSE:GS"},
	{"uber", "NYSE:UBER"}, {"alibaba|baba", "NYSE:BABA"}, {"oracle|orcl", "NYSE:ORCL"}, {"salesforce|crm", "NYSE:CRM"},
	{"spy|spdr", "AMEX:SPY"}, {"qqq", "NASDAQ:QQQ"}, {"iwm", "AMEX:IWM"}, {"gld", "AMEX:GLD"},
	{"s&p 500|s&p|sp500|sp 500|spx|s and p 500|s and p|standard and poor|us500|us 500|spx500", "SP:SPX"},
	{"nasdaq 100|nasdaq-100|ndx|nas100|us100|us 100|ustec", "NASDAQ:NDX"}, {"nasdaq composite|ixic|the nasdaq|nasdaq index", "NASDAQ:IXIC"},
	{"dow jones|dow|djia|dji|dow jones industrial average|us30|us 30|wall street 30", "DJ:DJI"}, {"russell 2000|russell|rut", "RUSSELL:RUT"},
	{"vix|volatility index vix|fear index", "CBOE:VIX"}, {"dxy|dollar index|us dollar index", "TVC:DXY"},
	{"nikkei|nikkei 225|jp225|jpn225", "TVC:NI225"}, {"hang seng", "TVC:HSI"}, {"dax|ger40|ger 40|de40|ger30", "XETR:DAX"}, {"ftse 100|ftse|uk100|uk 100", "TVC:UKX"},
	{"nifty|nifty 50", "NSE:NIFTY"}, {"asx 200|asx200|xjo|s&p/asx 200", "ASX:XJO"}, {"bank nifty|banknifty", "NSE:BANKNIFTY"}, {"sensex", "BSE:SENSEX"},
	{"gold|xau|xauusd", "OANDA:XAUUSD"}, {"silver|xag|xagusd", "OANDA:XAGUSD"},
	{"crude oil|crude|oil|wti|us oil|usoil", "TVC:USOIL"}, {"brent|brent crude|ukoil", "TVC:UKOIL"},
	{"natural gas|natgas", "NYMEX:NG1!"}, {"copper", "COMEX:HG1!"},
	{"10 year treasury|10 year yield|10y yield|us10y|ten year treasury|treasury yield", "TVC:US10Y"},
	{"reliance|reliance industries", "NSE:RELIANCE"}, {"tcs|tata consultancy", "NSE:TCS"}, {"infosys|infy", "NSE:INFY"},
	{"hdfc bank|hdfcbank", "NSE:HDFCBANK"},
	{"euro dollar|euro|fiber", "FX:EURUSD"}, {"cable|pound|sterling", "FX:GBPUSD"}, {"yen|dollar yen", "FX:USDJPY"},
	{"aussie|aussie dollar", "FX:AUDUSD"}, {"loonie", "FX:USDCAD"}, {"swissie|swiss franc", "FX:USDCHF"},
	{"kiwi", "FX:NZDUSD"},
	{"total crypto market cap|crypto market cap|total market cap", "CRYPTOCAP:TOTAL"},
	{"bitcoin dominance|btc dominance|btc.d", "CRYPTOCAP:BTC.D"},
}

// exchangeCompanies are listed companies whose names are also exchange names
// (or hold one): read as the company only with a word that marks a company
// ("Coinbase shares", "CME Group", "Nasdaq Inc"), never alone, where the name
// is the exchange ("bitcoin on Coinbase", "AAPL on Nasdaq"). Weak cues are
// left out where the exchange reading is common ("Nasdaq stocks", "ASX
// shares", "NYSE stock" stay exchanges). The symbols are the listings'
// TradingView pages (tradingview.com/symbols/NASDAQ-COIN/, NASDAQ-NDAQ,
// NASDAQ-CME, NYSE-ICE, CBOE-CBOE, XETR-DB1, LSE-LSEG, HKEX-388, ASX-ASX,
// SGX-S68, EURONEXT-ENX, TSE-8697, NSE-BSE, NASDAQ-HOOD); the exchange ids
// are the docs' "TradingView Symbols" tables'.
var exchangeCompanies = [][2]string{
	{"coinbase stock|coinbase share|coinbase share price|coinbase global|coinbase inc|coinbase equity|shares of coinbase|coinbase common stock", "NASDAQ:COIN"},
	{"nasdaq inc|nasdaq incorporated|nasdaq the company|ndaq|shares of nasdaq inc", "NASDAQ:NDAQ"},
	{"cme group|cme stock|cme share|cme group inc|shares of cme", "NASDAQ:CME"},
	{"intercontinental exchange|ice stock|ice share|ice inc|shares of ice", "NYSE:ICE"},
	{"cboe global markets|cboe global|cboe stock|cboe share|cboe holdings", "CBOE:CBOE"},
	{"deutsche borse|deutsche boerse|deutsche börse|deutsche borse ag|deutsche börse ag|db1", "XETR:DB1"},
	{"london stock exchange group|lse group|lseg", "LSE:LSEG"},
	{"hong kong exchanges|hong kong exchanges and clearing|hkex stock|hkex share|hkex group", "HKEX:388"},
	{"asx ltd|asx limited|asx group", "ASX:ASX"},
	{"singapore exchange|sgx stock|sgx ltd|sgx limited", "SGX:S68"},
	{"euronext nv|euronext n.v.|euronext stock|euronext share|euronext group", "EURONEXT:ENX"},
	{"japan exchange group|japan exchange|jpx group", "TSE:8697"},
	{"bse ltd|bse limited|bse stock|bse share", "NSE:BSE"},
	{"robinhood|robinhood markets|hood stock", "NASDAQ:HOOD"},
}

// companyOf is the listed company of an exchange id that is also a company
// (exchangeCompanies), named when the text gives the exchange alone.
var companyOf = map[string]string{"COINBASE": "NASDAQ:COIN", "NASDAQ": "NASDAQ:NDAQ", "CME": "NASDAQ:CME",
	"ICE": "NYSE:ICE", "CBOE": "CBOE:CBOE", "LSE": "LSE:LSEG", "HKEX": "HKEX:388", "ASX": "ASX:ASX",
	"SGX": "SGX:S68", "EURONEXT": "EURONEXT:ENX", "BSE": "NSE:BSE"}

// currencies for pair detection (EURUSD, eur/usd).
var currencies = map[string]bool{"eur": true, "usd": true, "gbp": true, "jpy": true, "chf": true, "aud": true,
	"cad": true, "nzd": true, "cnh": true, "sek": true, "nok": true, "mxn": true, "zar": true, "try": true,
	"inr": true, "sgd": true, "hkd": true, "pln": true, "dkk": true}

// exchanges named in text ("on Coinbase") → exchange id.
var exchangeNames = [][2]string{
	{"binance", "BINANCE"}, {"coinbase", "COINBASE"}, {"kraken", "KRAKEN"}, {"bybit", "BYBIT"}, {"bitstamp", "BITSTAMP"},
	{"kucoin", "KUCOIN"}, {"okx", "OKX"}, {"gemini", "GEMINI"}, {"bitfinex", "BITFINEX"}, {"bitget", "BITGET"},
	{"binance us|binance.us|binanceus", "BINANCEUS"}, {"nasdaq", "NASDAQ"}, {"nyse", "NYSE"}, {"amex", "AMEX"}, {"nyse arca", "AMEX"},
	{"lse|london stock exchange", "LSE"}, {"xetra", "XETR"}, {"tsx", "TSX"}, {"asx", "ASX"}, {"hkex", "HKEX"},
	{"nse", "NSE"}, {"bse", "BSE"}, {"oanda", "OANDA"}, {"fxcm", "FX"}, {"pepperstone", "PEPPERSTONE"},
	{"cme", "CME"}, {"comex", "COMEX"}, {"nymex", "NYMEX"}, {"cboe", "CBOE"},
}

// indicatorAliases: phrases → display names, beyond the display names themselves.
var indicatorAliases = [][2]string{
	{"rsi|relative strength|relative strength indicator", "Relative Strength Index"},
	{"macd|moving average convergence divergence", "MACD"},
	{"bollinger|bollinger band|bb|bbands|bollinger bands", "Bollinger Bands"},
	{"bollinger %b|%b|bollinger percent b|bb %b", "Bollinger Bands %B"},
	{"bollinger band width|bollinger width|bb width|bbw", "Bollinger Bands Width"},
	{"ma|moving average|sma|simple moving average|simple ma|simple average|simple moving|moving avg|mov avg|day average|day line|dma", "Moving Average"},
	{"ema|exponential moving average|exponential ma|exponential average|exp moving average|exponential", "Moving Average Exponential"},
	{"wma|weighted moving average|weighted ma|linear weighted moving average", "Moving Average Weighted"},
	{"hma|hull|hull ma|hull moving average", "Hull Moving Average"},
	{"smma|rma|smoothed moving average|smoothed ma|running moving average", "Smoothed Moving Average"},
	{"dema|double ema|double exponential moving average", "Double EMA"},
	{"tema|triple ema|triple exponential moving average", "Triple EMA"},
	{"alma|arnaud legoux", "Arnaud Legoux Moving Average"},
	{"lsma|least square moving average|least squares moving average", "Least Squares Moving Average"},
	{"vwap|volume weighted average price", "VWAP"}, {"vwma|volume weighted moving average", "VWMA"},
	{"volume|vol|volume bar|trading volume", "Volume"},
	{"stoch|stochastic|stochastic oscillator|slow stochastic|full stochastic", "Stochastic"},
	{"stoch rsi|stochrsi|stochastic rsi|stochastic relative strength index", "Stochastic RSI"},
	{"atr|average true range|true range", "Average True Range"},
	{"ichimoku|ichimoku cloud|ichimoku kinko hyo|kumo|ichimoku kinko", "Ichimoku Cloud"},
	{"adx|average directional index|average directional movement", "Average Directional Index"},
	{"dmi|directional movement|directional movement index|di+ di-", "Directional Movement"},
	{"cci|commodity channel index|commodity channel", "Commodity Channel Index"},
	{"obv|on balance volume|on-balance volume", "On Balance Volume"},
	{"mfi|money flow index|money flow", "Money Flow Index"},
	{"cmf|chaikin money flow", "Chaikin Money Flow"},
	{"psar|parabolic sar|parabolic|sar|parabolic stop and reverse", "Parabolic SAR"},
	{"supertrend|super trend", "Super Trend"},
	{"williams %r|williams r|%r|willr|williams percent r|william %r|william r", "Williams %R"},
	{"zigzag|zig zag", "Zig Zag"}, {"donchian|donchian channel|donchian channels", "Donchian Channels"},
	{"keltner|keltner channel|keltner channels", "Keltner Channels"},
	{"envelope|envelopes|ma envelope|moving average envelope", "Envelopes"},
	{"momentum|mom", "Momentum"}, {"roc|rate of change", "Rate Of Change"}, {"trix", "TRIX"},
	{"tsi|true strength index|true strength", "True Strength Index"},
	{"ao|awesome oscillator|awesome", "Awesome Oscillator"}, {"aroon", "Aroon"},
	{"vpvr|vrvp|volume profile|volume profile visible range|visible range volume profile", "Volume Profile Visible Range"},
	{"alligator|williams alligator", "Williams Alligator"}, {"fractal|fractals|williams fractal", "Williams Fractal"},
	{"uo|ultimate oscillator", "Ultimate Oscillator"}, {"kst|know sure thing", "Know Sure Thing"},
	{"ppo|price oscillator|percentage price oscillator", "Price Oscillator"},
	{"dpo|detrended price oscillator", "Detrended Price Oscillator"}, {"cmo|chande momentum", "Chande Momentum Oscillator"},
	{"historical volatility|hv", "Historical Volatility"}, {"std|standard deviation", "Standard Deviation"},
	{"efi|elder force index|force index|elder force", "Elder's Force Index"},
	{"pvt|price volume trend", "Price Volume Trend"}, {"a/d|ad line|accumulation distribution|accumulation/distribution|accum/dist", "Accumulation/Distribution"},
	{"chop|choppiness|choppiness index", "Choppiness Index"}, {"vortex|vortex indicator", "Vortex Indicator"},
	{"mcginley|mcginley dynamic", "McGinley Dynamic"}, {"connors rsi|crsi", "Connors RSI"},
	{"coppock|coppock curve", "Coppock Curve"}, {"fisher|fisher transform", "Fisher Transform"},
	{"klinger|klinger oscillator", "Klinger Oscillator"}, {"chaikin oscillator", "Chaikin Oscillator"},
	{"chaikin volatility", "Chaikin Volatility"}, {"mass index", "Mass Index"}, {"rvi|rvgi|relative vigor index", "Relative Vigor Index"},
	{"smi ergodic|smi|ergodic", "SMI Ergodic Indicator/Oscillator"}, {"linear regression|linreg|linear regression curve", "Linear Regression Curve"},
	{"ease of movement|eom", "Ease of Movement"}, {"net volume", "Net Volume"}, {"balance of power|bop", "Balance of Power"},
	{"volume oscillator", "Volume Oscillator"}, {"price channel", "Price Channel"}, {"chop zone", "Chop Zone"},
	{"ma cross|moving average cross|moving average crossover|ma crossover", "MA Cross"},
}

// crosses are named MA crosses with standard lengths.
var crosses = [][2]string{{"golden cross", "50,200"}, {"death cross", "50,200"}}

// undocumented names people ask for; they become warnings.
var unsupported = []string{"pivot point", "pivot", "pivots", "elliott wave", "elliott", "heatmap", "heat map",
	"order flow", "market profile", "footprint", "gann", "open interest", "funding rate", "liquidation",
	"order book", "sentiment", "news", "earnings", "dividend", "channel", "pattern", "head and shoulder", "divergence"}

// coordinateDrawings are documented drawings that need dates and prices the text rarely gives.
var coordinateDrawings = [][2]string{{"fibonacci|fib|fib retracement|fibonacci retracement|fibs", "Fib Retracement"},
	{"trendline|trend line|trend-line", "Trend Line"}, {"rectangle|box|zone", "Rectangle"},
	{"long position", "Long Position"}, {"short position", "Short Position"}, {"vertical line", "Vertical Line"},
	{"date range", "Date Range"}, {"arrow", "Arrow Marker"}, {"callout", "Callout"}}

// otherStyles are chart types chart-img does not draw.
var otherStyles = []string{"renko", "kagi", "point and figure", "point & figure", "line break", "range bar", "tick chart", "volume candle", "footprint chart"}

func buildDict(indicatorNames []string, zones []docsparse.Timezone) dict {
	d := dict{}
	addZones(d, zones)
	for _, n := range indicatorNames {
		d.add(n, entry{kind: kIndicator, value: n})
	}
	known := map[string]bool{}
	for _, n := range indicatorNames {
		known[n] = true
	}
	for _, a := range indicatorAliases {
		if !known[a[1]] {
			continue // only names the docs list
		}
		for _, p := range strings.Split(a[0], "|") {
			d.add(p, entry{kind: kIndicator, value: a[1]})
		}
	}
	for _, c := range crosses {
		d.add(c[0], entry{kind: kCross, value: c[1]})
	}
	for _, c := range cryptos {
		full := "BINANCE:" + c[1] + "USDT"
		s := &symbol{full: full, base: c[1], crypto: true, name: strings.Split(c[0], "|")[0]}
		for _, p := range strings.Split(c[0], "|") {
			d.add(p, entry{kind: kSymbol, sym: s})
		}
	}
	for _, l := range append(listed[:len(listed):len(listed)], exchangeCompanies...) {
		s := &symbol{full: l[1], name: strings.Split(l[0], "|")[0]}
		for _, p := range strings.Split(l[0], "|") {
			d.add(p, entry{kind: kSymbol, sym: s})
		}
	}
	for _, e := range exchangeNames {
		for _, p := range strings.Split(e[0], "|") {
			d.add(p, entry{kind: kExchange, value: e[1]})
		}
	}
	styles := [][2]string{{"japanese candle|candle style", "candle"},
		{"heikin ashi|heiken ashi|heikin-ashi|heikinashi|ha candle", "heikinAshi"},
		{"hollow candle|hollow candlestick|hollow", "hollowCandle"}, {"baseline", "baseline"},
		{"hilo|hi lo|hi-lo|high low|high-low", "hiLo"}, {"mountain|mountain chart", "area"},
		{"ohlc|ohlc bar|ohlc chart", "bar"}}
	for _, s := range styles {
		for _, p := range strings.Split(s[0], "|") {
			d.add(p, entry{kind: kStyle, value: s[1]})
		}
	}
	for _, s := range [][2]string{{"line", "line"}, {"bar", "bar"}, {"area", "area"}, {"column", "column"}, {"candle", "candle"}} {
		d.add(s[0], entry{kind: kStyleWeak, value: s[1]})
	}
	for _, t := range [][2]string{{"dark|dark mode|dark theme|night mode|black background|night|black|black theme|dark background", "dark"},
		{"light|light mode|light theme|white background|white|bright", "light"}} {
		for _, p := range strings.Split(t[0], "|") {
			d.add(p, entry{kind: kTheme, value: t[1]})
		}
	}
	for _, r := range [][2]string{{"today|intraday|today's|session today", "1D"},
		{"all time|all-time|alltime|entire history|full history|since inception|since launch|since listing|max|maximum|whole history|all data|all history", "ALL"},
		{"ytd|year to date|year-to-date|so far this year|since the start of the year|since january|since the beginning of the year|start of the year|beginning of the year|start of year", "YTD"},
		{"half a year|half year|half-year", "6M"},
		{"mtd|month to date|month-to-date|so far this month|since the start of the month|since the beginning of the month", "MTD"},
		{"wtd|week to date|week-to-date|so far this week|since monday", "WTD"},
		{"dtd|day to date|day-to-date", "DTD"}} {
		for _, p := range strings.Split(r[0], "|") {
			d.add(p, entry{kind: kRangeWord, value: r[1]})
		}
	}
	for _, iv := range [][2]string{{"hourly", "1h"}, {"daily|end of day|eod", "1D"}, {"weekly", "1W"},
		{"monthly", "1M"}, {"quarterly", "3M"}, {"annual", "1Y"}, {"minutely", "1m"}} {
		for _, p := range strings.Split(iv[0], "|") {
			d.add(p, entry{kind: kIntervalWord, value: iv[1]})
		}
	}
	for _, u := range []string{"second", "minute", "hour", "day", "week", "month", "quarter", "year", "decade", "fortnight", "session", "trading day", "business day", "calendar day"} {
		v := u
		if u == "session" || u == "trading day" || u == "business day" || u == "calendar day" {
			v = "day"
		}
		d.add(u, entry{kind: kUnit, value: v})
	}
	for _, c := range []string{"last", "past", "previous", "prior", "over", "for", "recent", "trailing", "within", "during", "covering", "span", "spanning", "range", "lookback"} {
		d.add(c, entry{kind: kRangeCue})
	}
	for _, c := range []string{"candle", "interval", "timeframe", "resolution", "time frame", "bar", "granularity", "increments"} {
		d.add(c, entry{kind: kIntervalCue})
	}
	d.add("this", entry{kind: kThis})
	d.add("current", entry{kind: kThis})
	for _, s := range [][2]string{{"log|log scale|logarithmic|logarithmic scale|log chart", "logarithmic"},
		{"percent scale|percentage scale|% scale", "percent"}, {"indexed to 100|index to 100|indexed", "indexedTo100"}} {
		for _, p := range strings.Split(s[0], "|") {
			d.add(p, entry{kind: kScale, value: s[1]})
		}
	}
	for _, p := range []string{"extended hours", "extended session", "extended trading", "pre market", "premarket", "pre-market", "after hours", "afterhours", "after-hours", "post market", "ext hours", "eth", "extended"} {
		if p == "eth" {
			continue // ETH is ether
		}
		d.add(p, entry{kind: kSession, value: "extended"})
	}
	d.add("regular hours", entry{kind: kSession, value: "regular"})
	d.add("regular session", entry{kind: kSession, value: "regular"})
	for _, f := range [][2]string{{"png", "png"}, {"jpeg", "jpeg"}, {"jpg", "jpeg"}} {
		d.add(f[0], entry{kind: kFormat, value: f[1]})
	}
	for _, r := range [][2]string{{"length|period|lookback|window|len|bar length|day length", "length"},
		{"std|standard deviation|deviation|sigma|multiplier|mult|factor|stdev|standard dev|band width|width multiplier|x std", "mult"},
		{"fast|fast length|fast period|short", "fast"}, {"slow|slow length|slow period|long", "slow"},
		{"signal|signal length|signal line|signal period|smoothing period|signal smoothing", "signal"},
		{"smoothing|smooth|smoothing length", "smooth"}, {"k|%k|k length", "k"}, {"d|%d|d length", "d"},
		{"%k smoothing|k smoothing|%k smooth|smooth k|smoothing k|smooth %k", "ksmooth"},
		{"%d smoothing|d smoothing|%d smooth|smooth d|smoothing d|smooth %d", "dsmooth"}} {
		for _, p := range strings.Split(r[0], "|") {
			d.add(p, entry{kind: kRole, value: r[1]})
		}
	}
	for _, f := range []string{"crossover", "cross", "ribbon", "with", "of", "using", "set", "to", "the", "a", "an", "=", ":", "setting", "settings", "param", "parameter", "input", "value", "values", "default", "its", "it's", "set at", "at a", "but", "having", "is", "equal", "equals", "use"} {
		d.add(f, entry{kind: kFiller})
	}
	for _, a := range []string{"and", ",", "/", "&", "plus", "+", "as well as", "along with", "together with", "also", "|", ";"} {
		d.add(a, entry{kind: kAnd})
	}
	for _, c := range []string{"chart", "graph", "plot", "view", "style", "type", "candle chart"} {
		if c == "candle chart" {
			continue
		}
		d.add(c, entry{kind: kChart})
	}
	for _, dr := range []string{"horizontal line", "hline", "price line", "level", "line at", "horizontal level"} {
		d.add(dr, entry{kind: kDrawing})
	}
	// labelled levels: the label is the drawing's text
	for _, dr := range [][2]string{{"support", "Support"}, {"resistance", "Resistance"}, {"stop loss|stop-loss|stoploss|stop|sl", "Stop loss"},
		{"target|take profit|take-profit|tp|price target|profit target", "Target"}, {"entry|entry price|entry point|buy at|sell at", "Entry"},
		{"overbought|overbought level|overbought at", "Overbought"}, {"oversold|oversold level|oversold at", "Oversold"}} {
		for _, p := range strings.Split(dr[0], "|") {
			d.add(p, entry{kind: kDrawing, value: dr[1]})
		}
	}
	for _, u := range unsupported {
		d.add(u, entry{kind: kUnsupported, value: "indicator"})
	}
	for _, c := range coordinateDrawings {
		for _, p := range strings.Split(c[0], "|") {
			d.add(p, entry{kind: kUnsupported, value: "drawing:" + c[1]})
		}
	}
	for _, o := range otherStyles {
		d.add(o, entry{kind: kUnsupported, value: "style"})
	}
	// a size asked for without pixels: a warning, not a guess
	for _, o := range []string{"high resolution", "high-resolution", "hi-res", "hi res", "high res", "hires", "highres",
		"high quality", "high-quality", "high definition", "large size"} {
		d.add(o, entry{kind: kUnsupported, value: "size"})
	}
	for _, s := range [][2]string{{"hd|720p", "1280x720"}, {"full hd|fhd|1080p", "1920x1080"}, {"uhd|2160p", "3840x2160"},
		{"square", "600x600"}, {"wide|widescreen", "1280x720"}} {
		for _, p := range strings.Split(s[0], "|") {
			d.add(p, entry{kind: kSizeWord, value: s[1]})
		}
	}
	d.add("at", entry{kind: kAt})
	d.add("around", entry{kind: kAt})
	d.add("near", entry{kind: kAt})
	d.add("on", entry{kind: kOn})
	d.add("in", entry{kind: kOn})
	d.add("as", entry{kind: kOn})
	// longest phrase first, so matching can stop at the first hit
	for k, ps := range d {
		for i := 1; i < len(ps); i++ {
			for j := i; j > 0 && len(ps[j].words) > len(ps[j-1].words); j-- {
				ps[j], ps[j-1] = ps[j-1], ps[j]
			}
		}
		d[k] = ps
	}
	return d
}
