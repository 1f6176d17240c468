package extract_test

import (
	"encoding/json"
	"fmt"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

func ExampleList() {
	body := []byte(`{"success":true,"strategies":[{"name":"trend"},{"name":"mean_revert"}]}`)
	type strategy struct{ Name string }
	got, err := extract.List[strategy](body, "strategies")
	fmt.Println(got, err)
	none, err := extract.List[strategy](body, "models") // missing → empty, no error
	fmt.Println(len(none), none != nil, err)
	// Output:
	// [{trend} {mean_revert}] <nil>
	// 0 true <nil>
}

func ExampleRequire() {
	_, err := extract.Require[string]([]byte(`{"success":true,"status":"training_started"}`), "start_training", "task_id")
	fmt.Println(err)
	// Output: upstream_error: start_training: the backend's answer has no task_id
}

func ExampleDetect() {
	err := extract.Detect(400, []byte(`{"detail":"Operation op_1 cannot be cancelled (status: completed)"}`),
		extract.SuccessFalse, extract.FastAPI)
	fmt.Println(envelope.From(err).Code)
	err = extract.Detect(200, []byte(`{"stat":"Not_Ok","emsg":"Error Occurred : 5 \"no data\""}`), extract.Noren)
	fmt.Println(err) // "no data" is an empty answer, not an error
	// Output:
	// conflict
	// <nil>
}

func ExampleNum() {
	var q struct {
		LP  extract.Num `json:"lp"`
		Qty extract.Int `json:"qty"`
	}
	_ = json.Unmarshal([]byte(`{"lp":"118.55","qty":"25"}`), &q)
	out, _ := json.Marshal(q)
	fmt.Println(string(out))
	// Output: {"lp":118.55,"qty":25}
}

func ExampleStringList() {
	var m struct {
		Outcomes extract.StringList `json:"outcomes"`
	}
	_ = json.Unmarshal([]byte(`{"outcomes":"[\"Yes\",\"No\"]"}`), &m)
	fmt.Println(len(m.Outcomes), m.Outcomes[0])
	// Output: 2 Yes
}
