module github.com/mcpfleet/mcpfleet/cmd/mcpfleet

go 1.26.0

require github.com/mcpfleet/mcpfleet/pkg v0.0.0

replace github.com/mcpfleet/mcpfleet/pkg => ../../pkg
