package fake

import (
	"math"
	"time"
)

// epochRecord is one entry of OperationInfo.metrics.epochs at HEAD: the dict
// TrainingProgressBridge.on_epoch appends for every finished epoch
// (kpiteira/ktrdr@2c5c7173 ktrdr/api/services/training/progress_bridge.py), copied
// into operation.metrics["epochs"] by OperationsService._refresh_from_bridge
// (ktrdr/api/services/operations_service.py). Epochs count from 0 as ModelTrainer's
// loop does (the OperationMetricsResponse example in ktrdr/api/models/operations.py
// starts at "epoch": 0).
type epochRecord struct {
	Epoch         int     `json:"epoch"`
	TrainLoss     float64 `json:"train_loss"`
	TrainAccuracy float64 `json:"train_accuracy"`
	ValLoss       float64 `json:"val_loss"`
	ValAccuracy   float64 `json:"val_accuracy"`
	LearningRate  float64 `json:"learning_rate"`
	Duration      float64 `json:"duration"`
	Timestamp     string  `json:"timestamp"`
}

// trainingMetrics is what HEAD's GET /operations/{id} puts in data.metrics for a
// training: nil (JSON null, metrics=None) until its first epoch ends, then
// {"epochs": [...]} growing by one record per finished epoch. The bridge path
// writes no trend fields (best_epoch etc.; only POST /operations/{id}/metrics does),
// so none are sent here. One step of the fake's training script is one epoch,
// as progress.context.epoch_index/total_epochs already say.
func (o *operation) trainingMetrics(info operationInfo) map[string]any {
	if o.opType != "training" || info.Progress.StepsCompleted == 0 || info.StartedAt == nil {
		return nil
	}
	start := o.created.Add(o.script.Pending)
	per := o.script.Duration / time.Duration(max(1, o.script.Steps))
	epochs := make([]epochRecord, 0, info.Progress.StepsCompleted)
	for e := range info.Progress.StepsCompleted {
		epochs = append(epochs, syntheticEpoch(e, per, start.Add(time.Duration(e+1)*per)))
	}
	return map[string]any{"epochs": epochs}
}

// syntheticEpoch is a plausible learning curve (assumed values; only the field
// names and types are the backend's): losses fall towards a floor, validation
// loss flattens above training loss, accuracies rise towards 0.64 / 0.61.
func syntheticEpoch(e int, per time.Duration, at time.Time) epochRecord {
	x := float64(e)
	r4 := func(v float64) float64 { return math.Round(v*1e4) / 1e4 }
	return epochRecord{
		Epoch:         e,
		TrainLoss:     r4(0.40 + 0.45*math.Exp(-0.35*x)),
		ValLoss:       r4(0.45 + 0.40*math.Exp(-0.30*x) + 0.002*x),
		TrainAccuracy: r4(0.64 - 0.16*math.Exp(-0.35*x)),
		ValAccuracy:   r4(0.61 - 0.13*math.Exp(-0.30*x)),
		LearningRate:  0.001,
		Duration:      math.Round(per.Seconds()*1000) / 1000,
		Timestamp:     isoTime(at),
	}
}
