package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

// The backend's research agent (HEAD only: ktrdr/api/endpoints/agent.py):
// one research designs or takes a strategy, trains it and backtests it as
// child operations.

type researchIn struct {
	Strategy string `json:"strategy,omitempty" jsonschema:"an existing v3 strategy to train (skips design); not with brief" mcp:"maxLength=200"`
	Brief    string `json:"brief,omitempty" jsonschema:"guidance for designing a new strategy; not with strategy" mcp:"maxLength=2000"`
	Model    string `json:"model,omitempty" jsonschema:"default: the backend's (opus)" mcp:"enum=opus|sonnet|haiku"`
}

func triggerResearch(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "trigger_research", Title: "Trigger research", Toolset: setTraining, Hints: toolkit.RemoteWrite,
		Description: `Start one research cycle of the backend's agent (design or take a strategy, train, backtest); spends its daily budget. Each call starts one.
Returns operation_id: wait_for_operation, list_child_operations for its training and backtest.
Errors: conflict (details.reason at_capacity or budget_exhausted: get_agent_status), invalid_argument.`},
		func(ctx context.Context, in researchIn) (client.AgentTriggered, error) {
			if in.Strategy != "" && in.Brief != "" {
				return client.AgentTriggered{}, envelope.Invalid("brief", "give strategy (train an existing one) or brief (design a new one), not both")
			}
			return c.TriggerAgent(ctx, client.AgentTrigger{Model: in.Model, Brief: in.Brief, Strategy: in.Strategy})
		})
}

func getAgentStatus(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_agent_status", Title: "Get agent status", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Show the research agent: active researches (phase, strategy, child operation), the last cycle's outcome, workers, budget left, capacity.`},
		func(ctx context.Context, _ struct{}) (client.AgentStatus, error) {
			return c.AgentStatus(ctx)
		})
}

func cancelResearch(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "cancel_research", Title: "Cancel research", Toolset: setTraining,
		Hints: toolkit.Hints{Destructive: true, Idempotent: true, OpenWorld: true},
		Description: `Cancel an active research and the training or backtest it runs (child_cancelled; that child keeps a checkpoint: resume_operation).
Errors: not_found (details.reason not_found or not_research), conflict (not_cancellable: already finished).`},
		func(ctx context.Context, in operationIn) (client.AgentCancelled, error) {
			return c.CancelAgent(ctx, in.OperationID)
		})
}

func getAgentBudget(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_agent_budget", Title: "Get agent budget", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Show today's research budget: daily_limit, today_spend, remaining (USD), cycles_affordable, budget_disabled.`},
		func(ctx context.Context, _ struct{}) (client.AgentBudget, error) {
			return c.AgentBudget(ctx)
		})
}

type childrenIn struct {
	OperationID string `json:"operation_id" jsonschema:"a research's operation id" mcp:"minLength=1;maxLength=200;pattern=^[A-Za-z0-9_.:-]+$"`
	detailIn
}

func listChildOperations(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_child_operations", Title: "List child operations", Toolset: setOperations, Hints: toolkit.RemoteRead,
		Description: `List the operations a research started (its trainings and backtests), oldest first, as list_operations does.
Errors: not_found.`},
		func(ctx context.Context, in childrenIn) (opList, error) {
			l, err := c.Children(ctx, in.OperationID)
			if err != nil {
				return opList{}, err
			}
			out := briefOps(l, in.Detail)
			out.Coverage = opsCoverage(l, 0, "the backend sent only these children; list_operations with operation_type lists every training and backtest",
				"this research has started no training or backtest yet")
			return out, nil
		})
}
