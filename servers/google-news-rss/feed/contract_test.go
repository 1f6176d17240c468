package feed

import (
	"encoding/json"
	"os"
	"testing"
)

// Real captures (testdata/SOURCES.md) replayed against the parser: what the
// tools promise must hold on Google's own bytes, not only on the fake's.
func TestContractRealCaptures(t *testing.T) {
	t.Run("search feed 2026-09-25", func(t *testing.T) {
		f := mustParse(t, "testdata/search-us-2026-09-25.xml")
		if f.Title != `"breaking OR crisis OR emergency" - Google News` {
			t.Errorf("title %q", f.Title)
		}
		want := []Item{
			{Title: "Fall Related Emergency Visits for Older Adults Continue to Climb", Publisher: "countynewscenter.com",
				PublisherDomain: "countynewscenter.com", URL: "https://news.google.com/rss/articles/CBMinwFBVV95cUxObDNTMW1VT3pC?oc=5",
				ArticleID: "CBMinwFBVV95cUxObDNTMW1VT3pC", Published: "2026-09-25T13:53:48Z",
				Snippet: ""}, // the description only repeated title and publisher
			{Title: "Ketanji Brown Jackson criticizes supreme court’s handling of emergency docket", Publisher: "The Guardian",
				PublisherDomain: "theguardian.com", URL: "https://news.google.com/rss/articles/CBMiogFBVV95cUxQZ3MtNXd1?oc=5",
				ArticleID: "CBMiogFBVV95cUxQZ3MtNXd1", Published: "2026-09-25T16:11:00Z",
				Snippet: ""},
		}
		assertItems(t, f.Items, want)
	})
	t.Run("top stories clusters 2026-06", func(t *testing.T) {
		f := mustParse(t, "testdata/top-us-2026-06.xml")
		if len(f.Items) != 2 {
			t.Fatalf("%d items", len(f.Items))
		}
		a := f.Items[0]
		if a.Title != "Escalating tensions threaten interim peace deal" || a.PublisherDomain != "theguardian.com" || a.Published != "2026-06-29T00:35:00Z" {
			t.Errorf("item 0: %+v", a)
		}
		if a.Snippet != "Diplomats meet as deadline nears (Reuters)" { // the story itself is title and publisher
			t.Errorf("snippet %q", a.Snippet)
		}
		// no <source>: the publisher comes from the description's <font>
		b := f.Items[1]
		if b.Title != "Market rallies on rate-cut hopes" || b.Publisher != "Bloomberg" || b.PublisherDomain != "" {
			t.Errorf("item 1: %+v", b)
		}
	})
}

func mustParse(t *testing.T, path string) Feed {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(body, "US:en")
	if err != nil {
		t.Fatalf("Parse(%s): %v", path, err)
	}
	return f
}

func assertItems(t *testing.T, got, want []Item) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d items, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Title != w.Title || g.Publisher != w.Publisher || g.PublisherDomain != w.PublisherDomain || g.URL != w.URL ||
			g.ArticleID != w.ArticleID || g.Published != w.Published || g.Snippet != w.Snippet {
			t.Errorf("item %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// The normalized form of each capture is a golden file (UPDATE_GOLDEN=1 rewrites).
func TestGoldenNormalized(t *testing.T) {
	for _, name := range []string{"search-us-2026-09-25", "top-us-2026-06"} {
		f := mustParse(t, "testdata/"+name+".xml")
		got, err := json.MarshalIndent(f.Items, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		path := "testdata/golden/" + name + ".json"
		if os.Getenv("UPDATE_GOLDEN") != "" {
			if err := os.MkdirAll("testdata/golden", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with UPDATE_GOLDEN=1)", err)
		}
		if string(want) != string(got)+"\n" {
			t.Errorf("%s changed:\n%s", path, got)
		}
	}
}
