package main

// server is what the CLI knows of each server: enough to find its binary and
// write client configs. It never imports a server's code.
type server struct {
	Name    string
	Summary string
	Port    int
	Env     []envVar // variables a deployment sets; secrets get placeholders
	Fake    string   // the fake upstream binary for trying it without an account
	// Upstreams are the URLs doctor checks: the variable, else its default.
	Upstreams []upstreamURL
	// Check is a free, read-only tool doctor calls with no arguments; each
	// string of its result's "warnings" is something to fix.
	Check string
}

type envVar struct {
	Name, Example string
	Secret        bool
	Required      bool // doctor reports it missing
}

type upstreamURL struct{ Env, Default string }

var servers = []server{
	{Name: "ziwei", Summary: "Zi Wei Dou Shu charts computed natively in Go (matches iztro 2.6.1)", Port: 8701,
		Env: nil}, // no credentials; ZIWEI_RULES_FILE is optional
	{Name: "shoonya", Summary: "Shoonya (Finvasia/Noren) broker: login, orders, books, quotes, option chain, candles, live ticks", Port: 8702,
		Fake: "fake-shoonya",
		Env: []envVar{{Name: "SHOONYA_AUTH", Example: "oauth"}, {Name: "SHOONYA_USER_ID", Example: "FA12345", Required: true},
			{Name: "SHOONYA_PASSWORD", Secret: true}, {Name: "SHOONYA_TOTP_SECRET", Secret: true},
			{Name: "SHOONYA_VENDOR_CODE", Example: "FA12345_U"}, {Name: "SHOONYA_API_SECRET", Secret: true},
			{Name: "SHOONYA_IMEI", Example: "abc1234"}, {Name: "SHOONYA_CLIENT_ID", Example: "FA12345_U"},
			{Name: "SHOONYA_CLIENT_SECRET", Secret: true},
			{Name: "SHOONYA_CONFIRM_ORDERS", Example: "auto"}, {Name: "SHOONYA_MAX_ORDER_QTY", Example: "1000"},
			{Name: "SHOONYA_MAX_ORDER_VALUE", Example: "500000"}},
		Upstreams: []upstreamURL{{Env: "SHOONYA_REST_URL", Default: "https://api.shoonya.com/NorenWClientTP/"}}},
	{Name: "chartimg", Summary: "chart-img.com: docs, exchanges, symbols, natural language to chart config, validation, chart images", Port: 8703,
		Fake:      "fake-chartimg",
		Env:       []envVar{{Name: "CHART_IMG_API_KEY", Secret: true, Required: true}},
		Upstreams: []upstreamURL{{Env: "CHART_IMG_API_URL", Default: "https://api.chart-img.com"}}},
	{Name: "ktrdr", Summary: "KTRDR trading-research backend: operations, data loading, training, models, strategies", Port: 8704,
		Fake:      "fake-ktrdr",
		Env:       []envVar{{Name: "KTRDR_API_URL", Example: "http://localhost:8000/api/v1", Required: true}},
		Upstreams: []upstreamURL{{Env: "KTRDR_API_URL", Default: "http://localhost:8000/api/v1"}}},
	{Name: "polymarket", Summary: "Polymarket read-only data: markets, events, search, order books, prices, history, wallets, holders, comments, BTC spot; sandboxed Python", Port: 8705,
		Fake: "fake-polymarket",
		Env: []envVar{{Name: "POLYMARKET_GAMMA_URL", Example: "https://gamma-api.polymarket.com"},
			{Name: "POLYMARKET_CLOB_URL", Example: "https://clob.polymarket.com"},
			{Name: "POLYMARKET_DATA_URL", Example: "https://data-api.polymarket.com"},
			{Name: "POLYMARKET_MARKET_WS_URL", Example: "wss://ws-subscriptions-clob.polymarket.com/ws/market"},
			{Name: "POLYMARKET_BTC_URL", Example: "https://api.coinbase.com"},
			{Name: "POLYMARKET_BTC_FALLBACK_URL", Example: "https://api.kraken.com"},
			{Name: "POLYMARKET_PYTHON_RUNS_PER_HOUR", Example: "10"}},
		Upstreams: []upstreamURL{{Env: "POLYMARKET_GAMMA_URL", Default: "https://gamma-api.polymarket.com"},
			{Env: "POLYMARKET_CLOB_URL", Default: "https://clob.polymarket.com"},
			{Env: "POLYMARKET_DATA_URL", Default: "https://data-api.polymarket.com"}}},
	{Name: "google-news-rss", Summary: "English Google News search feeds: build, validate, preview, fetch polled once per 3-hour window", Port: 8706,
		Fake:      "fake-google-news-rss",
		Env:       []envVar{{Name: "GOOGLE_NEWS_BASE_URL", Example: "https://news.google.com"}},
		Upstreams: []upstreamURL{{Env: "GOOGLE_NEWS_BASE_URL", Default: "https://news.google.com"}}},
	{Name: "web-search", Summary: "cited web search through the OpenAI Responses API's web_search tool, 20 searches per 10 minutes per user", Port: 8707,
		Fake: "fake-web-search",
		Env: []envVar{{Name: "OPENAI_API_KEY", Secret: true, Required: true}, {Name: "WEB_SEARCH_MODEL", Example: "gpt-6-luna"},
			{Name: "OPENAI_BASE_URL", Example: "https://api.openai.com/v1"}},
		Upstreams: []upstreamURL{{Env: "OPENAI_BASE_URL", Default: "https://api.openai.com/v1"}},
		Check:     "get_search_capabilities"}, // warns when the model shuts down within 30 days
}

func findServer(name string) (server, bool) {
	for _, s := range servers {
		if s.Name == name {
			return s, true
		}
	}
	return server{}, false
}
