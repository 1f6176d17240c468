// Package paper is the paper-trading book (SHOONYA_TRADING=paper): orders
// fill against live quotes and are kept in the shared state (package kv), so
// every replica and restart sees the same book; nothing reaches the broker's
// order routes. Limit orders fill when the quote crosses their price (at the
// quote, which is never worse than the limit); stop orders wait for the
// quote to cross their trigger, then work as limits. A day's book is kept
// per user and trading day (IST).
package paper

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
)

// Statuses as get_order_book shows them.
const (
	Open           = "OPEN"
	TriggerPending = "TRIGGER_PENDING"
	Complete       = "COMPLETE"
	Canceled       = "CANCELED"
)

// Order is one paper order; codes are Noren's (B/S, LMT/SL-LMT, C/I/M...).
type Order struct {
	ID        string    `json:"id"`
	Key       string    `json:"key"`
	Exch      string    `json:"exch"`
	TSym      string    `json:"tsym"`
	Token     string    `json:"token,omitempty"`
	Side      string    `json:"side"`
	Product   string    `json:"product"`
	PriceType string    `json:"price_type"`
	Qty       int       `json:"qty"`
	Price     float64   `json:"price"`
	Trigger   float64   `json:"trigger,omitempty"`
	Validity  string    `json:"validity,omitempty"`
	Status    string    `json:"status"`
	Filled    int       `json:"filled"`
	AvgPrice  float64   `json:"avg_price,omitempty"`
	Placed    time.Time `json:"placed"`
	Triggered bool      `json:"triggered,omitempty"`
}

// Trade is one paper fill.
type Trade struct {
	ID      string    `json:"id"`
	OrderID string    `json:"order_id"`
	Exch    string    `json:"exch"`
	TSym    string    `json:"tsym"`
	Token   string    `json:"token,omitempty"`
	Side    string    `json:"side"`
	Product string    `json:"product"`
	Qty     int       `json:"qty"`
	Price   float64   `json:"price"`
	At      time.Time `json:"at"`
}

// Ledger is a user's paper day.
type Ledger struct {
	Seq    int     `json:"seq"`
	Orders []Order `json:"orders"`
	Trades []Trade `json:"trades"`
}

// Book keeps the ledgers.
type Book struct {
	State kv.State
	Now   func() time.Time
}

var ist = time.FixedZone("IST", 5*3600+1800)

func (b *Book) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

func (b *Book) key(user string) string {
	return "paper:" + user + ":" + b.now().In(ist).Format("2006-01-02")
}

func (b *Book) stateErr(err error) error {
	if e, ok := err.(*envelope.Error); ok {
		return e
	}
	return envelope.New(envelope.UpstreamUnavailable, "the paper book (%s) did not answer; try again shortly", b.State.Where()).
		WithRetryable(true).WithCause(err)
}

// Read returns user's ledger for today.
func (b *Book) Read(ctx context.Context, user string) (Ledger, error) {
	raw, err := b.State.Get(ctx, b.key(user))
	if err != nil {
		return Ledger{}, b.stateErr(err)
	}
	var l Ledger
	_ = json.Unmarshal(raw, &l)
	return l, nil
}

func (b *Book) update(ctx context.Context, user string, fn func(l *Ledger) error) (Ledger, error) {
	var out Ledger
	err := b.State.Update(ctx, b.key(user), 72*time.Hour, func(cur []byte) ([]byte, error) {
		var l Ledger
		_ = json.Unmarshal(cur, &l)
		if err := fn(&l); err != nil {
			return nil, err
		}
		out = l
		return json.Marshal(l)
	})
	if err != nil {
		return Ledger{}, b.stateErr(err)
	}
	return out, nil
}

// ByKey finds the order placed with idempotency key key.
func (l Ledger) ByKey(key string) *Order {
	for i := range l.Orders {
		if l.Orders[i].Key == key {
			return &l.Orders[i]
		}
	}
	return nil
}

func (l Ledger) byID(id string) int {
	for i := range l.Orders {
		if l.Orders[i].ID == id {
			return i
		}
	}
	return -1
}

// Place books o (once per key: a second call with o.Key returns the first
// order, placed false) and fills it against quote when it crosses.
func (b *Book) Place(ctx context.Context, user string, o Order, quote float64) (Order, bool, error) {
	var got Order
	placed := false
	_, err := b.update(ctx, user, func(l *Ledger) error {
		if prev := l.ByKey(o.Key); prev != nil && o.Key != "" {
			got = *prev
			return nil
		}
		l.Seq++
		o.ID = "P" + b.now().In(ist).Format("060102") + fmt.Sprintf("%06d", l.Seq)
		o.Placed = b.now()
		o.Status = Open
		if isStop(o.PriceType) {
			o.Status = TriggerPending
		}
		l.Orders = append(l.Orders, o)
		b.match(l, len(l.Orders)-1, quote)
		got, placed = l.Orders[len(l.Orders)-1], true
		return nil
	})
	return got, placed, err
}

func isStop(pt string) bool { return pt == "SL-LMT" || pt == "SL-MKT" }

// match fills order i of l against quote when it crosses: a stop order
// triggers when the quote reaches its trigger, then works as a limit.
func (b *Book) match(l *Ledger, i int, quote float64) {
	o := &l.Orders[i]
	if quote <= 0 || (o.Status != Open && o.Status != TriggerPending) {
		return
	}
	buy := o.Side == "B"
	if o.Status == TriggerPending {
		if (buy && quote < o.Trigger) || (!buy && quote > o.Trigger) {
			return
		}
		o.Status, o.Triggered = Open, true
	}
	if (buy && quote > o.Price) || (!buy && quote < o.Price) {
		return // the limit is not reached
	}
	qty := o.Qty - o.Filled
	l.Trades = append(l.Trades, Trade{ID: o.ID + "-" + strconv.Itoa(len(l.Trades)+1), OrderID: o.ID, Exch: o.Exch, TSym: o.TSym, Token: o.Token,
		Side: o.Side, Product: o.Product, Qty: qty, Price: quote, At: b.now()})
	o.AvgPrice = round2((o.AvgPrice*float64(o.Filled) + quote*float64(qty)) / float64(o.Filled+qty))
	o.Filled, o.Status = o.Qty, Complete
}

// Sweep fills the open orders whose quote crossed; quotes maps exch|tsym to
// the last price (missing: left open).
func (b *Book) Sweep(ctx context.Context, user string, quotes map[string]float64) (Ledger, error) {
	return b.update(ctx, user, func(l *Ledger) error {
		for i := range l.Orders {
			if q, ok := quotes[l.Orders[i].Exch+"|"+l.Orders[i].TSym]; ok {
				b.match(l, i, q)
			}
		}
		return nil
	})
}

// Modify changes an open order (quantity as the new total, type, prices)
// and matches it against quote.
func (b *Book) Modify(ctx context.Context, user, id string, qty int, priceType string, price, trigger, quote float64) (Order, error) {
	var got Order
	_, err := b.update(ctx, user, func(l *Ledger) error {
		i := l.byID(id)
		if i < 0 {
			return envelope.New(envelope.NotFound, "no paper order %s today; get_order_book lists the paper orders", id)
		}
		o := &l.Orders[i]
		if o.Status != Open && o.Status != TriggerPending {
			return envelope.New(envelope.Conflict, "paper order %s is %s; only open orders can be modified", id, o.Status).WithDetail("status", o.Status)
		}
		o.Qty, o.PriceType, o.Price, o.Trigger = qty, priceType, price, trigger
		o.Status = Open
		if isStop(priceType) && !o.Triggered {
			o.Status = TriggerPending
		}
		b.match(l, i, quote)
		got = *o
		return nil
	})
	return got, err
}

// Cancel cancels an open order.
func (b *Book) Cancel(ctx context.Context, user, id string) (Order, error) {
	var got Order
	_, err := b.update(ctx, user, func(l *Ledger) error {
		i := l.byID(id)
		if i < 0 {
			return envelope.New(envelope.NotFound, "no paper order %s today; get_order_book lists the paper orders", id)
		}
		o := &l.Orders[i]
		if o.Status != Open && o.Status != TriggerPending {
			return envelope.New(envelope.Conflict, "paper order %s is %s; nothing to cancel (get_order_book shows it)", id, o.Status).WithDetail("status", o.Status)
		}
		o.Status = Canceled
		got = *o
		return nil
	})
	return got, err
}

// Position is a net position built from the fills.
type Position struct {
	Exch, TSym, Token, Product string
	BuyQty, SellQty            int
	BuyAvg, SellAvg            float64
	Net                        int
	NetAvg                     float64 // average price of the open quantity
	Realised                   float64
}

// Positions nets l's fills per instrument and product (FIFO-free average
// cost: realised P&L on the closed quantity at the average buy and sell prices).
func (l Ledger) Positions() []Position {
	idx := map[string]*Position{}
	var order []string
	for _, t := range l.Trades {
		k := t.Exch + "|" + t.TSym + "|" + t.Product
		p := idx[k]
		if p == nil {
			p = &Position{Exch: t.Exch, TSym: t.TSym, Token: t.Token, Product: t.Product}
			idx[k] = p
			order = append(order, k)
		}
		if t.Side == "B" {
			p.BuyAvg = (p.BuyAvg*float64(p.BuyQty) + t.Price*float64(t.Qty)) / float64(p.BuyQty+t.Qty)
			p.BuyQty += t.Qty
		} else {
			p.SellAvg = (p.SellAvg*float64(p.SellQty) + t.Price*float64(t.Qty)) / float64(p.SellQty+t.Qty)
			p.SellQty += t.Qty
		}
	}
	out := make([]Position, 0, len(order))
	for _, k := range order {
		p := idx[k]
		closed := min(p.BuyQty, p.SellQty)
		p.Realised = round2(float64(closed) * (p.SellAvg - p.BuyAvg))
		p.Net = p.BuyQty - p.SellQty
		switch {
		case p.Net > 0:
			p.NetAvg = p.BuyAvg
		case p.Net < 0:
			p.NetAvg = p.SellAvg
		}
		p.BuyAvg, p.SellAvg, p.NetAvg = round2(p.BuyAvg), round2(p.SellAvg), round2(p.NetAvg)
		out = append(out, *p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].TSym < out[j].TSym })
	return out
}

// Unrealised is the open quantity's P&L at ltp.
func (p Position) Unrealised(ltp float64) float64 {
	if ltp <= 0 || p.Net == 0 {
		return 0
	}
	return round2(float64(p.Net) * (ltp - p.NetAvg))
}

// PendingValue is the value of l's open orders.
func (l Ledger) PendingValue() float64 {
	v := 0.0
	for _, o := range l.Orders {
		if o.Status == Open || o.Status == TriggerPending {
			v += float64(o.Qty-o.Filled) * o.Price
		}
	}
	return round2(v)
}

func round2(v float64) float64 {
	r := math.Round(v*100) / 100
	if r == 0 {
		return 0
	}
	return r
}
