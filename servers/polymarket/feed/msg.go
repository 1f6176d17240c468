// Package feed reads Polymarket's public CLOB market websocket
// (wss://ws-subscriptions-clob.polymarket.com/ws/market) into per-asset
// quotes, and serves them as MCP resources a client subscribes to.
//
// Wire format (source: docs.polymarket.com/market-data/websocket/market-channel
// and market-data/websocket/overview; docs.polymarket.com/asyncapi.json):
//   - the client opens with {"type":"market","assets_ids":[token ids]} and
//     changes the set with {"assets_ids":[…],"operation":"subscribe"|"unsubscribe"};
//   - every event names its event_type: book (a whole book, on subscribe and
//     after a trade), price_change (price_changes[] of {asset_id, price, size,
//     side, hash, best_bid, best_ask}), last_trade_price, tick_size_change
//     (the custom-feature events best_bid_ask, new_market and market_resolved
//     need custom_feature_enabled, which this client does not ask for);
//   - prices, sizes and timestamps (Unix milliseconds) are decimal strings;
//   - the client keeps the socket open with the text PING, answered PONG.
//
// Third-party only (no official page says it): a frame may hold a JSON array
// of events (the first books arrive so: Polymarket/py-clob-client issue
// threads and polyoxide's market.rs handle both), and one socket carries at
// most 500 assets (docs.polymarket.com glossary pages of third parties;
// assumed here as the cap).
package feed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Level is one book level as the socket sends it.
type Level struct {
	Price string `json:"price"`
	Size  string `json:"size"`
}

// Change is one entry of a price_change's price_changes.
type Change struct {
	AssetID string `json:"asset_id"`
	Price   string `json:"price"`
	Size    string `json:"size"`
	Side    string `json:"side"` // BUY (a bid level) or SELL (an ask level)
	Hash    string `json:"hash"`
	BestBid string `json:"best_bid"`
	BestAsk string `json:"best_ask"`
}

// Event is any market-channel event; which fields are set depends on
// EventType.
type Event struct {
	EventType string   `json:"event_type"`
	AssetID   string   `json:"asset_id"`
	Market    string   `json:"market"`
	Timestamp string   `json:"timestamp"`
	Hash      string   `json:"hash"`
	Bids      []Level  `json:"bids"`
	Asks      []Level  `json:"asks"`
	Changes   []Change `json:"price_changes"`
	// last_trade_price
	Price      string `json:"price"`
	Side       string `json:"side"`
	Size       string `json:"size"`
	FeeRateBps string `json:"fee_rate_bps"`
	// tick_size_change
	OldTickSize string `json:"old_tick_size"`
	NewTickSize string `json:"new_tick_size"`
}

// Event types this client reads.
const (
	EventBook        = "book"
	EventPriceChange = "price_change"
	EventLastTrade   = "last_trade_price"
	EventTickSize    = "tick_size_change"
)

// Parse reads one text frame: PONG (or PING) is a keep-alive and holds no
// event; otherwise one event object or an array of them.
func Parse(frame []byte) ([]Event, error) {
	b := bytes.TrimSpace(frame)
	switch {
	case len(b) == 0, string(b) == "PONG", string(b) == "PING":
		return nil, nil
	case b[0] == '[':
		var evs []Event
		if err := json.Unmarshal(b, &evs); err != nil {
			return nil, fmt.Errorf("market socket: malformed event array: %w", err)
		}
		return evs, nil
	case b[0] == '{':
		var ev Event
		if err := json.Unmarshal(b, &ev); err != nil {
			return nil, fmt.Errorf("market socket: malformed event: %w", err)
		}
		return []Event{ev}, nil
	}
	return nil, fmt.Errorf("market socket: unexpected frame %q", clip(b, 60))
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// num reads a decimal string; ok is false for "" or garbage.
func num(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// subscribeFrame is the opening message; updateFrame changes the set later.
func subscribeFrame(assets []string) []byte {
	b, _ := json.Marshal(map[string]any{"type": "market", "assets_ids": assets})
	return b
}

func updateFrame(op string, assets []string) []byte {
	b, _ := json.Marshal(map[string]any{"assets_ids": assets, "operation": op})
	return b
}
