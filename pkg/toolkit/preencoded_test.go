package toolkit

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

type listOut struct {
	Items []string `json:"items"`
	Count int      `json:"count" mcp:"min=0"`
	enc   *envelope.Encoded
}

func (o listOut) Preencoded() *envelope.Encoded { return o.enc }

// A pre-encoded answer is still checked against the output schema (once per
// encoding, by the toolkit): a valid encoding is served as is, an encoding that
// breaks the schema is refused, and an answer without one is filled and encoded.
func TestPreencodedIsStillValidated(t *testing.T) {
	good := listOut{Items: []string{"a"}, Count: 1}
	good.enc, _ = envelope.Encode(good)
	bad := listOut{Items: []string{"a"}, Count: 1, enc: &envelope.Encoded{JSON: json.RawMessage(`{"items":"a","count":-1}`), Text: "bad"}}
	cases := []struct {
		name    string
		out     listOut
		wantErr string // protocol error text; "" = success
		want    string // structured content JSON
	}{
		{"preencoded", good, "", `{"items":["a"],"count":1}`},
		{"preencoded breaks the schema", bad, "output schema validation failed", ""},
		{"plain (nil list filled)", listOut{}, "", `{"items":[],"count":0}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := server.NewMCPServer("t", "1", server.WithToolCapabilities(false), server.WithOutputSchemaValidation())
			tl := New(Def{Name: "list", Description: "d", Hints: LocalRead}, func(context.Context, struct{}) (listOut, error) { return tc.out, nil })
			srv.AddTools(tl.ServerTool)
			c, err := client.NewInProcessClient(srv)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var init mcp.InitializeRequest
			init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
			if _, err := c.Initialize(ctx, init); err != nil {
				t.Fatal(err)
			}
			var req mcp.CallToolRequest
			req.Params.Name = "list"
			res, err := c.CallTool(ctx, req)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					if res == nil || !res.IsError || !strings.Contains(mcpText(res), tc.wantErr) {
						t.Fatalf("want %q, got err=%v res=%+v", tc.wantErr, err, res)
					}
				}
				return
			}
			if err != nil || res.IsError {
				t.Fatalf("err=%v res=%+v", err, res)
			}
			got, _ := json.Marshal(res.StructuredContent)
			var g, w any
			_ = json.Unmarshal(got, &g)
			_ = json.Unmarshal([]byte(tc.want), &w)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("structured content %s, want %s", got, tc.want)
			}
		})
	}
}

func mcpText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
