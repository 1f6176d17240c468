package feed

import (
	"math"
	"sort"
	"strconv"
	"sync"
	"time"
)

// Depth is how many levels a side of a quote shows.
const Depth = 5

// Quote is one asset's live state, merged from its events. Prices are
// 0..1 (a probability), sizes in shares; a nil price is one the socket has
// not sent yet (0 is a price).
type Quote struct {
	AssetID   string   `json:"token_id"`
	Market    string   `json:"condition_id,omitempty"`
	Outcome   string   `json:"outcome,omitempty"`
	BestBid   *float64 `json:"best_bid,omitempty"`
	BestAsk   *float64 `json:"best_ask,omitempty"`
	Mid       *float64 `json:"mid,omitempty"`
	Spread    *float64 `json:"spread,omitempty"`
	LastPrice *float64 `json:"last_trade_price,omitempty"`
	LastSide  string   `json:"last_trade_side,omitempty"`
	LastSize  *float64 `json:"last_trade_size,omitempty"`
	LastAt    string   `json:"last_trade_at,omitempty"`
	TickSize  *float64 `json:"tick_size,omitempty"`
	// Bids and Asks are the best Depth levels, best first: [price, size].
	Bids      [][2]float64 `json:"bids"`
	Asks      [][2]float64 `json:"asks"`
	Updates   int          `json:"updates"`
	UpdatedAt string       `json:"updated_at,omitempty"` // the socket's timestamp of the last event
	HaveBook  bool         `json:"have_book"`
}

// book is one asset's whole book and derived state.
type book struct {
	q    Quote
	bids map[float64]float64 // price → size
	asks map[float64]float64
}

// Store holds every subscribed asset's book; the socket's events merge in.
type Store struct {
	mu     sync.Mutex
	assets map[string]*book
}

// NewStore makes an empty store.
func NewStore() *Store { return &Store{assets: map[string]*book{}} }

// Track starts holding asset (its events are merged from now on).
func (s *Store) Track(asset string) {
	s.mu.Lock()
	if s.assets[asset] == nil {
		s.assets[asset] = &book{q: Quote{AssetID: asset}, bids: map[float64]float64{}, asks: map[float64]float64{}}
	}
	s.mu.Unlock()
}

// Label names a held asset's market and outcome (what the subscriber
// asked by); the socket's events fill the market in too.
func (s *Store) Label(asset, market, outcome string) {
	s.mu.Lock()
	if b := s.assets[asset]; b != nil {
		if market != "" {
			b.q.Market = market
		}
		if outcome != "" {
			b.q.Outcome = outcome
		}
	}
	s.mu.Unlock()
}

// Drop forgets asset.
func (s *Store) Drop(asset string) {
	s.mu.Lock()
	delete(s.assets, asset)
	s.mu.Unlock()
}

// Get is asset's quote.
func (s *Store) Get(asset string) (Quote, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.assets[asset]
	if !ok {
		return Quote{}, false
	}
	return b.snapshot(), true
}

// ByMarket is every held asset of a condition id.
func (s *Store) ByMarket(condition string) []Quote {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Quote
	for _, b := range s.assets {
		if b.q.Market == condition {
			out = append(out, b.snapshot())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].AssetID < out[j].AssetID })
	return out
}

// Apply merges one event and returns the assets it changed (with their
// market), held ones only.
func (s *Store) Apply(ev Event) (changed [][2]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	touch := func(asset string) *book {
		b := s.assets[asset]
		if b == nil {
			return nil
		}
		if ev.Market != "" {
			b.q.Market = ev.Market
		}
		if ev.Timestamp != "" {
			b.q.UpdatedAt = msTime(ev.Timestamp)
		}
		b.q.Updates++
		changed = append(changed, [2]string{asset, b.q.Market})
		return b
	}
	switch ev.EventType {
	case EventBook:
		if b := touch(ev.AssetID); b != nil {
			b.bids, b.asks = levelsOf(ev.Bids), levelsOf(ev.Asks)
			b.q.HaveBook = true
			b.q.BestBid, b.q.BestAsk = nil, nil // derived from the book below
		}
	case EventPriceChange:
		for _, c := range ev.Changes {
			b := touch(c.AssetID)
			if b == nil {
				continue
			}
			p, ok1 := num(c.Price)
			sz, ok2 := num(c.Size)
			if ok1 && ok2 {
				side := b.bids
				if c.Side == "SELL" {
					side = b.asks
				}
				if sz == 0 {
					delete(side, p)
				} else {
					side[p] = sz
				}
			}
			b.q.BestBid, b.q.BestAsk = ptr(c.BestBid), ptr(c.BestAsk)
		}
	case EventLastTrade:
		if b := touch(ev.AssetID); b != nil {
			b.q.LastPrice, b.q.LastSize, b.q.LastSide = ptr(ev.Price), ptr(ev.Size), ev.Side
			b.q.LastAt = msTime(ev.Timestamp)
		}
	case EventTickSize:
		if b := touch(ev.AssetID); b != nil {
			b.q.TickSize = ptr(ev.NewTickSize)
		}
	}
	return changed
}

// snapshot derives the quote's levels and prices from the book.
func (b *book) snapshot() Quote {
	q := b.q
	q.Bids, q.Asks = top(b.bids, true), top(b.asks, false)
	// price_change carries best_bid/best_ask itself (the docs' example);
	// after a book they come from its levels.
	if q.BestBid == nil && len(q.Bids) > 0 {
		q.BestBid = &q.Bids[0][0]
	}
	if q.BestAsk == nil && len(q.Asks) > 0 {
		q.BestAsk = &q.Asks[0][0]
	}
	if q.BestBid != nil && q.BestAsk != nil {
		mid, spread := round4((*q.BestBid+*q.BestAsk)/2), round4(*q.BestAsk-*q.BestBid)
		q.Mid, q.Spread = &mid, &spread
	}
	return q
}

func levelsOf(ls []Level) map[float64]float64 {
	m := make(map[float64]float64, len(ls))
	for _, l := range ls {
		p, ok1 := num(l.Price)
		sz, ok2 := num(l.Size)
		if ok1 && ok2 && sz > 0 {
			m[p] = sz
		}
	}
	return m
}

// top is a side's best Depth levels: bids highest first, asks lowest first
// (the socket's own order is not relied on).
func top(side map[float64]float64, bids bool) [][2]float64 {
	ps := make([]float64, 0, len(side))
	for p := range side {
		ps = append(ps, p)
	}
	sort.Float64s(ps)
	if bids {
		for i, j := 0, len(ps)-1; i < j; i, j = i+1, j-1 {
			ps[i], ps[j] = ps[j], ps[i]
		}
	}
	if len(ps) > Depth {
		ps = ps[:Depth]
	}
	out := make([][2]float64, 0, len(ps))
	for _, p := range ps {
		out = append(out, [2]float64{p, side[p]})
	}
	return out
}

func ptr(s string) *float64 {
	if f, ok := num(s); ok {
		return &f
	}
	return nil
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// msTime renders the socket's Unix-millisecond timestamp as RFC 3339.
func msTime(s string) string {
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ms <= 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}
