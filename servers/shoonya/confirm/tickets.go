// Package confirm is the order confirmation a person gives outside the
// model: one-time tickets in the shared state, bound to an order's exact
// fields, and the page that shows one and places the order on a POST.
package confirm

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
)

// DefaultTTL is how long a ticket can be used: long enough to read an
// order and press a button, short enough that a forgotten link is dead.
const DefaultTTL = 5 * time.Minute

// Ticket is one money-moving action waiting for a person's yes.
type Ticket struct {
	ID string `json:"id"`
	// Tool is the action's tool ("" is place_order, as tickets were first issued).
	Tool    string          `json:"tool,omitempty"`
	User    string          `json:"user"`
	Digest  string          `json:"digest"` // of the tool and its exact fields
	Order   json.RawMessage `json:"order"`  // the tool's arguments
	Summary string          `json:"summary"`
	// Legs are what is sent, one line each in sending order (a basket's orders).
	Legs []string `json:"legs,omitempty"`
	// Button names the page's button ("Place this order" when empty).
	Button  string    `json:"button,omitempty"`
	Warning string    `json:"warning,omitempty"` // e.g. it repeats an order just sent
	Expires time.Time `json:"expires"`
	Used    bool      `json:"used"`
	Outcome string    `json:"outcome,omitempty"` // what placing it answered
}

// Tickets issues and redeems tickets.
type Tickets struct {
	State kv.State
	Now   func() time.Time
	TTL   time.Duration
}

// Digest is the binding of a ticket to an order: the SHA-256 of its canonical
// JSON (a Go struct marshals its fields in one order).
func Digest(order any) (string, []byte, error) {
	b, err := json.Marshal(order)
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), b, nil
}

// DigestFor binds a ticket to tool's exact arguments raw. place_order's
// tickets digest the arguments alone, as before other tools shared the
// page, so links issued by an older replica stay valid; every other tool
// digests its name with them, so one tool's yes never passes for another's.
func DigestFor(tool string, raw []byte) string {
	if tool != "" && tool != PlaceOrder {
		raw = append([]byte(tool+"\x00"), raw...)
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// PlaceOrder is the tool whose tickets carry no Tool.
const PlaceOrder = "place_order"

// Ask is what a person is asked to confirm.
type Ask struct {
	Tool, Summary, Warning, Button string
	Legs                           []string
}

func (t *Tickets) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

func (t *Tickets) ttl() time.Duration {
	if t.TTL > 0 {
		return t.TTL
	}
	return DefaultTTL
}

func key(id string) string { return "confirm:ticket:" + id }

func indexKey(user, digest string) string { return "confirm:open:" + user + ":" + digest }

// Issue returns the open ticket for user's order (a retry of the same call
// gets the same link), or a new one.
func (t *Tickets) Issue(ctx context.Context, user string, order any, summary, warning string) (Ticket, error) {
	return t.IssueFor(ctx, user, order, Ask{Summary: summary, Warning: warning})
}

// IssueFor is Issue for any tool's action.
func (t *Tickets) IssueFor(ctx context.Context, user string, order any, a Ask) (Ticket, error) {
	raw, err := json.Marshal(order)
	if err != nil {
		return Ticket{}, err
	}
	if a.Tool == PlaceOrder {
		a.Tool = ""
	}
	summary, warning := a.Summary, a.Warning
	digest := DigestFor(a.Tool, raw)
	if b, err := t.State.Get(ctx, indexKey(user, digest)); err == nil && b != nil {
		if tk, err := t.Find(ctx, string(b)); err == nil && tk != nil && !tk.Used && t.now().Before(tk.Expires) && tk.Warning == warning {
			return *tk, nil
		}
	}
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return Ticket{}, err
	}
	tk := Ticket{ID: hex.EncodeToString(id[:]), Tool: a.Tool, User: user, Digest: digest, Order: raw, Summary: summary, Warning: warning,
		Legs: a.Legs, Button: a.Button, Expires: t.now().Add(t.ttl())}
	b, err := json.Marshal(tk)
	if err != nil {
		return Ticket{}, err
	}
	// Kept past expiry, so a late use is told "expired", not "unknown".
	if err := t.State.Update(ctx, key(tk.ID), t.ttl()+time.Hour, func([]byte) ([]byte, error) { return b, nil }); err != nil {
		return Ticket{}, err
	}
	_ = t.State.Update(ctx, indexKey(user, digest), t.ttl(), func([]byte) ([]byte, error) { return []byte(tk.ID), nil })
	return tk, nil
}

// Find reads a ticket (nil when unknown).
func (t *Tickets) Find(ctx context.Context, id string) (*Ticket, error) {
	if !validID(id) {
		return nil, nil
	}
	b, err := t.State.Get(ctx, key(id))
	if err != nil || b == nil {
		return nil, err
	}
	var tk Ticket
	if err := json.Unmarshal(b, &tk); err != nil {
		return nil, err
	}
	return &tk, nil
}

func validID(id string) bool {
	if len(id) != 32 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

// Why a ticket cannot be redeemed.
var (
	ErrUnknown = errors.New("no such confirmation")
	ErrUsed    = errors.New("confirmation already used")
	ErrExpired = errors.New("confirmation expired")
	ErrAltered = errors.New("order differs from the one confirmed")
)

// Redeem marks the ticket used, once: it must exist, belong to user (""
// skips that check: the page is reached by its unguessable id), be unexpired
// and bound to digest. Only the first of concurrent redeems succeeds.
func (t *Tickets) Redeem(ctx context.Context, id, user, digest string) (Ticket, error) {
	if !validID(id) {
		return Ticket{}, ErrUnknown
	}
	var tk Ticket
	var why error
	err := t.State.Update(ctx, key(id), t.ttl()+time.Hour, func(cur []byte) ([]byte, error) {
		if cur == nil {
			why = ErrUnknown
			return nil, why
		}
		if err := json.Unmarshal(cur, &tk); err != nil {
			return nil, err
		}
		switch {
		case user != "" && tk.User != user:
			why = ErrUnknown
		case tk.Used:
			why = ErrUsed
		case !t.now().Before(tk.Expires):
			why = ErrExpired
		case tk.Digest != digest:
			why = ErrAltered
		}
		if why != nil {
			return nil, why
		}
		tk.Used = true
		return json.Marshal(tk)
	})
	if why != nil {
		return tk, why
	}
	return tk, err
}

// Finish records what placing the ticket's order answered.
func (t *Tickets) Finish(ctx context.Context, id, outcome string) {
	_ = t.State.Update(ctx, key(id), t.ttl()+time.Hour, func(cur []byte) ([]byte, error) {
		if cur == nil {
			return nil, nil
		}
		var tk Ticket
		if err := json.Unmarshal(cur, &tk); err != nil {
			return nil, err
		}
		tk.Outcome = outcome
		return json.Marshal(tk)
	})
}

// RefusalOf is place_order's error for a ticket that cannot be redeemed.
func RefusalOf(err error) *envelope.Error { return RefusalFor(PlaceOrder, err) }

// RefusalFor is tool's error for a ticket that cannot be redeemed.
func RefusalFor(tool string, err error) *envelope.Error {
	msg := "the confirmation could not be checked, so nothing was sent; call " + tool + " again to be asked again"
	switch {
	case errors.Is(err, ErrUnknown):
		msg = "this answer matches no confirmation this server asked for, so nothing was sent; call " + tool + " again so the user is asked"
	case errors.Is(err, ErrUsed):
		msg = "this confirmation was already used, so nothing was sent again; check get_order_book, and call " + tool + " again only for a new one"
	case errors.Is(err, ErrExpired):
		msg = "the confirmation came after it expired, so nothing was sent; call " + tool + " again so the user is asked afresh"
	case errors.Is(err, ErrAltered):
		msg = "the request differs from the one the user confirmed, so nothing was sent; call " + tool + " again with what the user should confirm"
	}
	return envelope.New(envelope.PermissionDenied, "%s", msg).WithDetail("limit", "confirmation").WithRetryable(false)
}
