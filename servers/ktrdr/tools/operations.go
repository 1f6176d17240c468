package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type listOperationsIn struct {
	OperationType string `json:"operation_type,omitempty" mcp:"enum=data_load|training|backtesting|indicator_compute|fuzzy_analysis|dummy|agent_research|agent_design|agent_assessment"`
	Status        string `json:"status,omitempty" mcp:"enum=pending|resuming|running|completed|failed|cancelled"`
	ActiveOnly    bool   `json:"active_only,omitempty" jsonschema:"only pending and running operations"`
	Limit         int    `json:"limit,omitempty" mcp:"min=1;max=100;default=10"`
	Offset        int    `json:"offset,omitempty" jsonschema:"skip this many (paging)" mcp:"min=0;max=100000;default=0"`
}

func listOperations(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_operations", Title: "List operations", Toolset: setOperations, Hints: toolkit.RemoteRead,
		Description: `List KTRDR operations (data loads, trainings, backtests), newest first.
Use to find operation ids or see what is running. Filters combine.
Returns operations[] (operation_id, operation_type, status, progress_percentage, current_step, symbol, duration_seconds), total_count (all matching the filters), active_count (pending+running), returned_count. No matches is an empty list.
Errors: upstream_unavailable (backend down; retryable).
Example: {"status":"running","limit":5}
Related: get_operation_status, wait_for_operation.`},
		func(ctx context.Context, in listOperationsIn) (client.OperationList, error) {
			if in.Limit == 0 {
				in.Limit = 10
			}
			return c.ListOperations(ctx, client.ListOptions{OperationType: in.OperationType, Status: in.Status,
				ActiveOnly: in.ActiveOnly, Limit: in.Limit, Offset: in.Offset})
		})
}

type operationIn struct {
	OperationID string `json:"operation_id" jsonschema:"e.g. op_training_20250101_120000_ab12cd34" mcp:"minLength=1;maxLength=200;pattern=^[A-Za-z0-9_.:-]+$"`
}

func getOperationStatus(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_operation_status", Title: "Get operation status", Toolset: setOperations, Hints: toolkit.RemoteRead,
		Description: `Get one operation's full status: status, progress (percentage, current_step, steps), metadata (symbol, timeframe, mode, dates), error_message, result_summary.
Use for a one-off check; to wait for the end use wait_for_operation.
Errors: not_found (unknown id), upstream_unavailable.
Example: {"operation_id":"op_data_load_20250101_120000_1a2b3c4d"}
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
		Description: `Cancel a pending or running operation (stops a data load or training; partial work is discarded).
Returns operation_id, status "cancelled", cancelled_at, cancellation_reason, task_cancelled, and training_session_cancelled (3ba55e75) or remote_cancelled, children_cancelled (HEAD).
Errors: conflict (already completed, failed or cancelled; details.status says which), not_found, upstream_unavailable.
Example: {"operation_id":"op_training_20250101_120000_ab12cd34","reason":"wrong dates"}
Related: list_operations (active_only), get_operation_status.`},
		func(ctx context.Context, in cancelIn) (client.Cancellation, error) {
			return c.CancelOperation(ctx, in.OperationID, in.Reason)
		})
}

func getOperationResults(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_operation_results", Title: "Get operation results", Toolset: setOperations, Hints: toolkit.RemoteRead,
		Description: `Get a finished operation's results: operation_type, status (completed or failed) and results (the result summary: bars fetched for a data load; training/test metrics and model path for a training; the error for a failure).
Errors: conflict (still pending/running or cancelled: no results), not_found, upstream_unavailable.
Example: {"operation_id":"op_training_20250101_120000_ab12cd34"}
Related: wait_for_operation, get_model_performance.`},
		func(ctx context.Context, in operationIn) (client.Results, error) {
			return c.OperationResults(ctx, in.OperationID)
		})
}
