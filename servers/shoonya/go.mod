module github.com/mcpfleet/mcpfleet/servers/shoonya

go 1.26.0

require github.com/mcpfleet/mcpfleet/pkg v0.0.0

require (
	github.com/boombuler/barcode v1.0.1-0.20190219062509-6c824513bacc // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/go-resty/resty/v2 v2.17.2 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/pquerna/otp v1.5.0 // indirect
	github.com/rs/zerolog v1.35.1 // indirect
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

replace github.com/mcpfleet/mcpfleet/pkg => ../../pkg
