package fake

// Symbol is one entry of GET /v3/tradingview/exchange/{id} (hyphenated keys as the API sends them).
type Symbol struct {
	Symbol       string   `json:"symbol"`
	Description  string   `json:"description"`
	Type         string   `json:"type"`
	Exchange     string   `json:"exchange"`
	CurrencyCode string   `json:"currency_code"`
	CurrencyLogo string   `json:"currency-logoid,omitempty"`
	BaseLogo     string   `json:"base-currency-logoid,omitempty"`
	ProviderID   string   `json:"provider_id"`
	Source2      *Source  `json:"source2,omitempty"`
	SourceID     string   `json:"source_id"`
	TypeSpecs    []string `json:"typespecs,omitempty"`
}

// Source is the symbol's source block.
type Source struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// exchangeIDs is the default /exchange/list payload: plain strings in
// alphabetical order, as the API sends (source: doc.chart-img.com ›
// TradingView Snapshot v3 › Exchange List, whose example shows the first
// five, these). assumed: the other 37 ids and the list's length (the example
// is cut after five ids).
var exchangeIDs = []string{"ACTIVTRADES", "ADX", "AFTERPRIME", "AMEX", "ASX", "BINANCE", "BINANCEUS", "BITFINEX",
	"BITSTAMP", "BSE", "BYBIT", "CAPITALCOM", "CBOE", "CBOT", "CME", "CME_MINI", "COINBASE", "COMEX", "CRYPTOCAP",
	"DJ", "EURONEXT", "FX", "FOREXCOM", "GEMINI", "HKEX", "KRAKEN", "KUCOIN", "LSE", "NASDAQ", "NSE", "NYMEX", "NYSE",
	"OANDA", "OKX", "OTC", "PEPPERSTONE", "RUSSELL", "SP", "TSE", "TSX", "TVC", "XETR"}

func sym(ex, s, desc, typ, ccy string, specs ...string) Symbol {
	return Symbol{Symbol: s, Description: desc, Type: typ, Exchange: ex, CurrencyCode: ccy,
		ProviderID: lower(ex), Source2: &Source{ID: ex, Name: ex, Description: ex}, SourceID: ex, TypeSpecs: specs}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func defaultSymbols() map[string][]Symbol {
	m := map[string][]Symbol{}
	for _, p := range [][2]string{{"BTC", "Bitcoin"}, {"ETH", "Ethereum"}, {"SOL", "Solana"}, {"XRP", "XRP"},
		{"DOGE", "Dogecoin"}, {"ADA", "Cardano"}, {"BNB", "BNB"}, {"LTC", "Litecoin"}, {"AVAX", "Avalanche"}, {"LINK", "Chainlink"}} {
		s := sym("BINANCE", p[0]+"USDT", p[1]+" / TetherUS", "spot", "USDT", "crypto")
		s.CurrencyLogo, s.BaseLogo = "crypto/XTVCUSDT", "crypto/XTVC"+p[0]
		m["BINANCE"] = append(m["BINANCE"], s)
		m["BINANCE"] = append(m["BINANCE"], sym("BINANCE", p[0]+"USDT.P", p[1]+" / TetherUS PERPETUAL CONTRACT", "swap", "USDT", "crypto", "perpetual"))
		m["COINBASE"] = append(m["COINBASE"], sym("COINBASE", p[0]+"USD", p[1]+" / U.S. Dollar", "spot", "USD", "crypto"))
		m["KRAKEN"] = append(m["KRAKEN"], sym("KRAKEN", p[0]+"USD", p[1]+" / U.S. Dollar", "spot", "USD", "crypto"))
	}
	for _, p := range [][2]string{{"AAPL", "Apple Inc."}, {"MSFT", "Microsoft Corporation"}, {"NVDA", "NVIDIA Corporation"},
		{"AMZN", "Amazon.com, Inc."}, {"GOOGL", "Alphabet Inc."}, {"META", "Meta Platforms, Inc."}, {"TSLA", "Tesla, Inc."},
		{"AMD", "Advanced Micro Devices, Inc."}, {"NFLX", "Netflix, Inc."}, {"PLTR", "Palantir Technologies Inc."}} {
		m["NASDAQ"] = append(m["NASDAQ"], sym("NASDAQ", p[0], p[1], "stock", "USD", "common"))
	}
	m["NASDAQ"] = append(m["NASDAQ"], sym("NASDAQ", "NDX", "Nasdaq 100 Index", "index", "USD"), sym("NASDAQ", "QQQ", "Invesco QQQ Trust", "fund", "USD", "etf"))
	for _, p := range [][2]string{{"BABA", "Alibaba Group Holding Limited"}, {"JPM", "JPMorgan Chase & Co."}, {"KO", "Coca-Cola Company"},
		{"IBM", "International Business Machines"}, {"DIS", "Walt Disney Company"}} {
		m["NYSE"] = append(m["NYSE"], sym("NYSE", p[0], p[1], "stock", "USD", "common"))
	}
	for _, p := range [][2]string{{"EURUSD", "Euro / U.S. Dollar"}, {"GBPUSD", "British Pound / U.S. Dollar"},
		{"USDJPY", "U.S. Dollar / Japanese Yen"}, {"AUDUSD", "Australian Dollar / U.S. Dollar"}, {"GBPJPY", "British Pound / Japanese Yen"}} {
		m["FX"] = append(m["FX"], sym("FX", p[0], p[1], "forex", p[0][3:]))
		m["OANDA"] = append(m["OANDA"], sym("OANDA", p[0], p[1], "forex", p[0][3:]))
	}
	m["OANDA"] = append(m["OANDA"], sym("OANDA", "XAUUSD", "Gold Spot / U.S. Dollar", "commodity", "USD"), sym("OANDA", "XAGUSD", "Silver / U.S. Dollar", "commodity", "USD"))
	m["SP"] = []Symbol{sym("SP", "SPX", "S&P 500 Index", "index", "USD")}
	m["DJ"] = []Symbol{sym("DJ", "DJI", "Dow Jones Industrial Average Index", "index", "USD")}
	m["TVC"] = []Symbol{sym("TVC", "DXY", "U.S. Dollar Index", "index", "USD"), sym("TVC", "USOIL", "CFDs on WTI Crude Oil", "cfd", "USD"), sym("TVC", "US10Y", "US Government Bonds 10 YR Yield", "bond", "USD")}
	m["AMEX"] = []Symbol{sym("AMEX", "SPY", "SPDR S&P 500 ETF Trust", "fund", "USD", "etf")}
	return m
}
