package tools

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

func TestCursorRoundTrip(t *testing.T) {
	for _, c := range []cursor{{Tool: "list_markets", Keyset: "abc=="}, {Tool: "list_events", Offset: 300}, {Tool: "search_markets"}} {
		got, err := decodeCursor(c.Tool, c.encode())
		if err != nil || got != c {
			t.Fatalf("%+v → %+v, %v", c, got, err)
		}
	}
	for _, bad := range []string{"!!", "e30", cursor{Tool: "list_events"}.encode(), cursor{Tool: "list_markets", Offset: -5}.encode()} {
		if _, err := decodeCursor("list_markets", bad); envelope.From(err).Code != envelope.InvalidArgument {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add(cursor{Tool: "list_markets", Keyset: "x"}.encode())
	f.Add("")
	f.Add("eyJ0IjoibGlzdF9tYXJrZXRzIiwibyI6LTF9")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeCursor("list_markets", s)
		if err != nil {
			if envelope.From(err).Code != envelope.InvalidArgument {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if c.Tool != "list_markets" || c.Offset < 0 {
			t.Fatalf("%q → %+v", s, c)
		}
	})
}
