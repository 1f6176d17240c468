package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

// contractFile holds the cases; golden files are named relative to its directory.
const contractFile = "testdata/contract/cases.json"

// contract is Google News' answers as public sources recorded them
// (testdata/contract/cases.json; the feed captures are testdata/*.xml, see
// testdata/SOURCES.md), replayed against the real client: what the tools
// promise must hold on Google's own bytes, not only on the fake's.
//
// A case may add what the result's JSON does not show: the article ids (not
// serialized), the snippets including empty ones (omitted when empty), and a
// golden file of the normalized items (UPDATE_GOLDEN=1 rewrites it).
var contract = servetest.Contract{File: contractFile, MinCases: 8, Shapes: Shapes,
	Call: func(t *testing.T, base string, tc servetest.ContractCase) (any, error) {
		var own struct {
			Golden string `json:"golden"`
			Want   struct {
				ArticleIDs []string `json:"article_ids"`
				Snippets   []string `json:"snippets"`
			} `json:"want"`
		}
		if err := json.Unmarshal(tc.Raw, &own); err != nil {
			t.Fatal(err)
		}
		c := New(Config{BaseURL: base, Timeout: 5 * time.Second, RetryWait: time.Millisecond, Drift: tc.Drift})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		f, err := invoke(ctx, c, tc.Call, tc.Args)
		w := own.Want
		if err != nil {
			return f, err
		}
		for i, id := range w.ArticleIDs {
			if i >= len(f.Items) || f.Items[i].ArticleID != id {
				t.Errorf("item %d article id: want %q (items %+v)", i, id, f.Items)
			}
		}
		for i, s := range w.Snippets {
			if i >= len(f.Items) || f.Items[i].Snippet != s {
				t.Errorf("item %d snippet: want %q (items %+v)", i, s, f.Items)
			}
		}
		if own.Golden != "" {
			checkGolden(t, filepath.Join(filepath.Dir(contractFile), own.Golden), f.Items)
		}
		return f, nil
	}}

// TestContract replays the recorded cases against the client, with no fake
// in between.
func TestContract(t *testing.T) { contract.Run(t) }

// invoke calls the client method a case names.
func invoke(ctx context.Context, c *Client, call string, args json.RawMessage) (Feed, error) {
	var a struct {
		Q       string        `json:"q"`
		Edition query.Edition `json:"edition"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return Feed{}, err
	}
	switch call {
	case "fetch":
		return c.Fetch(ctx, a.Q, a.Edition)
	}
	return Feed{}, fmt.Errorf("unknown call %q", call)
}

// checkGolden compares the normalized items with the golden file at path
// (UPDATE_GOLDEN=1 rewrites it).
func checkGolden(t *testing.T, path string, items []Item) {
	t.Helper()
	got, err := json.MarshalIndent(items, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s changed:\n%s", path, got)
	}
}
