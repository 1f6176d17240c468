package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestParseEpochs(t *testing.T) {
	// The record shape of TrainingProgressBridge.on_epoch and the trend fields of
	// OperationMetricsResponse's example (kpiteira/ktrdr@2c5c7173 ktrdr/api/models/operations.py).
	headExample := `{"epochs":[{"epoch":0,"train_loss":0.8234,"train_accuracy":0.65,"val_loss":0.8912,"val_accuracy":0.58,"learning_rate":0.001,"duration":12.5,"timestamp":"2025-01-17T10:00:00Z"}],` +
		`"best_epoch":0,"best_val_loss":0.8912,"epochs_since_improvement":0,"is_overfitting":false,"is_plateaued":false,"total_epochs_planned":100,"total_epochs_completed":1}`
	cases := []struct {
		name, raw string
		want      string // JSON of the series, "" for nil
	}{
		{"absent (3ba55e75)", ``, ""},
		{"null before the first epoch", `null`, ""},
		{"empty", `{}`, ""},
		{"no epochs yet", `{"epochs":[]}`, ""},
		{"a data load's metrics", `{"segments":[{"n":1}]}`, ""},
		{"HEAD endpoint tuple shape", `[[{"epoch":0}],1]`, ""},
		{"malformed", `{"epochs":"x"}`, ""},
		{"model example", headExample,
			`{"epochs_completed":1,"epoch":[0],"train_loss":[0.8234],"val_loss":[0.8912],"train_accuracy":[0.65],"val_accuracy":[0.58],"learning_rate":0.001,"best_epoch":0,"best_val_loss":0.8912,"epochs_since_improvement":0,"is_overfitting":false,"is_plateaued":false,"total_epochs_planned":100}`},
		{"bridge records with nulls and strings", `{"epochs":[{"epoch":0,"train_loss":"0.712345","val_loss":null},{"train_loss":0.6,"val_accuracy":"NaN"}]}`,
			`{"epochs_completed":2,"epoch":[0,1],"train_loss":[0.7123,0.6],"val_loss":[null,null],"train_accuracy":[null,null],"val_accuracy":[null,null]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := ParseEpochs(json.RawMessage(tc.raw))
			if tc.want == "" {
				if s != nil {
					t.Fatalf("want nil, got %+v", s)
				}
				return
			}
			b, _ := json.Marshal(s)
			if string(b) != tc.want {
				t.Fatalf("got  %s\nwant %s", b, tc.want)
			}
		})
	}
}

func TestParseEpochsThinsLongTrainings(t *testing.T) {
	var recs []string
	for e := range 500 {
		recs = append(recs, fmt.Sprintf(`{"epoch":%d,"train_loss":%g}`, e, 1/float64(e+1)))
	}
	s := ParseEpochs(json.RawMessage(`{"epochs":[` + strings.Join(recs, ",") + `]}`))
	if s.Completed != 500 || len(s.Epoch) != MaxEpochPoints || s.Epoch[0] != 0 || s.Epoch[len(s.Epoch)-1] != 499 {
		t.Fatalf("completed %d, %d points from %d to %d", s.Completed, len(s.Epoch), s.Epoch[0], s.Epoch[len(s.Epoch)-1])
	}
	for i := 1; i < len(s.Epoch); i++ {
		if s.Epoch[i] <= s.Epoch[i-1] {
			t.Fatalf("epochs not increasing at %d: %v", i, s.Epoch)
		}
	}
}

func TestParseOperationKeepsEpochs(t *testing.T) {
	op, err := ParseOperation([]byte(`{"success":true,"data":{"operation_id":"a","status":"running","progress":{"percentage":20},"metrics":{"epochs":[{"epoch":0,"train_loss":0.5}]}}}`), "a")
	if err != nil || op.Epochs == nil || op.Epochs.Completed != 1 || *op.Epochs.TrainLoss[0] != 0.5 {
		t.Fatalf("%+v %v", op.Epochs, err)
	}
}
