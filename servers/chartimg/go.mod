module github.com/mcpfleet/mcpfleet/servers/chartimg

go 1.26.0

require github.com/mcpfleet/mcpfleet/pkg v0.0.0

require (
	github.com/PuerkitoBio/goquery v1.13.0 // indirect
	github.com/andybalholm/cascadia v1.3.4 // indirect
	golang.org/x/net v0.58.0 // indirect
)

replace github.com/mcpfleet/mcpfleet/pkg => ../../pkg
