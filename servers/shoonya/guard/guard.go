// Package guard holds the account-level guards checked before an order is
// sent: the trading mode and its kill switch, orders and notional value per
// trading day, a duplicate window, and a freeze after broker rejections in a
// row. Their counters live in the shared state (package kv), so every replica
// and every restart sees the same day. A guard is lifted only by a person:
// through the server's `trading` command or the confirmation page, never by a
// tool the model can call.
package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
)

// Mode is what orders do (SHOONYA_TRADING).
type Mode string

const (
	Live   Mode = "live"   // orders go to the broker
	Paper  Mode = "paper"  // orders fill in the paper book; nothing is sent
	Halted Mode = "halted" // no order is placed or modified (cancels still go)
)

// Env names of the guards.
const (
	EnvTrading         = "SHOONYA_TRADING"
	EnvMaxOrdersPerDay = "SHOONYA_MAX_ORDERS_PER_DAY"
	EnvMaxDayValue     = "SHOONYA_MAX_DAY_VALUE"
	EnvDuplicateWindow = "SHOONYA_DUPLICATE_WINDOW"
	EnvMaxRejections   = "SHOONYA_MAX_REJECTIONS"
)

// Config are the guards' settings; 0 turns a number off.
type Config struct {
	Mode            Mode
	MaxOrdersPerDay int
	MaxDayValue     float64 // rupees placed today (quantity × price)
	DuplicateWindow time.Duration
	MaxRejections   int
}

// Defaults are deliberately conservative, like the per-order limits.
func Defaults() Config {
	return Config{Mode: Live, MaxOrdersPerDay: 100, MaxDayValue: 1000000, DuplicateWindow: time.Minute, MaxRejections: 3}
}

// FromEnv reads the guards' settings.
func FromEnv() (Config, error) {
	c := Defaults()
	if v := strings.ToLower(strings.TrimSpace(os.Getenv(EnvTrading))); v != "" {
		switch Mode(v) {
		case Live, Paper, Halted:
			c.Mode = Mode(v)
		default:
			return c, fmt.Errorf("%s must be live, paper or halted, not %q", EnvTrading, v)
		}
	}
	for _, x := range []struct {
		env string
		dst *int
	}{{EnvMaxOrdersPerDay, &c.MaxOrdersPerDay}, {EnvMaxRejections, &c.MaxRejections}} {
		if v := os.Getenv(x.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return c, fmt.Errorf("%s must be a whole number ≥ 0 (0 = no limit)", x.env)
			}
			*x.dst = n
		}
	}
	if v := os.Getenv(EnvMaxDayValue); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 {
			return c, fmt.Errorf("%s must be a number of rupees ≥ 0 (0 = no limit)", EnvMaxDayValue)
		}
		c.MaxDayValue = f
	}
	if v := os.Getenv(EnvDuplicateWindow); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return c, fmt.Errorf("%s must be a duration like 60s (0 = off), not %q", EnvDuplicateWindow, v)
		}
		c.DuplicateWindow = d
	}
	return c, nil
}

// Order is what the guards look at.
type Order struct {
	Key   string // idempotency key
	Exch  string
	TSym  string
	Side  string // B or S
	Qty   int
	Value float64 // quantity × price; 0 when not known yet
}

func (o Order) same(e Entry) bool {
	return strings.EqualFold(o.Exch, e.Exch) && strings.EqualFold(o.TSym, e.TSym) && o.Side == e.Side && o.Qty == e.Qty
}

// Entry is an order recorded by the guards.
type Entry struct {
	Key     string    `json:"key"`
	Exch    string    `json:"exch"`
	TSym    string    `json:"tsym"`
	Side    string    `json:"side"`
	Qty     int       `json:"qty"`
	Value   float64   `json:"value"`
	At      time.Time `json:"at"`
	OrderNo string    `json:"order_no,omitempty"` // set once the broker (or the paper book) accepted it
}

type day struct {
	Orders int     `json:"orders"`
	Value  float64 `json:"value"`
}

type streak struct {
	Rejections int    `json:"rejections"`
	Last       string `json:"last,omitempty"` // the last broker message
}

// HaltState is a person's halt, kept in the shared state.
type HaltState struct {
	By     string    `json:"by"`
	Reason string    `json:"reason,omitempty"`
	At     time.Time `json:"at"`
}

// Guard checks and records orders.
type Guard struct {
	Config
	State kv.State
	Now   func() time.Time
	// Command is how a person runs the server's trading command, for the
	// refusals ("shoonya trading resume").
	Command string
}

// New makes a guard over st.
func New(c Config, st kv.State, now func() time.Time) *Guard {
	if now == nil {
		now = time.Now
	}
	return &Guard{Config: c, State: st, Now: now, Command: "shoonya trading"}
}

var ist = time.FixedZone("IST", 5*3600+1800)

func dayKey(user string, t time.Time) string {
	return "guard:day:" + user + ":" + t.In(ist).Format("2006-01-02")
}
func recentKey(user string) string { return "guard:recent:" + user }
func streakKey(user string) string { return "guard:streak:" + user }

const haltKey = "guard:halt"

// Refusal builds the error of a guard: its name, its value and how a person lifts it.
func Refusal(name, setting string, value any, lift, format string, args ...any) *envelope.Error {
	return envelope.New(envelope.PermissionDenied, "refused by the account guard %s (%s=%v): %s; nothing was sent. To lift it a person must %s",
		name, setting, value, fmt.Sprintf(format, args...), lift).
		WithDetail("guard", name).WithDetail("setting", setting).WithDetail("value", value).WithDetail("lift", lift).WithRetryable(false)
}

func (g *Guard) stateErr(err error) error {
	if ce, ok := err.(*envelope.Error); ok {
		return ce
	}
	return envelope.New(envelope.UpstreamUnavailable, "the order guards' state (%s) did not answer, so nothing was sent; try again shortly", g.State.Where()).
		WithRetryable(true).WithRetryAfter(2 * time.Second).WithCause(err)
}

// Mode is the trading mode in force: a person's halt wins over SHOONYA_TRADING.
func (g *Guard) Effective(ctx context.Context) (Mode, *HaltState, error) {
	if g.Mode == Halted {
		return Halted, &HaltState{By: EnvTrading + "=halted"}, nil
	}
	b, err := g.State.Get(ctx, haltKey)
	if err != nil {
		return "", nil, g.stateErr(err)
	}
	if b != nil {
		var h HaltState
		if json.Unmarshal(b, &h) == nil {
			return Halted, &h, nil
		}
	}
	return g.Mode, nil, nil
}

// CheckTrading refuses when trading is halted or the account is frozen.
func (g *Guard) CheckTrading(ctx context.Context, user string) error {
	m, h, err := g.Effective(ctx)
	if err != nil {
		return err
	}
	if m == Halted {
		if h.By == EnvTrading+"=halted" {
			return Refusal("kill_switch", EnvTrading, "halted", "set "+EnvTrading+"=live (or paper) and restart the server", "trading is halted by the server's configuration")
		}
		why := "trading was halted by " + h.By
		if h.Reason != "" {
			why += " (" + h.Reason + ")"
		}
		return Refusal("kill_switch", EnvTrading, "halted", "run `"+g.Command+" resume` on the server's host", "%s at %s", why, h.At.In(ist).Format("15:04 IST"))
	}
	if g.MaxRejections <= 0 {
		return nil
	}
	b, err := g.State.Get(ctx, streakKey(user))
	if err != nil {
		return g.stateErr(err)
	}
	var s streak
	_ = json.Unmarshal(b, &s)
	if b != nil && s.Rejections >= g.MaxRejections {
		return Refusal("auto_freeze", EnvMaxRejections, g.MaxRejections, "check why the broker rejected them (get_order_book), then run `"+g.Command+" resume` on the server's host",
			"the broker rejected the last %d orders in a row (last: %q)", s.Rejections, s.Last)
	}
	return nil
}

// Check runs every guard on o without recording it; allowDuplicate is a
// person's yes to a second identical order. It returns the earlier order o
// repeats, if any (with allowDuplicate, not an error).
func (g *Guard) Check(ctx context.Context, user string, o Order, allowDuplicate bool) (*Entry, error) {
	if err := g.CheckTrading(ctx, user); err != nil {
		return nil, err
	}
	b, err := g.State.Get(ctx, dayKey(user, g.Now()))
	if err != nil {
		return nil, g.stateErr(err)
	}
	var d day
	_ = json.Unmarshal(b, &d)
	if err := g.checkDay(d, o); err != nil {
		return nil, err
	}
	b, err = g.State.Get(ctx, recentKey(user))
	if err != nil {
		return nil, g.stateErr(err)
	}
	return g.checkDuplicate(decodeRecent(b), o, allowDuplicate)
}

func (g *Guard) checkDay(d day, o Order) error {
	if g.MaxOrdersPerDay > 0 && d.Orders >= g.MaxOrdersPerDay {
		return Refusal("max_orders_per_day", EnvMaxOrdersPerDay, g.MaxOrdersPerDay, "raise "+EnvMaxOrdersPerDay+" and restart the server, or wait for the next trading day",
			"%d orders were already sent today", d.Orders)
	}
	if g.MaxDayValue > 0 && o.Value > 0 && d.Value+o.Value > g.MaxDayValue {
		return Refusal("max_day_value", EnvMaxDayValue, g.MaxDayValue, "raise "+EnvMaxDayValue+" and restart the server, or wait for the next trading day",
			"₹%.2f placed today + this order's ₹%.2f = ₹%.2f is over ₹%.2f (₹%.2f left)", d.Value, o.Value, d.Value+o.Value, g.MaxDayValue, max(0, g.MaxDayValue-d.Value))
	}
	return nil
}

// Repeat finds the order o repeats within the window (another key, same
// instrument, side and quantity), or nil.
func (g *Guard) repeat(recent []Entry, o Order) *Entry {
	if g.DuplicateWindow <= 0 {
		return nil
	}
	now := g.Now()
	for i := len(recent) - 1; i >= 0; i-- {
		e := recent[i]
		if e.Key != o.Key && o.same(e) && now.Sub(e.At) < g.DuplicateWindow {
			return &e
		}
	}
	return nil
}

func (g *Guard) checkDuplicate(recent []Entry, o Order, allow bool) (*Entry, error) {
	e := g.repeat(recent, o)
	if e == nil || allow {
		return e, nil
	}
	ago := g.Now().Sub(e.At).Round(time.Second)
	return e, Refusal("duplicate_window", EnvDuplicateWindow, g.DuplicateWindow.String(),
		"confirm it as a second order (the confirmation page or the client's prompt offers that), or wait until the window has passed",
		"the same order (%s %s %d %s) was sent %s ago with idempotency key %s; a new idempotency key does not make it a different order",
		sideName(o.Side), o.TSym, o.Qty, o.Exch, ago, e.Key).WithDetail("earlier_key", e.Key).WithDetail("earlier_order_id", e.OrderNo).
		WithRetryAfter(g.DuplicateWindow - g.Now().Sub(e.At))
}

func sideName(s string) string {
	if s == "S" {
		return "SELL"
	}
	return "BUY"
}

func decodeRecent(b []byte) []Entry {
	var r []Entry
	_ = json.Unmarshal(b, &r)
	return r
}

// Placed returns the recorded order with idempotency key key that the broker
// accepted, if any.
func (g *Guard) Placed(ctx context.Context, user, key string) (*Entry, error) {
	b, err := g.State.Get(ctx, recentKey(user))
	if err != nil {
		return nil, g.stateErr(err)
	}
	for _, e := range decodeRecent(b) {
		if e.Key == key && e.OrderNo != "" {
			return &e, nil
		}
	}
	return nil, nil
}

// keep is how long recent orders are remembered: the duplicate window, and
// at least long enough to answer a late retry of the same key.
func (g *Guard) keep() time.Duration { return max(g.DuplicateWindow, 30*time.Minute) }

// Reserve checks o again and records it in one atomic step per counter,
// right before it is sent: concurrent calls on any replica cannot both pass
// a cap with one slot left.
func (g *Guard) Reserve(ctx context.Context, user string, o Order, allowDuplicate bool) error {
	if err := g.CheckTrading(ctx, user); err != nil {
		return err
	}
	now := g.Now()
	if err := g.State.Update(ctx, recentKey(user), g.keep(), func(cur []byte) ([]byte, error) {
		r := prune(decodeRecent(cur), now, g.keep())
		if _, err := g.checkDuplicate(r, o, allowDuplicate); err != nil {
			return nil, err
		}
		return json.Marshal(append(r, Entry{Key: o.Key, Exch: o.Exch, TSym: o.TSym, Side: o.Side, Qty: o.Qty, Value: o.Value, At: now}))
	}); err != nil {
		return g.stateErr(err)
	}
	err := g.State.Update(ctx, dayKey(user, now), 48*time.Hour, func(cur []byte) ([]byte, error) {
		var d day
		_ = json.Unmarshal(cur, &d)
		if err := g.checkDay(d, o); err != nil {
			return nil, err
		}
		d.Orders++
		d.Value += o.Value
		return json.Marshal(d)
	})
	if err != nil {
		g.forget(ctx, user, o.Key, now)
		return g.stateErr(err)
	}
	return nil
}

func prune(r []Entry, now time.Time, keep time.Duration) []Entry {
	out := r[:0]
	for _, e := range r {
		if now.Sub(e.At) < keep {
			out = append(out, e)
		}
	}
	return out
}

// forget drops the pending record of key made at at (a refused or rejected order).
func (g *Guard) forget(ctx context.Context, user, key string, at time.Time) {
	_ = g.State.Update(ctx, recentKey(user), g.keep(), func(cur []byte) ([]byte, error) {
		r := decodeRecent(cur)
		out := r[:0]
		for _, e := range r {
			if !(e.Key == key && e.OrderNo == "") {
				out = append(out, e)
			}
		}
		return json.Marshal(out)
	})
}

// Accepted records that the order with key was accepted as orderNo and ends
// a run of rejections.
func (g *Guard) Accepted(ctx context.Context, user, key, orderNo string) {
	_ = g.State.Update(ctx, recentKey(user), g.keep(), func(cur []byte) ([]byte, error) {
		r := decodeRecent(cur)
		for i := range r {
			if r[i].Key == key && r[i].OrderNo == "" {
				r[i].OrderNo = orderNo
			}
		}
		return json.Marshal(r)
	})
	_ = g.State.Update(ctx, streakKey(user), 0, func([]byte) ([]byte, error) { return nil, nil })
}

// Rejected records a broker rejection of the order with key (value is
// taken back from the day's total; the order still counts as sent) and
// freezes the account after MaxRejections in a row.
func (g *Guard) Rejected(ctx context.Context, user, key string, value float64, brokerMessage string) {
	g.Released(ctx, user, key, value)
	_ = g.State.Update(ctx, streakKey(user), 7*24*time.Hour, func(cur []byte) ([]byte, error) {
		var s streak
		_ = json.Unmarshal(cur, &s)
		s.Rejections++
		s.Last = brokerMessage
		return json.Marshal(s)
	})
}

// Released takes back the record of an order that was not placed (the
// request failed before the broker took it): its value leaves the day's
// total, it no longer counts as a duplicate; it still counts as sent.
func (g *Guard) Released(ctx context.Context, user, key string, value float64) {
	now := g.Now()
	g.forget(ctx, user, key, now)
	_ = g.State.Update(ctx, dayKey(user, now), 48*time.Hour, func(cur []byte) ([]byte, error) {
		var d day
		_ = json.Unmarshal(cur, &d)
		d.Value = max(0, d.Value-value)
		return json.Marshal(d)
	})
}

// AddValue changes the day's notional by delta, atomically: a modification
// that makes an open order bigger (more quantity or a higher price) spends
// SHOONYA_MAX_DAY_VALUE as a new order would, so raising the quantity of a
// small order cannot walk past the cap; a negative delta gives value back.
func (g *Guard) AddValue(ctx context.Context, user string, delta float64) error {
	if delta == 0 {
		return nil
	}
	err := g.State.Update(ctx, dayKey(user, g.Now()), 48*time.Hour, func(cur []byte) ([]byte, error) {
		var d day
		_ = json.Unmarshal(cur, &d)
		if delta > 0 && g.MaxDayValue > 0 && d.Value+delta > g.MaxDayValue {
			return nil, Refusal("max_day_value", EnvMaxDayValue, g.MaxDayValue, "raise "+EnvMaxDayValue+" and restart the server, or wait for the next trading day",
				"₹%.2f placed today + this change's ₹%.2f = ₹%.2f is over ₹%.2f (₹%.2f left)", d.Value, delta, d.Value+delta, g.MaxDayValue, max(0, g.MaxDayValue-d.Value))
		}
		d.Value = max(0, d.Value+delta)
		return json.Marshal(d)
	})
	if err != nil {
		return g.stateErr(err)
	}
	return nil
}

// Halt stops all trading until Resume (a person's kill switch).
func (g *Guard) Halt(ctx context.Context, by, reason string) error {
	return g.State.Update(ctx, haltKey, 0, func([]byte) ([]byte, error) {
		return json.Marshal(HaltState{By: by, Reason: reason, At: g.Now()})
	})
}

// Resume lifts a person's halt and, for user ("" = only the halt), the
// freeze after rejections.
func (g *Guard) Resume(ctx context.Context, user string) error {
	if err := g.State.Update(ctx, haltKey, 0, func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		return err
	}
	if user == "" {
		return nil
	}
	return g.State.Update(ctx, streakKey(user), 0, func([]byte) ([]byte, error) { return nil, nil })
}

// Status is what the trading command prints.
type Status struct {
	Mode       Mode       `json:"mode"`
	Halt       *HaltState `json:"halt,omitempty"`
	Orders     int        `json:"orders_today"`
	Value      float64    `json:"value_today"`
	Rejections int        `json:"rejections_in_a_row"`
	Frozen     bool       `json:"frozen"`
}

// StatusOf reads user's guard state.
func (g *Guard) StatusOf(ctx context.Context, user string) (Status, error) {
	m, h, err := g.Effective(ctx)
	if err != nil {
		return Status{}, err
	}
	st := Status{Mode: m, Halt: h}
	b, err := g.State.Get(ctx, dayKey(user, g.Now()))
	if err != nil {
		return st, err
	}
	var d day
	_ = json.Unmarshal(b, &d)
	st.Orders, st.Value = d.Orders, d.Value
	b, err = g.State.Get(ctx, streakKey(user))
	if err != nil {
		return st, err
	}
	var s streak
	_ = json.Unmarshal(b, &s)
	st.Rejections, st.Frozen = s.Rejections, g.MaxRejections > 0 && s.Rejections >= g.MaxRejections
	return st, nil
}
