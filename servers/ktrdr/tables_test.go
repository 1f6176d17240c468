package main

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

// opRow is a list_operations row read back from its table (the detail
// columns stay zero without detail).
type opRow struct {
	OperationID     string  `json:"operation_id"`
	Status          string  `json:"status"`
	Symbol          string  `json:"symbol"`
	Progress        float64 `json:"progress"`
	OperationType   string  `json:"operation_type"`
	CreatedAt       string  `json:"created_at"`
	CurrentStep     string  `json:"current_step"`
	DurationSeconds float64 `json:"duration_seconds"`
}

type opsList struct {
	Cols        []string
	Operations  []opRow
	TotalCount  int
	ActiveCount int
}

// listOps decodes list_operations' result.
func listOps(t *testing.T, res *mcp.CallToolResult) opsList {
	t.Helper()
	tab := servetest.Decode[struct {
		Cols        []string `json:"cols"`
		Rows        [][]any  `json:"rows"`
		TotalCount  int      `json:"total_count"`
		ActiveCount int      `json:"active_count"`
	}](t, res)
	if tab.Rows == nil {
		t.Fatalf("rows must be a list, even empty: %s", servetest.Text(res))
	}
	rows, err := toolkit.Untabulate[opRow](tab.Cols, tab.Rows)
	if err != nil {
		t.Fatal(err)
	}
	return opsList{Cols: tab.Cols, Operations: rows, TotalCount: tab.TotalCount, ActiveCount: tab.ActiveCount}
}

// listModels decodes list_trained_models' result.
func listModels(t *testing.T, res *mcp.CallToolResult) (cols []string, models []client.Model) {
	t.Helper()
	tab := servetest.Decode[struct {
		Cols []string `json:"cols"`
		Rows [][]any  `json:"rows"`
	}](t, res)
	models, err := toolkit.Untabulate[client.Model](tab.Cols, tab.Rows)
	if err != nil {
		t.Fatal(err)
	}
	return tab.Cols, models
}
