package fake

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/web-search/openai"
)

// TestEveryModelEffortPair: for every model the table names and every
// effort, the fake refuses exactly what the table says OpenAI refuses, and
// the client, set to that effort, sends one the fake accepts (the nearest
// the model takes), so no configured effort fails every search with a 400.
func TestEveryModelEffortPair(t *testing.T) {
	f := New(Options{})
	base, stop := f.Start()
	defer stop()
	for _, r := range openai.Rules {
		for _, m := range r.Models {
			// A prefix row ("gpt-6*", "gpt-6-luna-*") is tried with its stem.
			model := strings.TrimRight(strings.TrimSuffix(m, "*"), "-")
			f.SetModel(model, "")
			for _, e := range openai.Efforts {
				body := fmt.Sprintf(`{"model":%q,"input":"q","tools":[{"type":"web_search"}],"reasoning":{"effort":%q}}`, model, e)
				resp, m := post(t, base+"/v1/responses", "sk-test", body)
				accepted := r.Efforts != nil && slices.Contains(r.Efforts, e) && e != "minimal"
				if (resp.StatusCode == 200) != accepted {
					t.Errorf("%s effort %s: fake answered %d %v, table says accepted=%v", model, e, resp.StatusCode, m, accepted)
				}
				c := openai.New(openai.Config{APIKey: "sk-test", BaseURL: base + "/v1", Model: model, Effort: e, Timeout: 5 * time.Second, MaxAttempts: 1})
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				if _, err := c.Search(ctx, openai.Query{Text: "uae rates"}, nil); err != nil {
					sent, note := c.EffortSent()
					t.Errorf("%s effort %s (sent %q, %s): %v", model, e, sent, note, err)
				}
				cancel()
			}
		}
	}
}
