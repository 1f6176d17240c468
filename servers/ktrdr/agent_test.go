package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// TestAgentLoop: trigger a research, see it in the status and the budget,
// list its child training, cancel it (the child is cancelled and keeps its
// checkpoint), and each refusal the agent routes send.
func TestAgentLoop(t *testing.T) {
	e := start(t, setup{scripts: slowScripts})
	tr := servetest.Decode[client.AgentTriggered](t, e.call(t, "trigger_research", map[string]any{"strategy": "neuro_mean_reversion", "model": "haiku"}))
	if !tr.Triggered || !strings.HasPrefix(tr.OperationID, "op_agent_research_") || tr.Model != "haiku" {
		t.Fatalf("%+v", tr)
	}
	st := servetest.Decode[client.AgentStatus](t, e.call(t, "get_agent_status", nil))
	if st.Status != "active" || len(st.ActiveResearches) != 1 || st.ActiveResearches[0]["operation_id"] != tr.OperationID || st.ActiveResearches[0]["phase"] != "training" {
		t.Fatalf("%+v", st)
	}
	b := servetest.Decode[map[string]any](t, e.call(t, "get_agent_budget", nil))
	if b["daily_limit"] != 5.0 || b["today_spend"] != 0.15 || b["spend_events"] != 1.0 || b["budget_disabled"] != false {
		t.Fatalf("budget: %v", b)
	}
	kids := listOps(t, e.call(t, "list_child_operations", map[string]any{"operation_id": tr.OperationID}))
	if len(kids.Operations) != 1 || !strings.HasPrefix(kids.Operations[0].OperationID, "op_training_") || kids.Operations[0].Status != "running" {
		t.Fatalf("children: %+v", kids)
	}
	child := kids.Operations[0].OperationID

	refusals := []struct {
		name, tool string
		faults     fake.Faults
		args       map[string]any
		want       wantErr
	}{
		{"second research: at capacity", "trigger_research", fake.Faults{}, map[string]any{"brief": "RSI on EURUSD"},
			wantErr{code: envelope.Conflict, contains: []string{"At capacity", "get_agent_status"}, detail: map[string]any{"reason": "at_capacity"}}},
		{"brief and strategy both", "trigger_research", fake.Faults{}, map[string]any{"brief": "x", "strategy": "y"},
			wantErr{code: envelope.InvalidArgument, contains: []string{"not both"}}},
		{"old backend: no agent", "get_agent_status", fake.Faults{Backend: fake.Backend3ba55e75}, nil,
			wantErr{code: envelope.UpstreamError, contains: []string{"predates it", "no research agent"}}},
		{"budget 500", "get_agent_budget", fake.Faults{Status: 500}, nil, wantErr{code: envelope.UpstreamError, retryable: true}},
		{"status malformed", "get_agent_status", fake.Faults{Malformed: true}, nil, wantErr{code: envelope.UpstreamError, contains: []string{"not valid JSON"}}},
		{"cancel a training: not a research", "cancel_research", fake.Faults{}, map[string]any{"operation_id": child},
			wantErr{code: envelope.NotFound, contains: []string{"not a research"}, detail: map[string]any{"reason": "not_research"}}},
		{"cancel unknown", "cancel_research", fake.Faults{}, map[string]any{"operation_id": "op_nope"},
			wantErr{code: envelope.NotFound, detail: map[string]any{"reason": "not_found"}}},
		{"children of unknown", "list_child_operations", fake.Faults{}, map[string]any{"operation_id": "op_nope"},
			wantErr{code: envelope.NotFound, contains: []string{"Operation not found", "list_operations"}}},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			checkErr(t, e.call(t, c.tool, c.args), c.want)
		})
	}

	cn := servetest.Decode[client.AgentCancelled](t, e.call(t, "cancel_research", map[string]any{"operation_id": tr.OperationID}))
	if cn.OperationID != tr.OperationID || cn.ChildCancelled != child {
		t.Fatalf("%+v", cn)
	}
	if e.fake.Status(child) != fake.StatusCancelled {
		t.Fatalf("child is %s", e.fake.Status(child))
	}
	cps := servetest.Decode[struct {
		Checkpoints []client.Checkpoint `json:"checkpoints"`
	}](t, e.call(t, "list_checkpoints", nil))
	if len(cps.Checkpoints) != 1 || cps.Checkpoints[0].OperationID != child {
		t.Fatalf("the cancelled child keeps a checkpoint: %+v", cps)
	}
	checkErr(t, e.call(t, "cancel_research", map[string]any{"operation_id": tr.OperationID}),
		wantErr{code: envelope.Conflict, detail: map[string]any{"reason": "not_cancellable"}})
	if st := servetest.Decode[client.AgentStatus](t, e.call(t, "get_agent_status", nil)); st.Status != "idle" || st.LastCycle["outcome"] != "cancelled" {
		t.Fatalf("%+v", st)
	}
}
