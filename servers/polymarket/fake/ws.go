package fake

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// The CLOB market websocket, wss://ws-subscriptions-clob.polymarket.com/ws/market
// (source: docs.polymarket.com/market-data/websocket/market-channel and
// /overview; docs.polymarket.com/asyncapi.json): the client opens with
// {"type":"market","assets_ids":[…]} and changes the set with
// {"assets_ids":[…],"operation":"subscribe"|"unsubscribe"}; the server sends a
// book for each asset on subscribe, then price_change (price_changes[] with
// best_bid/best_ask, one entry per side of the market), last_trade_price and
// tick_size_change; the text PING is answered PONG. The first books come as
// one JSON array (third-party: Polymarket/py-clob-client threads; the docs
// show single objects, which the later events are). An unknown token id
// gets no events (assumed: the docs say nothing of it).

// wsState is the fake's open market sockets.
type wsState struct {
	mu       sync.Mutex
	conns    map[*wsConn]struct{}
	connects atomic.Int64
}

type wsConn struct {
	c      *websocket.Conn
	cancel context.CancelFunc
	mu     sync.Mutex
	assets map[string]bool
}

// wsTick is how often the fake's socket sends a round of events.
const wsTick = 40 * time.Millisecond

// DropSockets closes every open market socket abruptly, as a network drop
// or a server restart does.
func (s *Server) DropSockets() {
	s.ws.mu.Lock()
	defer s.ws.mu.Unlock()
	for c := range s.ws.conns {
		c.cancel()
		_ = c.c.CloseNow()
	}
}

// Sockets is the number of open market sockets; SocketConnects counts every
// one ever opened.
func (s *Server) Sockets() int {
	s.ws.mu.Lock()
	defer s.ws.mu.Unlock()
	return len(s.ws.conns)
}

// SocketConnects counts the market sockets opened.
func (s *Server) SocketConnects() int { return int(s.ws.connects.Load()) }

// TickSizeChange sends a tick_size_change for token to every socket
// subscribed to it (the CLOB sends one as a price nears 0 or 1).
func (s *Server) TickSizeChange(token, old, new string) {
	m := s.byToken[token]
	if m == nil {
		return
	}
	ev := map[string]any{"event_type": "tick_size_change", "asset_id": token, "market": m.condition,
		"old_tick_size": old, "new_tick_size": new, "timestamp": s.ms()}
	s.ws.mu.Lock()
	conns := make([]*wsConn, 0, len(s.ws.conns))
	for c := range s.ws.conns {
		conns = append(conns, c)
	}
	s.ws.mu.Unlock()
	for _, c := range conns {
		c.mu.Lock()
		has := c.assets[token]
		c.mu.Unlock()
		if has {
			_ = writeWS(c.c, ev)
		}
	}
}

func (s *Server) ms() string { return strconv.FormatInt(s.o.Now().UnixMilli(), 10) }

// marketSocket serves GET /ws/market.
func (s *Server) marketSocket(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	wc := &wsConn{c: c, cancel: cancel, assets: map[string]bool{}}
	s.ws.connects.Add(1)
	s.ws.mu.Lock()
	if s.ws.conns == nil {
		s.ws.conns = map[*wsConn]struct{}{}
	}
	s.ws.conns[wc] = struct{}{}
	s.ws.mu.Unlock()
	defer func() {
		cancel()
		_ = c.CloseNow()
		s.ws.mu.Lock()
		delete(s.ws.conns, wc)
		s.ws.mu.Unlock()
	}()
	go s.wsTicks(ctx, wc)
	for {
		typ, b, err := c.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		if strings.TrimSpace(string(b)) == "PING" {
			_ = c.Write(ctx, websocket.MessageText, []byte("PONG"))
			continue
		}
		var m struct {
			Type      string   `json:"type"`
			Assets    []string `json:"assets_ids"`
			Operation string   `json:"operation"`
		}
		if json.Unmarshal(b, &m) != nil {
			continue // assumed: the real socket ignores what it cannot read
		}
		switch {
		case strings.EqualFold(m.Type, "market") || m.Operation == "subscribe":
			var books []any
			wc.mu.Lock()
			for _, a := range m.Assets {
				if mk := s.byToken[a]; mk != nil && !wc.assets[a] {
					wc.assets[a] = true
					books = append(books, s.wsBook(mk, a))
				}
			}
			wc.mu.Unlock()
			if len(books) > 0 {
				_ = writeWS(c, books)
			}
		case m.Operation == "unsubscribe":
			wc.mu.Lock()
			for _, a := range m.Assets {
				delete(wc.assets, a)
			}
			wc.mu.Unlock()
		}
	}
}

// wsBook is a book event: the REST book's levels with event_type.
func (s *Server) wsBook(m *market, token string) map[string]any {
	b := s.bookJSON(m, token, false)
	return map[string]any{"event_type": "book", "asset_id": token, "market": m.condition,
		"bids": b["bids"], "asks": b["asks"], "timestamp": b["timestamp"], "hash": b["hash"]}
}

// wsTicks sends, each round, a price_change per subscribed market (the best
// bid's size moving; prices stay within [tick, 1−tick]) and every third
// round a last_trade_price at the best ask.
func (s *Server) wsTicks(ctx context.Context, wc *wsConn) {
	t := time.NewTicker(wsTick)
	defer t.Stop()
	for round := 1; ; round++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		wc.mu.Lock()
		byMarket := map[*market][]string{}
		for a := range wc.assets {
			m := s.byToken[a]
			byMarket[m] = append(byMarket[m], a)
		}
		wc.mu.Unlock()
		for m, toks := range byMarket {
			sort.Strings(toks)
			changes := make([]map[string]string, 0, len(toks))
			for _, tok := range toks {
				p := tokenPrice(m, tok)
				bid, ask := round2(p-tick), p
				changes = append(changes, map[string]string{"asset_id": tok, "price": f2(bid),
					"size": strconv.Itoa(100 + round%50), "side": "BUY", "hash": "56621a121a47ed9333273e21c83b660cff37ae50",
					"best_bid": f2(bid), "best_ask": f2(ask)})
			}
			if writeWS(wc.c, map[string]any{"event_type": "price_change", "market": m.condition,
				"price_changes": changes, "timestamp": s.ms()}) != nil {
				return
			}
			if round%3 == 0 {
				tok := toks[0]
				// fields as published captures show them (third-party: asset_id, event_type,
				// fee_rate_bps, market, price, side, size, timestamp, transaction_hash)
				_ = writeWS(wc.c, map[string]any{"event_type": "last_trade_price", "asset_id": tok, "market": m.condition,
					"price": f2(tokenPrice(m, tok)), "side": "BUY", "size": "10", "fee_rate_bps": "0",
					"timestamp": s.ms(), "transaction_hash": "0x" + strings.Repeat("ab", 32)})
			}
		}
	}
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }

func writeWS(c *websocket.Conn, v any) error {
	b, _ := json.Marshal(v)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return c.Write(ctx, websocket.MessageText, b)
}
