package main

import "github.com/mcpfleet/mcpfleet/pkg/serve"

// envVars is what the shoonya server reads from its environment (--help lists it).
var envVars = []serve.EnvVar{
	{Name: "SHOONYA_AUTH", Help: "login generation: oauth or legacy"},
	{Name: "SHOONYA_USER_ID", Help: "broker user id"},
	{Name: "SHOONYA_PASSWORD", Help: "broker password", Secret: true},
	{Name: "SHOONYA_TOTP_SECRET", Help: "TOTP secret for the second factor", Secret: true},
	{Name: "SHOONYA_VENDOR_CODE", Help: "legacy login: vendor code"},
	{Name: "SHOONYA_API_SECRET", Help: "legacy login: API secret", Secret: true},
	{Name: "SHOONYA_IMEI", Help: "legacy login: device id"},
	{Name: "SHOONYA_CLIENT_ID", Help: "OAuth client id"},
	{Name: "SHOONYA_CLIENT_SECRET", Help: "OAuth client secret", Secret: true},
	{Name: "SHOONYA_OAUTH_REDIRECT_URL", Help: "OAuth loopback redirect registered with the broker"},
	{Name: "SHOONYA_AUTHORIZE_URL", Help: "OAuth authorize page (default the broker's)"},
	{Name: "SHOONYA_REST_URL", Help: "REST base (default the broker's NorenWClientTP)"},
	{Name: "SHOONYA_WS_URL", Help: "websocket feed (default the broker's NorenWSTP)"},
	{Name: "SHOONYA_CONFIRM_ORDERS", Help: "auto, require or off: ask the user before placing orders"},
	{Name: "SHOONYA_MAX_ORDER_QTY", Help: "pre-trade limit: most shares/lots in one order"},
	{Name: "SHOONYA_MAX_ORDER_VALUE", Help: "pre-trade limit: most rupees in one order"},
	{Name: "SHOONYA_MAX_ORDERS_PER_MINUTE", Help: "pre-trade limit: orders per minute"},
	{Name: "SHOONYA_ALLOWED_EXCHANGES", Help: "comma list of exchanges orders may go to"},
	{Name: "SHOONYA_ALLOWED_PRODUCTS", Help: "comma list of products orders may use"},
	{Name: "SHOONYA_REQUESTS_PER_SECOND", Help: "broker request budget per second"},
	{Name: "SHOONYA_REQUESTS_PER_MINUTE", Help: "broker request budget per minute"},
	{Name: "SHOONYA_TIMEOUT", Help: "per-request timeout"},
	{Name: "SHOONYA_ORDER_TIMEOUT", Help: "order request timeout"},
	{Name: "SHOONYA_PROBE_LOGIN", Help: "drift-probe only: 1 lets the probe log in (legacy) when no stored session exists; a new login may end the server's session"},
	{Name: "SHOONYA_PROBE_USER", Help: "drift-probe only: whose stored session the probe reads with (default local)"},
	{Name: "MCPFLEET_STATE_KEY", Help: "with MCPFLEET_REDIS_URL: 32 random bytes, base64, encrypting broker sessions shared in Redis", Secret: true},
}
