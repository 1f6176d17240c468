package client

import (
	"encoding/json"
	"math"
	"strconv"
)

// Per-epoch training metrics. Facts, from kpiteira/ktrdr at 2c5c7173 (HEAD):
//   - OperationInfo has `metrics: Optional[dict[str, Any]]` (ktrdr/api/models/operations.py);
//     GET /operations/{id} returns it in data.metrics (null until the first epoch).
//   - For a training, OperationsService._refresh_from_bridge appends the bridge's
//     epoch records to metrics["epochs"] (ktrdr/api/services/operations_service.py);
//     each record is {epoch, train_loss, train_accuracy, val_loss, val_accuracy,
//     learning_rate, duration, timestamp}, any of them possibly null
//     (TrainingProgressBridge.on_epoch, ktrdr/api/services/training/progress_bridge.py).
//   - Only POST /operations/{id}/metrics (add_operation_metrics) also writes the trend
//     fields best_epoch, best_val_loss, epochs_since_improvement, is_overfitting,
//     is_plateaued, total_epochs_planned, total_epochs_completed; they are read when present.
//   - 3ba55e75 has no metrics field at all: no series, nothing else changes.
//
// GET /operations/{id}/metrics is not used: at HEAD the backend route puts the
// service's (new_metrics, cursor) tuple in data.metrics (ktrdr/api/endpoints/operations.py
// get_operation_metrics), so the status body already carries the same epochs in a
// documented shape, with no extra request and no route probe on 3ba55e75.

// MaxEpochPoints bounds the series sent to the model: a longer training is thinned
// to evenly spaced epochs that always keep the first and the last.
const MaxEpochPoints = 120

// EpochSeries is a training's per-epoch metrics as columns (one entry per epoch,
// same index in every column; null where the backend had no value), plus the
// backend's trend fields when it computed them.
type EpochSeries struct {
	Completed     int        `json:"epochs_completed"`
	Epoch         []int      `json:"epoch"`
	TrainLoss     []*float64 `json:"train_loss"`
	ValLoss       []*float64 `json:"val_loss"`
	TrainAccuracy []*float64 `json:"train_accuracy"`
	ValAccuracy   []*float64 `json:"val_accuracy"`
	LearningRate  *float64   `json:"learning_rate,omitempty"` // the last epoch's
	BestEpoch     *int       `json:"best_epoch,omitempty"`
	BestValLoss   *float64   `json:"best_val_loss,omitempty"`
	SinceBest     *int       `json:"epochs_since_improvement,omitempty"`
	Overfitting   *bool      `json:"is_overfitting,omitempty"`
	Plateaued     *bool      `json:"is_plateaued,omitempty"`
	Planned       *int       `json:"total_epochs_planned,omitempty"`
}

// wireEpoch is one record of metrics.epochs; numbers may come as strings or null.
type wireEpoch struct {
	Epoch         *float64 `json:"epoch"`
	TrainLoss     optNum   `json:"train_loss"`
	TrainAccuracy optNum   `json:"train_accuracy"`
	ValLoss       optNum   `json:"val_loss"`
	ValAccuracy   optNum   `json:"val_accuracy"`
	LearningRate  optNum   `json:"learning_rate"`
}

type wireMetrics struct {
	Epochs      []wireEpoch `json:"epochs"`
	BestEpoch   *int        `json:"best_epoch"`
	BestValLoss optNum      `json:"best_val_loss"`
	SinceBest   *int        `json:"epochs_since_improvement"`
	Overfitting *bool       `json:"is_overfitting"`
	Plateaued   *bool       `json:"is_plateaued"`
	Planned     *int        `json:"total_epochs_planned"`
}

// optNum is a JSON number, a numeric string, or null/absent/NaN (nil).
type optNum struct{ v *float64 }

func (n *optNum) UnmarshalJSON(b []byte) error {
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	var f float64
	switch t := x.(type) {
	case float64:
		f = t
	case string:
		p, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return nil // "NaN"-like or text: no value, as null
		}
		f = p
	default:
		return nil
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	f = round4(f)
	n.v = &f
	return nil
}

// round4 keeps 4 significant digits: enough for a curve, a third of the bytes.
func round4(f float64) float64 {
	if f == 0 {
		return 0
	}
	s := strconv.FormatFloat(f, 'g', 4, 64)
	r, _ := strconv.ParseFloat(s, 64)
	return r
}

// ParseEpochs reads OperationInfo.metrics (the raw value of data.metrics). Absent,
// null, a non-training shape or a malformed value gives nil: the series is an
// extra beside the status, never a reason to fail it.
func ParseEpochs(raw json.RawMessage) *EpochSeries {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var m wireMetrics
	if err := json.Unmarshal(raw, &m); err != nil || len(m.Epochs) == 0 {
		return nil
	}
	s := &EpochSeries{Completed: len(m.Epochs), BestEpoch: m.BestEpoch, BestValLoss: m.BestValLoss.v,
		SinceBest: m.SinceBest, Overfitting: m.Overfitting, Plateaued: m.Plateaued, Planned: m.Planned}
	for _, i := range thin(len(m.Epochs), MaxEpochPoints) {
		e := m.Epochs[i]
		n := i // a record without its epoch number is the i-th (0-based, as ModelTrainer counts)
		if e.Epoch != nil {
			n = int(*e.Epoch)
		}
		s.Epoch = append(s.Epoch, n)
		s.TrainLoss = append(s.TrainLoss, e.TrainLoss.v)
		s.ValLoss = append(s.ValLoss, e.ValLoss.v)
		s.TrainAccuracy = append(s.TrainAccuracy, e.TrainAccuracy.v)
		s.ValAccuracy = append(s.ValAccuracy, e.ValAccuracy.v)
	}
	s.LearningRate = m.Epochs[len(m.Epochs)-1].LearningRate.v
	return s
}

// thin returns up to max indexes of n, evenly spaced, first and last included.
func thin(n, max int) []int {
	out := make([]int, 0, min(n, max))
	if n <= max {
		for i := range n {
			out = append(out, i)
		}
		return out
	}
	for k := range max {
		out = append(out, int(math.Round(float64(k)*float64(n-1)/float64(max-1))))
	}
	return out
}
