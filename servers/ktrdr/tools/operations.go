package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type listOperationsIn struct {
	OperationType string `json:"operation_type,omitempty" mcp:"enum=data_load|training|backtesting|indicator_compute|fuzzy_analysis|dummy|agent_research|agent_design|agent_assessment"`
	Status        string `json:"status,omitempty" mcp:"enum=pending|resuming|running|completed|failed|cancelled"`
	ActiveOnly    bool   `json:"active_only,omitempty" jsonschema:"pending and running only"`
	Limit         int    `json:"limit,omitempty" mcp:"min=1;max=100;default=10"`
	Offset        int    `json:"offset,omitempty" mcp:"min=0;max=100000"`
	detailIn
}

func listOperations(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_operations", Title: "List operations", Toolset: setOperations, Hints: toolkit.RemoteRead,
		Description: `List KTRDR operations newest first: id (type is its prefix), status, symbol, progress; filters combine; detail adds type, step, times.
Use to find operation ids or see what is running.
Related: get_operation_status, wait_for_operation.`},
		func(ctx context.Context, in listOperationsIn) (opList, error) {
			if in.Limit == 0 {
				in.Limit = 10
			}
			l, err := c.ListOperations(ctx, client.ListOptions{OperationType: in.OperationType, Status: in.Status,
				ActiveOnly: in.ActiveOnly, Limit: in.Limit, Offset: in.Offset})
			return briefOps(l, in.Detail), err
		})
}

type operationIn struct {
	OperationID string `json:"operation_id" mcp:"minLength=1;maxLength=200;pattern=^[A-Za-z0-9_.:-]+$"`
}

func getOperationStatus(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_operation_status", Title: "Get operation status", Toolset: setOperations, Hints: toolkit.RemoteRead,
		Description: `Get one operation's status: progress, metadata, error_message, result_summary; training: epochs (per-epoch loss/accuracy).
One-off check; to wait use wait_for_operation.
Errors: not_found.
Related: list_operations, get_operation_results, cancel_operation.`},
		func(ctx context.Context, in operationIn) (client.Operation, error) {
			return c.GetOperation(ctx, in.OperationID)
		})
}

type cancelIn struct {
	OperationID string `json:"operation_id" mcp:"minLength=1;maxLength=200;pattern=^[A-Za-z0-9_.:-]+$"`
	Reason      string `json:"reason,omitempty" jsonschema:"recorded by the backend" mcp:"maxLength=500"`
}

func cancelOperation(c *client.Client) toolkit.Tool {
	// Idempotent: a second cancel changes nothing; the backend answers it with
	// 400 "cannot be cancelled (status: cancelled)", reported as conflict.
	return toolkit.New(toolkit.Def{Name: "cancel_operation", Title: "Cancel operation", Toolset: setOperations,
		Hints: toolkit.Hints{Destructive: true, Idempotent: true, OpenWorld: true},
		Description: `Cancel a pending or running operation (stops a data load or training; partial work is discarded). Returns status "cancelled" and what was stopped.
Errors: conflict (already finished; details.status), not_found.
Related: list_operations (active_only), get_operation_status.`},
		func(ctx context.Context, in cancelIn) (client.Cancellation, error) {
			return c.CancelOperation(ctx, in.OperationID, in.Reason)
		})
}

func getOperationResults(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_operation_results", Title: "Get operation results", Toolset: setOperations, Hints: toolkit.RemoteRead,
		Description: `Get a finished operation's results: bars fetched for a data load; metrics and model path for a training; the error for a failure.
Errors: conflict (still running, or cancelled: no results), not_found.
Related: wait_for_operation, get_model_performance.`},
		func(ctx context.Context, in operationIn) (client.Results, error) {
			return c.OperationResults(ctx, in.OperationID)
		})
}
