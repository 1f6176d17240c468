package client

import (
	"bytes"
	"encoding/json"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// ID is an identifier sent as a string or a number ("1066851" or 1066851).
type ID string

// UnmarshalJSON implements json.Unmarshaler.
func (i *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*i = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*i = ID(s)
	case len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9'):
		*i = ID(b)
	default:
		return envelope.New(envelope.UpstreamError, "an id should be a string or a number")
	}
	return nil
}

// Market is a Gamma market (source: docs.polymarket.com/market-data/overview;
// rs-clob-client src/gamma/types/response.rs; Polymarket/agents
// agents/polymarket/gamma.py json.loads the strings). outcomes, outcomePrices
// and clobTokenIds arrive as JSON strings holding arrays (or, in some
// fixtures, real arrays); volume/liquidity as decimal strings, the *Num and
// change fields as numbers: extract.Num takes both.
type Market struct {
	ID          ID     `json:"id"`
	Question    string `json:"question"`
	ConditionID string `json:"conditionId"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
	// ResolutionSource is the feed or page a market settles on (a BTC
	// up/down market: "https://data.chain.link/streams/btc-usd").
	ResolutionSource   string             `json:"resolutionSource"`
	Category           string             `json:"category"`
	StartDate          string             `json:"startDate"`
	EndDate            string             `json:"endDate"`
	ClosedTime         string             `json:"closedTime"` // "2026-06-04 00:34:19+00" (not RFC 3339)
	Active             bool               `json:"active"`
	Closed             bool               `json:"closed"`
	Archived           bool               `json:"archived"`
	AcceptingOrders    bool               `json:"acceptingOrders"`
	NegRisk            bool               `json:"negRisk"`
	Outcomes           extract.StringList `json:"outcomes"`
	OutcomePrices      extract.StringList `json:"outcomePrices"`
	ClobTokenIDs       extract.StringList `json:"clobTokenIds"`
	Volume             extract.Num        `json:"volume"`
	Liquidity          extract.Num        `json:"liquidity"`
	VolumeNum          extract.Num        `json:"volumeNum"`
	LiquidityNum       extract.Num        `json:"liquidityNum"`
	Volume24hr         extract.Num        `json:"volume24hr"`
	Volume1wk          extract.Num        `json:"volume1wk"`
	Spread             extract.Num        `json:"spread"`
	BestBid            extract.Num        `json:"bestBid"`
	BestAsk            extract.Num        `json:"bestAsk"`
	LastTradePrice     extract.Num        `json:"lastTradePrice"`
	OneDayPriceChange  extract.Num        `json:"oneDayPriceChange"`
	OneWeekPriceChange extract.Num        `json:"oneWeekPriceChange"`
	Tags               []Tag              `json:"tags"`
	Events             []EventRef         `json:"events"`
}

// Tag is a Gamma tag.
type Tag struct {
	ID    ID     `json:"id"`
	Label string `json:"label"`
	Slug  string `json:"slug"`
}

// EventRef is the event summary nested in a market.
type EventRef struct {
	ID    ID     `json:"id"`
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

// Vol is the market's volume as a number (volumeNum, else the volume string).
func (m Market) Vol() float64 {
	if m.VolumeNum != 0 {
		return float64(m.VolumeNum)
	}
	return float64(m.Volume)
}

// Liq is the market's liquidity as a number.
func (m Market) Liq() float64 {
	if m.LiquidityNum != 0 {
		return float64(m.LiquidityNum)
	}
	return float64(m.Liquidity)
}

// Prices parses outcomePrices; an unreadable price is 0.
func (m Market) Prices() []float64 {
	out := make([]float64, len(m.OutcomePrices))
	for i, p := range m.OutcomePrices {
		out[i], _ = extract.ParseNum([]byte(p))
	}
	return out
}

// Event is a Gamma event with its nested markets (on events liquidity and
// volume are numbers, unlike on markets: a live event of 2025-12-31; fields
// in rs-clob-client src/gamma/types/response.rs).
type Event struct {
	ID           ID          `json:"id"`
	Ticker       string      `json:"ticker"`
	Slug         string      `json:"slug"`
	Title        string      `json:"title"`
	Description  string      `json:"description"`
	Category     string      `json:"category"`
	StartDate    string      `json:"startDate"`
	EndDate      string      `json:"endDate"`
	Active       bool        `json:"active"`
	Closed       bool        `json:"closed"`
	Archived     bool        `json:"archived"`
	Liquidity    extract.Num `json:"liquidity"`
	Volume       extract.Num `json:"volume"`
	Volume24hr   extract.Num `json:"volume24hr"`
	OpenInterest extract.Num `json:"openInterest"`
	CommentCount extract.Num `json:"commentCount"`
	Markets      []Market    `json:"markets"`
	Tags         []Tag       `json:"tags"`
}

// Level is one price level of a book.
type Level struct {
	Price extract.Num `json:"price"`
	Size  extract.Num `json:"size"`
}

// Book is a CLOB order book (source: rs-clob-client tests/clob.rs,
// rs-clob-client#330, py-clob-client#106): bids arrive ascending
// and asks descending, so the best prices are the LAST elements; never index [0].
type Book struct {
	Market         string      `json:"market"`
	AssetID        string      `json:"asset_id"`
	Timestamp      string      `json:"timestamp"`
	Bids           []Level     `json:"bids"`
	Asks           []Level     `json:"asks"`
	MinOrderSize   extract.Num `json:"min_order_size"`
	TickSize       extract.Num `json:"tick_size"`
	NegRisk        bool        `json:"neg_risk"`
	LastTradePrice extract.Num `json:"last_trade_price"`
}

// BestBid is the highest bid (0, false when there is none).
func (b Book) BestBid() (Level, bool) {
	var best Level
	ok := false
	for _, l := range b.Bids {
		if !ok || l.Price > best.Price {
			best, ok = l, true
		}
	}
	return best, ok
}

// BestAsk is the lowest ask.
func (b Book) BestAsk() (Level, bool) {
	var best Level
	ok := false
	for _, l := range b.Asks {
		if !ok || l.Price < best.Price {
			best, ok = l, true
		}
	}
	return best, ok
}

// Point is one price-history sample: t unix seconds, p price.
type Point struct {
	T extract.Int `json:"t"`
	P extract.Num `json:"p"`
}

// Position is a Data API position row (source: rs-clob-client
// src/data/types/; docs.polymarket.com OpenAPI get-positions.json).
type Position struct {
	ProxyWallet  string      `json:"proxyWallet"`
	Asset        string      `json:"asset"`
	ConditionID  string      `json:"conditionId"`
	Size         extract.Num `json:"size"`
	AvgPrice     extract.Num `json:"avgPrice"`
	InitialValue extract.Num `json:"initialValue"`
	CurrentValue extract.Num `json:"currentValue"`
	CashPnl      extract.Num `json:"cashPnl"`
	PercentPnl   extract.Num `json:"percentPnl"`
	RealizedPnl  extract.Num `json:"realizedPnl"`
	CurPrice     extract.Num `json:"curPrice"`
	Redeemable   bool        `json:"redeemable"`
	Mergeable    bool        `json:"mergeable"`
	Title        string      `json:"title"`
	Slug         string      `json:"slug"`
	EventSlug    string      `json:"eventSlug"`
	Outcome      string      `json:"outcome"`
	OutcomeIndex extract.Int `json:"outcomeIndex"`
	EndDate      string      `json:"endDate"`
	Status       string      `json:"status,omitempty"` // v2: OPEN, REDEEMABLE, CLOSED…
}

// PositionV2 is a /v2/positions row: strict snake_case, decimals as
// numbers or strings, absence as "" (outcome_index 999: unknown)
// (Polymarket/ts-sdk packages/bindings/src/data/portfolio.ts, PositionSchema;
// docs.polymarket.com/api-reference/data-api/overview, its example row).
type PositionV2 struct {
	ProxyWallet   string      `json:"proxy_wallet"`
	ConditionID   string      `json:"condition_id"`
	TokenID       string      `json:"token_id"`
	Outcome       string      `json:"outcome"`
	OutcomeIndex  extract.Int `json:"outcome_index"`
	Title         string      `json:"title"`
	Slug          string      `json:"slug"`
	EventSlug     string      `json:"event_slug"`
	Status        string      `json:"status"` // the row's own: an OPEN request returns REDEEMABLE rows too
	CurrentSize   extract.Num `json:"current_size"`
	AvgPrice      extract.Num `json:"avg_price"`
	EntryCost     extract.Num `json:"entry_cost_usdc"` // fee-exclusive basis
	CurrentPrice  extract.Num `json:"current_price"`
	CurrentValue  extract.Num `json:"current_value"`
	RealizedPnl   extract.Num `json:"realized_pnl"`
	UnrealizedPnl extract.Num `json:"unrealized_pnl"` // current_value − entry_cost_usdc
	TotalPnl      extract.Num `json:"total_pnl"`
	PercentPnl    extract.Num `json:"percent_pnl"`
	Redeemable    bool        `json:"redeemable"`
	Mergeable     bool        `json:"mergeable"`
	EndDate       string      `json:"end_date"`
}

// Position is the row as the tools read it; a price the row lacks is its
// value over its size.
func (r PositionV2) Position() Position {
	p := Position{ProxyWallet: r.ProxyWallet, Asset: r.TokenID, ConditionID: r.ConditionID, Size: r.CurrentSize,
		AvgPrice: r.AvgPrice, InitialValue: r.EntryCost, CurrentValue: r.CurrentValue, CashPnl: r.UnrealizedPnl,
		PercentPnl: r.PercentPnl, RealizedPnl: r.RealizedPnl, CurPrice: r.CurrentPrice, Redeemable: r.Redeemable,
		Mergeable: r.Mergeable, Title: r.Title, Slug: r.Slug, EventSlug: r.EventSlug, Outcome: r.Outcome,
		OutcomeIndex: r.OutcomeIndex, EndDate: r.EndDate, Status: r.Status}
	if p.OutcomeIndex == 999 {
		p.OutcomeIndex = 0
	}
	if p.CurPrice == 0 && p.Size != 0 {
		p.CurPrice = extract.Num(float64(p.CurrentValue) / float64(p.Size))
	}
	return p
}

// Activity is a Data API activity row.
type Activity struct {
	ProxyWallet     string      `json:"proxyWallet"`
	Timestamp       extract.Int `json:"timestamp"`
	ConditionID     string      `json:"conditionId"`
	Type            string      `json:"type"`
	Size            extract.Num `json:"size"`
	UsdcSize        extract.Num `json:"usdcSize"`
	TransactionHash string      `json:"transactionHash"`
	Price           extract.Num `json:"price"`
	Asset           string      `json:"asset"`
	Side            string      `json:"side"`
	OutcomeIndex    extract.Int `json:"outcomeIndex"`
	Title           string      `json:"title"`
	Slug            string      `json:"slug"`
	Outcome         string      `json:"outcome"`
}

// HolderGroup is one outcome token's holders (/holders groups by token).
type HolderGroup struct {
	Token   string   `json:"token"`
	Holders []Holder `json:"holders"`
}

// Holder is one holder row.
type Holder struct {
	ProxyWallet  string      `json:"proxyWallet"`
	Pseudonym    string      `json:"pseudonym"`
	Name         string      `json:"name"`
	Amount       extract.Num `json:"amount"`
	OutcomeIndex extract.Int `json:"outcomeIndex"`
	Verified     bool        `json:"verified"`
}

// Comment is a Gamma comment (source: rs-clob-client src/gamma/types/).
type Comment struct {
	ID               ID          `json:"id"`
	Body             string      `json:"body"`
	ParentEntityType string      `json:"parentEntityType"`
	ParentEntityID   ID          `json:"parentEntityID"`
	ParentCommentID  ID          `json:"parentCommentID"`
	UserAddress      string      `json:"userAddress"`
	CreatedAt        string      `json:"createdAt"`
	ReactionCount    extract.Num `json:"reactionCount"`
	Profile          *struct {
		Name      string `json:"name"`
		Pseudonym string `json:"pseudonym"`
	} `json:"profile"`
}

// Value is one row of GET /value: a wallet and the USDC value of its
// positions. Known is set by the client when the API answered a row.
type Value struct {
	User  string      `json:"user"`
	Value extract.Num `json:"value"`
	Known bool        `json:"-"`
}

// Builder is a builder-leaderboard row (rank arrives as a string).
type Builder struct {
	Rank        ID          `json:"rank"`
	Builder     string      `json:"builder"`
	Volume      extract.Num `json:"volume"`
	ActiveUsers extract.Num `json:"activeUsers"`
	Verified    bool        `json:"verified"`
}

// Search is the /public-search answer; each key may be absent or null.
type Search struct {
	Events     []Event `json:"events"`
	Tags       []Tag   `json:"tags"`
	Pagination *struct {
		HasMore      bool        `json:"hasMore"`
		TotalResults extract.Int `json:"totalResults"`
	} `json:"pagination"`
}

// numValue is a number sent as a number or a decimal string.
type numValue = extract.Num
