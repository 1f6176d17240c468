// Package apps holds ktrdr's MCP App view, built by make apps from src/
// (see docs/apps.md) and embedded in the binary.
package apps

import (
	_ "embed"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
)

// OperationURI is the operation view: status, progress, stage, training metrics.
const OperationURI = "ui://ktrdr/operation.html"

//go:embed operation.html
var operationHTML string

// Config links the operation status and training result tools to the view.
func Config() mcpapps.Config {
	return mcpapps.Config{Views: []mcpapps.View{{
		URI: OperationURI, Name: "ktrdr-operation", HTML: operationHTML,
		Description: "An operation's status, progress and stage, or a finished training's metrics.",
		Tools:       []string{"get_operation_status", "wait_for_operation", "get_operation_results", "get_model_performance"},
	}}}
}
