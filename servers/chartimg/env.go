package main

import "github.com/mcpfleet/mcpfleet/pkg/serve"

// envVars is what the chartimg server reads from its environment (--help lists it).
var envVars = []serve.EnvVar{
	{Name: "CHART_IMG_API_KEY", Help: "chart-img.com API key (sent as x-api-key)", Secret: true},
	{Name: "CHART_IMG_PLAN", Help: "your plan, for local limit checks: BASIC, PRO, MEGA, ULTRA or ENTERPRISE"},
	{Name: "CHART_IMG_DAILY_MAX", Help: "requests a day for the local limiter, below the plan's (0: the plan's)"},
	{Name: "TRADINGVIEW_SESSION_ID", Help: "tradingview.com sessionid cookie, for private layouts in generate_layout_chart (with TRADINGVIEW_SESSION_ID_SIGN)", Secret: true},
	{Name: "TRADINGVIEW_SESSION_ID_SIGN", Help: "tradingview.com sessionid_sign cookie (with TRADINGVIEW_SESSION_ID)", Secret: true},
	{Name: "CHART_IMG_API_URL", Help: "API host (default https://api.chart-img.com)"},
	{Name: "CHART_IMG_DOCS_URL", Help: "documentation page (default https://doc.chart-img.com/)"},
}
