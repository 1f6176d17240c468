package confirm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
)

// TestTicketBoundToTool: a ticket answers only for the tool and the exact
// fields it was issued for; place_order's digest stays the bare arguments'.
func TestTicketBoundToTool(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	tk := &Tickets{State: kv.NewMemory(), Now: func() time.Time { return now }}
	args := map[string]any{"order_id": "123"}
	raw := []byte(`{"order_id":"123"}`)
	sum := sha256.Sum256(raw)
	if DigestFor("", raw) != hex.EncodeToString(sum[:]) || DigestFor(PlaceOrder, raw) != DigestFor("", raw) {
		t.Fatal("place_order's digest changed: links issued before would break")
	}
	exit, err := tk.IssueFor(ctx, "u", args, Ask{Tool: "exit_order", Summary: "exit 123"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, tool string
		raw        []byte
		want       error
	}{
		{"another tool's yes", "convert_position", raw, ErrAltered},
		{"place_order's yes", "", raw, ErrAltered},
		{"other fields", "exit_order", []byte(`{"order_id":"124"}`), ErrAltered},
		{"the right one", "exit_order", raw, nil},
		{"again", "exit_order", raw, ErrUsed},
	} {
		if _, err := tk.Redeem(ctx, exit.ID, "u", DigestFor(c.tool, c.raw)); !errors.Is(err, c.want) {
			t.Fatalf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	basket, _ := tk.IssueFor(ctx, "u", args, Ask{Tool: "place_basket", Summary: "s", Legs: []string{"BUY 1", "SELL 1"}})
	if basket.ID == exit.ID || len(basket.Legs) != 2 || basket.Tool != "place_basket" {
		t.Fatalf("%+v", basket)
	}
}
