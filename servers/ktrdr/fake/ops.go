package fake

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Operation statuses and types as the backend spells them (ktrdr/api/models/operations.py).
const (
	StatusPending   = "pending"
	StatusRunning   = "running"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
	StatusCancelled = "cancelled"
)

// The enums the list filters validate (422 otherwise): 3ba55e75's, and HEAD's
// with the resuming status and the agent types (ktrdr/api/models/operations.py).
var (
	operationStatuses     = []string{StatusPending, StatusRunning, StatusCompleted, StatusFailed, StatusCancelled}
	operationTypes        = []string{"data_load", "training", "backtesting", "indicator_compute", "fuzzy_analysis", "dummy"}
	headOperationStatuses = []string{StatusPending, "resuming", StatusRunning, StatusCompleted, StatusFailed, StatusCancelled}
	headOperationTypes    = append(append([]string{}, operationTypes...), "agent_research", "agent_design", "agent_assessment")
)

// Script says how a new operation of one type progresses (assumed: the real
// pace depends on IB and the model; only the shapes below are the backend's): it stays pending for
// Pending, then runs from 0 to 100% over Duration in Steps steps, and ends
// completed, or failed with FailMessage once it reaches FailAt percent.
type Script struct {
	Pending     time.Duration `json:"pending_ms"`
	Duration    time.Duration `json:"duration_ms"`
	Steps       int           `json:"steps"`
	FailAt      float64       `json:"fail_at"`
	FailMessage string        `json:"fail_message"`
}

func defaultScripts() map[string]Script {
	return map[string]Script{
		"data_load": {Duration: 3 * time.Second, Steps: 5},
		"training":  {Duration: 10 * time.Second, Steps: 10},
		// assumed pace, like the others: a backtest replays bars faster than a training.
		"backtesting":    {Duration: 4 * time.Second, Steps: 8},
		"agent_research": {Duration: 20 * time.Second, Steps: 4},
	}
}

// operation is the store's record; its public state is computed from the clock.
type operation struct {
	id, opType string
	created    time.Time
	script     Script
	metadata   opMetadata
	// set when the operation ends by cancellation or an explicit Finish.
	endedAt      time.Time
	endStatus    string
	endMessage   string
	cancelReason *string
	forced       bool // the cancel asked for force (CancelOperationRequest.force)
	frozenPct    float64
	// onComplete runs once, under the store lock, when the op completes.
	onComplete func(now time.Time)
	completeFn bool
	summary    map[string]any
	warnings   []string
	// shift is how long the operation stood cancelled before a resume: its
	// progress runs on from where it stopped.
	shift time.Duration
	// checkpoint is what a cancelled training or backtest saved (nil: none).
	checkpoint *checkpoint
	// parent is the agent research that started this operation ("" for none).
	parent string
	// phase is an agent research's current phase (agent_research only).
	phase string
}

// checkpoint is a saved state a cancelled operation resumes from
// (CheckpointSummaryResponse / ResumedFromInfo in kpiteira/ktrdr@2c5c7173
// ktrdr/api/endpoints/checkpoints.py, ktrdr/api/models/operations.py).
type checkpoint struct {
	typ     string // periodic, cancellation, failure, shutdown
	created time.Time
	epoch   int // the last finished epoch (training) or bar step (backtest)
}

type opMetadata struct {
	Symbol     *string        `json:"symbol"`
	Timeframe  *string        `json:"timeframe"`
	Mode       *string        `json:"mode"`
	StartDate  *string        `json:"start_date"`
	EndDate    *string        `json:"end_date"`
	Parameters map[string]any `json:"parameters"`
}

type opProgress struct {
	Percentage     float64        `json:"percentage"`
	CurrentStep    *string        `json:"current_step"`
	StepsCompleted int            `json:"steps_completed"`
	StepsTotal     int            `json:"steps_total"`
	ItemsProcessed int            `json:"items_processed"`
	ItemsTotal     *int           `json:"items_total"`
	CurrentItem    *string        `json:"current_item"`
	Context        map[string]any `json:"context"`
}

// operationInfo is OperationInfo on the wire (source: kpiteira/ktrdr
// ktrdr/api/models/operations.py; HEAD adds metrics in getOperation, see epochs.go; parent_operation_id is left out).
type operationInfo struct {
	OperationID   string         `json:"operation_id"`
	OperationType string         `json:"operation_type"`
	Status        string         `json:"status"`
	CreatedAt     string         `json:"created_at"`
	StartedAt     *string        `json:"started_at"`
	CompletedAt   *string        `json:"completed_at"`
	Progress      opProgress     `json:"progress"`
	Metadata      opMetadata     `json:"metadata"`
	ErrorMessage  *string        `json:"error_message"`
	Warnings      []string       `json:"warnings"`
	Errors        []string       `json:"errors"`
	ResultSummary map[string]any `json:"result_summary"`
	durationS     *float64
}

// operationSummary is OperationSummary on the wire (list items; ktrdr/api/models/operations.py).
type operationSummary struct {
	OperationID        string   `json:"operation_id"`
	OperationType      string   `json:"operation_type"`
	Status             string   `json:"status"`
	CreatedAt          string   `json:"created_at"`
	ProgressPercentage float64  `json:"progress_percentage"`
	CurrentStep        *string  `json:"current_step"`
	Symbol             *string  `json:"symbol"`
	DurationSeconds    *float64 `json:"duration_seconds"`
}

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

func strp(s string) *string { return &s }

// state computes the operation's public state at now, running the completion
// side effect the first time the operation is seen completed.
func (o *operation) state(now time.Time) operationInfo {
	sc := o.script
	info := operationInfo{
		OperationID:   o.id,
		OperationType: o.opType,
		CreatedAt:     isoTime(o.created),
		Metadata:      o.metadata,
		Warnings:      append([]string{}, o.warnings...),
		Errors:        []string{},
		Progress:      opProgress{StepsTotal: sc.Steps, Context: map[string]any{}},
	}
	if info.Metadata.Parameters == nil {
		info.Metadata.Parameters = map[string]any{}
	}
	start := o.created.Add(sc.Pending)
	run := start.Add(o.shift) // where 0% would have been, counting a resume's pause
	status, pct := StatusPending, 0.0
	var end time.Time
	switch {
	case o.endStatus != "":
		status, pct, end = o.endStatus, o.frozenPct, o.endedAt
		if !o.endedAt.After(run) && o.endStatus == StatusCancelled && o.shift == 0 {
			start = time.Time{} // cancelled while pending: it never started
		}
	case now.Before(run):
		if o.shift > 0 && now.After(start) {
			status = StatusRunning // resumed before it had started running
		}
	default:
		status = StatusRunning
		if sc.Duration <= 0 {
			pct = 100
		} else {
			pct = math.Min(100, float64(now.Sub(run))/float64(sc.Duration)*100)
		}
		if sc.FailAt > 0 && pct >= sc.FailAt {
			status, pct, end = StatusFailed, sc.FailAt, run.Add(time.Duration(float64(sc.Duration)*sc.FailAt/100))
		} else if pct >= 100 {
			status, end = StatusCompleted, run.Add(sc.Duration)
		}
	}
	pct = math.Round(pct*10) / 10
	if !start.IsZero() && status != StatusPending {
		info.StartedAt = strp(isoTime(start))
	}
	if !end.IsZero() {
		info.CompletedAt = strp(isoTime(end))
	}
	info.Status = status
	info.Progress.Percentage = pct
	if sc.Steps > 0 && status != StatusPending {
		done := int(pct / 100 * float64(sc.Steps))
		if done > sc.Steps {
			done = sc.Steps
		}
		info.Progress.StepsCompleted = done
		cur := done + 1
		if cur > sc.Steps {
			cur = sc.Steps
		}
		info.Progress.CurrentStep = strp(o.stepText(cur, sc.Steps, status))
		info.Progress.ItemsProcessed = done
		info.Progress.Context = o.stepContext(cur, sc.Steps)
	}
	switch status {
	case StatusCompleted:
		if !o.completeFn && o.onComplete != nil {
			o.completeFn = true
			o.onComplete(end)
		}
		info.ResultSummary = o.summary
	case StatusFailed:
		msg := sc.FailMessage
		if o.endStatus == StatusFailed {
			msg = o.endMessage
		}
		if msg == "" {
			msg = "operation failed"
		}
		info.ErrorMessage = &msg
		info.Errors = []string{msg}
		info.ResultSummary = map[string]any{"error": msg}
	case StatusCancelled:
		msg := "Operation cancelled"
		if o.cancelReason != nil {
			msg = "Operation cancelled: " + *o.cancelReason
		}
		info.ErrorMessage = &msg
	}
	if info.StartedAt != nil {
		stop := now
		if !end.IsZero() {
			stop = end
		}
		d := math.Round(stop.Sub(start).Seconds()*1000) / 1000
		info.durationS = &d
	}
	return info
}

// stepText is the current_step text (assumed wording; the client only passes it on).
func (o *operation) stepText(cur, total int, status string) string {
	switch status {
	case StatusCompleted:
		return "Completed"
	}
	switch o.opType {
	case "training":
		return fmt.Sprintf("Epoch %d/%d", cur, total)
	case "backtesting":
		return fmt.Sprintf("Simulating bar batch %d/%d", cur, total)
	case "agent_research":
		return "Phase: " + o.phase
	case "data_load":
		sym := ""
		if o.metadata.Symbol != nil {
			sym = *o.metadata.Symbol + " "
		}
		return fmt.Sprintf("Loading %sdata segment %d/%d", sym, cur, total)
	}
	return fmt.Sprintf("Step %d/%d", cur, total)
}

func (o *operation) stepContext(cur, total int) map[string]any {
	switch o.opType {
	case "training":
		return map[string]any{"epoch_index": cur, "total_epochs": total}
	case "data_load":
		return map[string]any{"current_segment": cur, "total_segments": total}
	}
	return map[string]any{}
}

func (i operationInfo) summary() operationSummary {
	return operationSummary{
		OperationID:        i.OperationID,
		OperationType:      i.OperationType,
		Status:             i.Status,
		CreatedAt:          i.CreatedAt,
		ProgressPercentage: i.Progress.Percentage,
		CurrentStep:        i.Progress.CurrentStep,
		Symbol:             i.Metadata.Symbol,
		DurationSeconds:    i.durationS,
	}
}

func isActive(status string) bool { return status == StatusPending || status == StatusRunning }

// sortedOps returns the operations newest first, as the backend sorts them.
func (s *Server) sortedOps() []*operation {
	ops := make([]*operation, 0, len(s.ops))
	for _, o := range s.ops {
		ops = append(ops, o)
	}
	sort.Slice(ops, func(i, j int) bool {
		if ops[i].created.Equal(ops[j].created) {
			return ops[i].id > ops[j].id
		}
		return ops[i].created.After(ops[j].created)
	})
	return ops
}

// newOp registers an operation with the id format op_{type}_{YYYYmmdd_HHMMSS}_{uuid8}
// (ktrdr/api/services/operations_service.py generate_operation_id).
func (s *Server) newOp(opType string, md opMetadata, created time.Time) *operation {
	s.seq++
	id := fmt.Sprintf("op_%s_%s_%08x", opType, created.UTC().Format("20060102_150405"), uint32(s.seq*2654435761))
	sc, ok := s.scripts[opType]
	if !ok {
		sc = Script{Duration: 2 * time.Second, Steps: 4}
	}
	o := &operation{id: id, opType: opType, created: created, script: sc, metadata: md}
	s.ops[id] = o
	return o
}
