package feed

import (
	"math/bits"
	"sort"
	"strings"
	"sync"
	"time"
)

// Key is Noren's scrip key "EXCH|token".
func Key(exch, token string) string { return exch + "|" + token }

// inst is the merged state of one instrument.
type inst struct {
	exch, token string
	key         string // exch|token, kept to avoid building it per tick
	tsym, ltt   string
	has         uint64 // bit per slot: the field has been seen
	vals        [nFields]float64
	updated     int64 // unix nanos of the last merge
	ticks       uint64
}

// Store merges touchline and depth frames per exchange|token into snapshots.
// Noren's tf/df frames carry only the fields that changed (ShoonyaApi-py README,
// tests/test_websocket_feed.py, ShoonyaApi-py#164), so a snapshot is the union of everything seen.
type Store struct {
	mu    sync.RWMutex
	insts map[string]*inst
	now   func() int64 // unix nanos
	// OnUpdate is called (outside the lock) with the key of every merged frame.
	OnUpdate func(key string)
}

// NewStore makes an empty store.
func NewStore() *Store {
	return &Store{insts: make(map[string]*inst), now: func() int64 { return time.Now().UnixNano() }}
}

// UseClock makes the store stamp merges from c instead of time.Now.
func (s *Store) UseClock(c *CoarseClock) { s.now = c.UnixNano }

// Frame kinds the store merges.
func isFeedType(t string) bool {
	switch t {
	case "tk", "tf", "dk", "df":
		return true
	}
	return false
}

// Merge applies one decoded tick frame. It reports the key and whether the
// frame was a tick for a known exchange|token (frames for instruments no longer
// tracked are dropped: an unsubscribe may race with ticks in flight).
func (s *Store) Merge(m *Msg) (string, bool) {
	if !isFeedType(m.T) || m.E == "" || m.TK == "" {
		return "", false
	}
	var buf [64]byte
	k := append(append(append(buf[:0], m.E...), '|'), m.TK...)
	now := s.now()
	s.mu.Lock()
	in := s.insts[string(k)]
	if in == nil {
		s.mu.Unlock()
		return "", false
	}
	for has := m.has; has != 0; has &= has - 1 {
		slot := bits.TrailingZeros64(has)
		in.vals[slot] = m.vals[slot]
	}
	in.has |= m.has
	if m.TS != "" {
		in.tsym = m.TS
	}
	if m.LTT != "" {
		in.ltt = m.LTT
	}
	in.updated = now
	in.ticks++
	key := in.key
	s.mu.Unlock()
	if s.OnUpdate != nil {
		s.OnUpdate(key)
	}
	return key, true
}

// Track starts keeping a snapshot for exch|token (idempotent).
func (s *Store) Track(exch, token string) {
	k := Key(exch, token)
	s.mu.Lock()
	if s.insts[k] == nil {
		s.insts[k] = &inst{exch: exch, token: token, key: k}
	}
	s.mu.Unlock()
}

// Untrack forgets exch|token.
func (s *Store) Untrack(exch, token string) {
	s.mu.Lock()
	delete(s.insts, Key(exch, token))
	s.mu.Unlock()
}

// Tracked lists the keys being kept, sorted.
func (s *Store) Tracked() []string {
	s.mu.RLock()
	out := make([]string, 0, len(s.insts))
	for k := range s.insts {
		out = append(out, k)
	}
	s.mu.RUnlock()
	sort.Strings(out)
	return out
}

// Snapshot returns one instrument's merged state.
func (s *Store) Snapshot(exch, token string) (Tick, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	in := s.insts[Key(exch, token)]
	if in == nil {
		return Tick{}, false
	}
	return in.tick(), true
}

// All returns every tracked instrument's merged state, sorted by key.
func (s *Store) All() []Tick {
	s.mu.RLock()
	out := make([]Tick, 0, len(s.insts))
	for _, in := range s.insts {
		out = append(out, in.tick())
	}
	s.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Exchange != out[j].Exchange {
			return out[i].Exchange < out[j].Exchange
		}
		return out[i].Token < out[j].Token
	})
	return out
}

// Level is one depth level.
type Level struct {
	Price    float64 `json:"price"`
	Quantity float64 `json:"quantity"`
	Orders   float64 `json:"orders,omitempty"`
}

// Tick is the readable snapshot of one instrument. Pointer fields are absent
// until the feed has sent them.
type Tick struct {
	Exchange      string   `json:"exchange"`
	Token         string   `json:"token"`
	TradingSymbol string   `json:"trading_symbol,omitempty"`
	LastPrice     *float64 `json:"last_price,omitempty"`
	ChangePct     *float64 `json:"change_percent,omitempty"`
	Open          *float64 `json:"open,omitempty"`
	High          *float64 `json:"high,omitempty"`
	Low           *float64 `json:"low,omitempty"`
	Close         *float64 `json:"close,omitempty"`
	AvgPrice      *float64 `json:"average_price,omitempty"`
	Volume        *float64 `json:"volume,omitempty"`
	OpenInterest  *float64 `json:"open_interest,omitempty"`
	LastTradeQty  *float64 `json:"last_trade_quantity,omitempty"`
	LastTradeTime string   `json:"last_trade_time,omitempty"`
	TotalBuyQty   *float64 `json:"total_buy_quantity,omitempty"`
	TotalSellQty  *float64 `json:"total_sell_quantity,omitempty"`
	UpperCircuit  *float64 `json:"upper_circuit,omitempty"`
	LowerCircuit  *float64 `json:"lower_circuit,omitempty"`
	High52W       *float64 `json:"high_52_week,omitempty"`
	Low52W        *float64 `json:"low_52_week,omitempty"`
	Bids          []Level  `json:"bids,omitempty"`
	Asks          []Level  `json:"asks,omitempty"`
	Updated       string   `json:"updated_at,omitempty"`
	Ticks         uint64   `json:"ticks_received"`
}

func (in *inst) opt(slot int) *float64 {
	if in.has&(1<<slot) == 0 {
		return nil
	}
	v := in.vals[slot]
	return &v
}

func (in *inst) levels(price, qty, orders int) []Level {
	var out []Level
	for i := 0; i < 5; i++ {
		if in.has&(1<<(price+i)) == 0 && in.has&(1<<(qty+i)) == 0 {
			continue
		}
		out = append(out, Level{Price: in.vals[price+i], Quantity: in.vals[qty+i], Orders: in.vals[orders+i]})
	}
	return out
}

func (in *inst) tick() Tick {
	t := Tick{
		Exchange: in.exch, Token: in.token, TradingSymbol: in.tsym,
		LastPrice: in.opt(fLP), ChangePct: in.opt(fPC), Open: in.opt(fO), High: in.opt(fH), Low: in.opt(fL),
		Close: in.opt(fC), AvgPrice: in.opt(fAP), Volume: in.opt(fV), OpenInterest: in.opt(fOI),
		LastTradeQty: in.opt(fLTQ), LastTradeTime: in.ltt, TotalBuyQty: in.opt(fTBQ), TotalSellQty: in.opt(fTSQ),
		UpperCircuit: in.opt(fUC), LowerCircuit: in.opt(fLC), High52W: in.opt(f52H), Low52W: in.opt(f52L),
		Bids: in.levels(fBP1, fBQ1, fBO1), Asks: in.levels(fSP1, fSQ1, fSO1), Ticks: in.ticks,
	}
	if in.updated != 0 {
		t.Updated = time.Unix(0, in.updated).UTC().Format(time.RFC3339Nano)
	}
	return t
}

// SplitKey splits "EXCH|token".
func SplitKey(k string) (exch, token string, ok bool) {
	exch, token, ok = strings.Cut(k, "|")
	return exch, token, ok && exch != "" && token != ""
}
