package feed

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// TestContractShapes: every recorded answer of testdata/contract (Google's
// captured feeds and its error answers), replayed through the client, passes
// the shape the probe and the run-time watch use (the client's answers feed
// the process's drift watch, checked on every answer here).
func TestContractShapes(t *testing.T) { contract.RunShapes(t) }

// TestShapesCatchDrift: the captured search feed changed the ways Google
// could change it fails its shape, with the kind and path of the change
// first; Google's HTML error page is a known error body, JSON is not.
func TestShapesCatchDrift(t *testing.T) {
	shape := Shapes[0]
	body, err := os.ReadFile("testdata/search-us-2026-09-25.xml")
	if err != nil {
		t.Fatal(err)
	}
	rec := string(body)
	cases := []struct{ name, body, kind, path string }{
		{"pubDate renamed", strings.ReplaceAll(strings.ReplaceAll(rec, "<pubDate>", "<published>"), "</pubDate>", "</published>"), drift.Missing, "item.pubDate"},
		{"pubDate not a date", strings.Replace(rec, "<pubDate>Fri, 25 Sep 2026 13:53:48 GMT</pubDate>", "<pubDate>2 hours ago</pubDate>", 1), drift.Retyped, "item.pubDate"},
		{"links to another form", strings.Replace(rec, "https://news.google.com/rss/articles/", "https://news.google.com/read/", 1), drift.NewEnum, "item.link"},
		{"guid dropped", strings.Replace(rec, `<guid isPermaLink="false">CBMinwFBVV95cUxObDNTMW1VT3pC</guid>`, "", 1), drift.Missing, "item.guid"},
		{"not rss", `{"items":[]}`, drift.Malformed, ""},
	}
	for _, c := range cases {
		if c.body == rec {
			t.Fatalf("%s: the capture did not change", c.name)
		}
		fs := shape.CheckBody([]byte(c.body))
		if len(fs) == 0 || fs[0].Kind != c.kind || fs[0].Path != c.path {
			t.Errorf("%s: %v", c.name, fs)
		}
	}
	if fs := shape.CheckError([]byte("<!DOCTYPE html><html><title>Error 404 (Not Found)</title>")); len(fs) != 0 {
		t.Errorf("Google's error page: %v", fs)
	}
	if fs := shape.CheckError([]byte(`{"error":{"code":400}}`)); len(fs) != 1 || fs[0].Kind != drift.ErrorBody {
		t.Errorf("new error body: %v", fs)
	}
}
