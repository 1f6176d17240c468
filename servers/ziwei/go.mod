module github.com/mcpfleet/mcpfleet/servers/ziwei

go 1.26.0

require (
	github.com/6tail/lunar-go v1.4.6
	github.com/mcpfleet/mcpfleet/pkg v0.0.0
)

replace github.com/mcpfleet/mcpfleet/pkg => ../../pkg
