package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"

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
			if err != nil {
				return opList{}, err
			}
			out := briefOps(l, in.Detail)
			out.Coverage = opsCoverage(l, in.Offset, fmt.Sprintf("call list_operations again with offset=%d, or narrow by status or operation_type", in.Offset+len(l.Operations)),
				"no operations match these filters")
			return out, nil
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
	Force       bool   `json:"force,omitempty" jsonschema:"stop at once, even mid-step"`
}

func cancelOperation(c *client.Client) toolkit.Tool {
	// Idempotent: a second cancel changes nothing; the backend answers it with
	// 400 "cannot be cancelled (status: cancelled)", reported as conflict.
	// A cancelled training or backtest keeps a checkpoint: the training
	// worker saves one on cancellation (kpiteira/ktrdr
	// ktrdr/training/training_worker.py) and POST /operations/{id}/resume
	// continues from it.
	return toolkit.New(toolkit.Def{Name: "cancel_operation", Title: "Cancel operation", Toolset: setOperations,
		Hints: toolkit.Hints{Destructive: true, Idempotent: true, OpenWorld: true},
		Description: `Cancel a pending or running operation. A training or backtest keeps a checkpoint (resume_operation continues it); a data load keeps the bars already cached.
Errors: conflict (already finished; details.status), not_found.
Related: list_checkpoints.`},
		func(ctx context.Context, in cancelIn) (cancelOut, error) {
			cn, err := c.CancelOperationWith(ctx, in.OperationID, in.Reason, in.Force)
			if err != nil {
				return cancelOut{}, err
			}
			return cancelOut{Cancellation: cn, Kept: keptOnCancel(cn.OperationID)}, nil
		})
}

// cancelOut is the backend's cancellation with what the cancelled work kept.
type cancelOut struct {
	client.Cancellation
	Kept string `json:"kept" jsonschema:"what survives the cancel and how to continue"`
}

// keptOnCancel says what a cancelled operation keeps, by its type (the id's
// prefix, op_<type>_…: ktrdr/api/services/operations_service.py). Training
// and backtest workers save a cancellation checkpoint
// (ktrdr/training/training_worker.py, ktrdr/backtesting/backtest_worker.py);
// a data load has written the segments it fetched to the cache.
func keptOnCancel(id string) string {
	switch {
	case strings.HasPrefix(id, "op_training_"), strings.HasPrefix(id, "op_backtesting_"), strings.HasPrefix(id, "op_retry_training_"), strings.HasPrefix(id, "op_retry_backtesting_"):
		return "a checkpoint of the work so far: resume_operation with this operation_id continues it (list_checkpoints shows it)"
	case strings.HasPrefix(id, "op_data_load_"), strings.HasPrefix(id, "op_retry_data_load_"):
		return "the bars already fetched stay cached (get_data_summary); trigger_data_loading fetches the rest"
	default:
		return "nothing to resume: start it again if needed"
	}
}

func resumeOperation(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "resume_operation", Title: "Resume operation", Toolset: setOperations, Hints: toolkit.RemoteWrite,
		Description: `Continue a cancelled or failed training or backtest from its checkpoint, same operation_id (resumed_from: checkpoint, epoch); then wait_for_operation.
Errors: conflict (running or completed), not_found (no checkpoint: list_checkpoints), upstream_unavailable.`},
		func(ctx context.Context, in operationIn) (client.Resumed, error) {
			return c.ResumeOperation(ctx, in.OperationID)
		})
}

func retryOperation(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "retry_operation", Title: "Retry operation", Toolset: setOperations, Hints: toolkit.RemoteWrite,
		Description: `Register a failed operation again as a new one (new operation_id, same parameters). The backend records it pending and may not run it: check with wait_for_operation, else start it again.
Errors: conflict (not failed; cancelled: resume_operation), not_found.`},
		func(ctx context.Context, in operationIn) (retryOut, error) {
			op, err := c.RetryOperation(ctx, in.OperationID)
			return retryOut{OperationID: op.OperationID, Status: op.Status, RetryOf: in.OperationID}, err
		})
}

// retryOut is the new operation POST /operations/{id}/retry registered.
type retryOut struct {
	OperationID string `json:"operation_id"`
	Status      string `json:"status"`
	RetryOf     string `json:"retry_of"`
}

type checkpointsOut struct {
	Checkpoints []client.Checkpoint `json:"checkpoints"`
	TotalCount  int                 `json:"total_count"`
	envelope.Coverage
}

func listCheckpoints(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_checkpoints", Title: "List checkpoints", Toolset: setOperations, Hints: toolkit.RemoteRead,
		Description: `List saved checkpoints newest first: operation_id, type (cancellation, failure, periodic, shutdown), time, state (epoch). Each can resume_operation.`},
		func(ctx context.Context, _ struct{}) (checkpointsOut, error) {
			items, total, err := c.Checkpoints(ctx)
			if err != nil {
				return checkpointsOut{}, err
			}
			out := checkpointsOut{Checkpoints: items, TotalCount: total, Coverage: envelope.Whole()}
			switch {
			case len(items) == 0:
				out.Coverage = envelope.Nothing("the backend holds no checkpoints")
			case total > len(items):
				out.Coverage = envelope.Cut(envelope.Capped, fmt.Sprintf("%d of %d checkpoints", total-len(items), total), "the backend sent only the newest; resume_operation takes any operation_id")
			}
			return out, nil
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
