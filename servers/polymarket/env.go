package main

import "github.com/mcpfleet/mcpfleet/pkg/serve"

// envVars is what the polymarket server reads from its environment (--help lists it).
var envVars = []serve.EnvVar{
	{Name: "POLYMARKET_GAMMA_URL", Help: "Gamma API (default https://gamma-api.polymarket.com)"},
	{Name: "POLYMARKET_CLOB_URL", Help: "CLOB API (default https://clob.polymarket.com)"},
	{Name: "POLYMARKET_DATA_URL", Help: "Data API (default https://data-api.polymarket.com)"},
	{Name: "POLYMARKET_MARKET_WS_URL", Help: "CLOB market websocket for the live feed (default wss://ws-subscriptions-clob.polymarket.com/ws/market)"},
	{Name: "POLYMARKET_BTC_URL", Help: "BTC spot source (default Coinbase)"},
	{Name: "POLYMARKET_BTC_FALLBACK_URL", Help: "BTC spot fallback (default Kraken)"},
	{Name: "POLYMARKET_PUBLIC_PER_MINUTE", Help: "public-data calls per user per minute (default 30)"},
	{Name: "POLYMARKET_USER_PER_MINUTE", Help: "user-data calls per user per minute (default 10)"},
	{Name: "POLYMARKET_PYTHON_RUNS_PER_HOUR", Help: "execute-python-code runs per user per hour (default 10)"},
}
