package upstream_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

func Example() {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/operations/op_missing" {
			w.WriteHeader(404)
			fmt.Fprint(w, `{"detail":"Operation not found: op_missing"}`)
			return
		}
		fmt.Fprint(w, `{"success":true,"data":{"operation_id":"op_1","status":"running"}}`)
	}))
	defer backend.Close()

	c := upstream.New(upstream.Config{
		Name: "ktrdr", BaseURL: backend.URL + "/api/v1", URLEnv: "KTRDR_API_URL", Timeout: 5 * time.Second,
		Detectors: []extract.Detector{extract.SuccessFalse, extract.FastAPI},
	})
	ctx := context.Background()

	var op struct {
		Data struct {
			Status string `json:"status"`
		} `json:"data"`
	}
	err := c.GetJSON(ctx, "get_operation_status", "/operations/op_1", nil, &op)
	fmt.Println(op.Data.Status, err)

	resp, err := c.Do(ctx, upstream.Request{Op: "get_operation_status", Path: "/operations/op_missing"})
	e := envelope.From(err)
	fmt.Println(resp.Status, resp.Attempts, e.Code, e.Message)
	// Output:
	// running <nil>
	// 404 1 not_found ktrdr get_operation_status: Operation not found: op_missing
}
