package tools

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// dataMaxOffset is GET /activity's offset cap: 0..5000, a 400 past it
// (docs.polymarket.com/api-reference/core/get-user-activity, the Data API
// OpenAPI; rs-clob-client's request.rs said 10,000, the docs are newer).
// Positions page by v2 cursor and have none.
const dataMaxOffset = 5000

// PositionsIn selects a wallet's positions.
type PositionsIn struct {
	User   string `json:"user" mcp:"maxLength=100" jsonschema:"proxy wallet, 0x + 40 hex"`
	Market string `json:"condition_id,omitempty" mcp:"maxLength=100" jsonschema:"0x + 64 hex (get_market)"`
	SortBy string `json:"sort_by,omitempty" mcp:"enum=CURRENT_VALUE|TOKENS|UNREALIZED_PNL|REALIZED_PNL|TOTAL_PNL|TIMESTAMP"`
	Status string `json:"status,omitempty" mcp:"enum=OPEN|REDEEMABLE|CLOSED;default=OPEN" jsonschema:"OPEN includes resolved, unredeemed ones"`
	Limit  int    `json:"limit,omitempty" mcp:"min=1;max=500;default=25"`
	Cursor string `json:"cursor,omitempty"`
}

// cents rounds a USDC amount or a percentage to 2 decimals (Data API sums
// carry float noise such as 84.00000000000001).
func cents(f float64) float64 { return math.Round(f*100) / 100 }

// cents4 rounds a price (0..1) to 4 decimals.
func cents4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// PositionOut is one position: what an agent weighs it by, and token_id and
// slug to follow up (get_prices, get_market gives the condition id).
type PositionOut struct {
	Title    string  `json:"title"`
	Outcome  string  `json:"outcome"`
	Slug     string  `json:"slug,omitempty"`
	TokenID  string  `json:"token_id"`
	Size     float64 `json:"size"`
	AvgPrice float64 `json:"avg_price"`
	CurPrice float64 `json:"cur_price"`
	// CurrentValue (size × cur_price), InitialValue (size × avg_price) and
	// the P&L are the Data API's own figures, in USDC and percent.
	CurrentValue float64 `json:"current_value"`
	InitialValue float64 `json:"initial_value"`
	CashPnl      float64 `json:"cash_pnl"`
	PercentPnl   float64 `json:"percent_pnl"`
	Redeemable   bool    `json:"redeemable,omitempty"`
	Status       string  `json:"status,omitempty"` // when not the status asked
	RealizedPnl  float64 `json:"realized_pnl,omitempty"`
}

// PositionTotals sums the page (USDC; percent_pnl is cash_pnl over initial_value).
type PositionTotals struct {
	Positions    int     `json:"positions"`
	CurrentValue float64 `json:"current_value"`
	InitialValue float64 `json:"initial_value"`
	CashPnl      float64 `json:"cash_pnl"`
	PercentPnl   float64 `json:"percent_pnl"`
}

// PositionsOut is a page of positions with its totals and the wallet's.
type PositionsOut struct {
	envelope.Coverage
	Positions []PositionOut `json:"positions" mcp:"type=object" jsonschema:"title, outcome, slug, token_id, size, avg_price, cur_price, current_value, initial_value, cash_pnl, percent_pnl"`
	// Totals are of this page (totals_cover: page); More says whether more
	// pages exist.
	Totals      PositionTotals  `json:"totals"`
	TotalsCover envelope.Totals `json:"totals_cover" mcp:"enum=page|all"`
	// WalletValue is the current value of all the wallet's positions (of
	// the condition_id when one is given), every page, from the Data API's
	// GET /value: the answer to "what is this wallet worth" in one call.
	WalletValue *float64 `json:"wallet_value_usdc,omitempty"`
	// WalletValueNote says why wallet_value_usdc is missing or what it covers.
	WalletValueNote string `json:"wallet_value_note,omitempty"`
	More            bool   `json:"more"`
	NextCursor      string `json:"next_cursor,omitempty"`
	client.Source
}

func (s *Service) getUserPositions() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_user_positions", Title: "Get user positions", Toolset: setUsers, Hints: toolkit.RemoteRead,
		Description: "Positions of a Polymarket wallet (proxy wallet) by status (OPEN, REDEEMABLE, CLOSED): market, outcome, size, avg/current price, current value, cash, realized and % P&L; page totals, wallet_value_usdc (all pages), next_cursor. 10 calls/min per user."},
		limited(s, userCall, func(ctx context.Context, in PositionsIn) (PositionsOut, error) {
			if err := client.CheckAddress("user", in.User); err != nil {
				return PositionsOut{}, err
			}
			c, err := decodeCursor("get_user_positions", in.Cursor)
			if err != nil {
				return PositionsOut{}, err
			}
			limit := in.Limit
			if limit <= 0 {
				limit = 25
			}
			status := in.Status
			if status == "" {
				status = "OPEN"
			}
			// A v2 cursor binds status and sort; the same user and status go
			// with it (docs.polymarket.com api-reference/wallet/list-positions-for-a-user-or-market,
			// "Resume contract"), and the scope refuses it for other filters.
			scope := status + "|" + in.SortBy + "|" + strings.ToLower(in.Market)
			if c.Keyset != "" && c.Scope != scope {
				return PositionsOut{}, envelope.Invalid("cursor", "this cursor continues other filters (status, sort_by, condition_id): pass them as on the first page, or leave cursor out")
			}
			q := url.Values{"user": {in.User}, "limit": {strconv.Itoa(limit)}, "status": {status}}
			if in.SortBy != "" { // v2's sort keys (ts-sdk bindings PositionSortBy)
				q.Set("sortBy", in.SortBy)
				q.Set("sortDirection", "DESC")
			}
			if c.Keyset != "" {
				q.Set("cursor", c.Keyset)
			}
			if in.Market != "" {
				if err := client.CheckConditionID("condition_id", in.Market); err != nil {
					return PositionsOut{}, err
				}
				q.Set("condition", strings.ToLower(in.Market)) // v2's market filter (migrate/data-api-v1-to-v2, "Market selection")
			}
			page, src, err := s.c.Positions(ctx, q)
			if err != nil {
				return PositionsOut{}, err
			}
			rows := page.Rows
			out := PositionsOut{Positions: make([]PositionOut, len(rows)), Source: src}
			var tot PositionTotals
			for i, p := range rows {
				po := PositionOut{Title: p.Title, Outcome: p.Outcome, Slug: p.Slug, TokenID: p.Asset,
					Size: float64(p.Size), AvgPrice: float64(p.AvgPrice), CurPrice: cents4(float64(p.CurPrice)),
					CurrentValue: float64(p.CurrentValue), InitialValue: float64(p.InitialValue),
					CashPnl: float64(p.CashPnl), PercentPnl: float64(p.PercentPnl), Redeemable: p.Redeemable,
					RealizedPnl: cents(float64(p.RealizedPnl))}
				if p.Status != status {
					po.Status = p.Status // OPEN holds REDEEMABLE ones: say which
				}
				// rows without the Data API's figures get them from size and prices
				if po.CurrentValue == 0 && po.Size*po.CurPrice != 0 {
					po.CurrentValue = po.Size * po.CurPrice
				}
				if po.InitialValue == 0 && po.Size*po.AvgPrice != 0 {
					po.InitialValue = po.Size * po.AvgPrice
				}
				if po.CashPnl == 0 && po.CurrentValue != po.InitialValue {
					po.CashPnl = po.CurrentValue - po.InitialValue
				}
				if po.PercentPnl == 0 && po.InitialValue != 0 {
					po.PercentPnl = po.CashPnl / po.InitialValue * 100
				}
				tot.CurrentValue += po.CurrentValue
				tot.InitialValue += po.InitialValue
				tot.CashPnl += po.CashPnl
				po.CurrentValue, po.InitialValue, po.CashPnl, po.PercentPnl = cents(po.CurrentValue), cents(po.InitialValue), cents(po.CashPnl), cents(po.PercentPnl)
				out.Positions[i] = po
			}
			tot.Positions = len(rows)
			if tot.InitialValue != 0 {
				tot.PercentPnl = cents(tot.CashPnl / tot.InitialValue * 100)
			}
			tot.CurrentValue, tot.InitialValue, tot.CashPnl = cents(tot.CurrentValue), cents(tot.InitialValue), cents(tot.CashPnl)
			out.Totals, out.TotalsCover = tot, envelope.TotalsPage
			if page.Next != "" && page.HasMore {
				out.NextCursor = cursor{Tool: "get_user_positions", Keyset: page.Next, Scope: scope}.encode()
			}
			out.More = out.NextCursor != ""
			out.Coverage = dataCoverage("get_user_positions", out.NextCursor, 0, len(rows), false, strings.ToLower(status)+" positions")
			if out.NextCursor != "" {
				out.Coverage.Incomplete.Missing = "positions after this page (" + strings.ToLower(status) + ")"
			} else if len(rows) == 0 && c.Keyset == "" {
				out.Coverage = envelope.Nothing("the Data API answered no " + strings.ToLower(status) + " positions for this wallet")
			}
			s.walletValue(ctx, &out, in)
			return out, nil
		}))
}

// walletValue adds the wallet's total from GET /value. A failure there
// keeps the page and says so: the page itself is sound.
func (s *Service) walletValue(ctx context.Context, out *PositionsOut, in PositionsIn) {
	q := url.Values{"user": {in.User}}
	if in.Market != "" {
		q.Set("market", strings.ToLower(in.Market))
	}
	v, src, err := s.c.Value(ctx, q)
	switch {
	case err != nil:
		out.WalletValueNote = "the wallet's total could not be read (" + envelope.From(err).Message + "); add totals.current_value over every page instead, or call again"
		return
	case !v.Known:
		out.WalletValueNote = "Polymarket has no value for this wallet"
		return
	}
	out.Source = out.Source.Merge(src)
	total := cents(float64(v.Value))
	out.WalletValue = &total
	if in.Status != "" && in.Status != "OPEN" {
		out.WalletValueNote = "wallet_value_usdc is the value of every open position, not only the " + strings.ToLower(in.Status) + " ones listed"
	}
}

func nextDataOffset(tool string, offset, limit, got, maxOffset int) string {
	if got < limit || offset+limit > maxOffset {
		return ""
	}
	return cursor{Tool: tool, Offset: offset + limit}.encode()
}

// ActivityIn selects a wallet's activity.
type ActivityIn struct {
	User   string   `json:"user" mcp:"maxLength=100" jsonschema:"proxy wallet, 0x + 40 hex"`
	Types  []string `json:"types,omitempty" mcp:"enum=TRADE|SPLIT|MERGE|REDEEM|CONVERSION|MIGRATION|REWARD|MAKER_REBATE|TAKER_REBATE|REFERRAL_REWARD|YIELD|DEPOSIT|WITHDRAWAL|TIP"`
	Side   string   `json:"side,omitempty" mcp:"enum=BUY|SELL"`
	Start  int64    `json:"start,omitempty" mcp:"min=1"`
	End    int64    `json:"end,omitempty" mcp:"min=1"`
	Limit  int      `json:"limit,omitempty" mcp:"min=1;max=500;default=25"`
	Cursor string   `json:"cursor,omitempty"`
}

// ActivityOut is one activity row. Account-level rows (rewards, rebates,
// yield, deposits, withdrawals, migrations, tips) carry only usdc.
type ActivityOut struct {
	Time    int64   `json:"time"`
	Type    string  `json:"type"`
	Side    string  `json:"side,omitempty"`
	Title   string  `json:"title,omitempty"`
	Outcome string  `json:"outcome,omitempty"`
	Size    float64 `json:"size"`
	USDC    float64 `json:"usdc"`
	Price   float64 `json:"price,omitempty"`
	// Slug names the market for get_market; the condition id and the
	// transaction hash (130 of a row's ~300 bytes) are no agent's decision.
	Slug string `json:"slug,omitempty"`
}

// TypeTotal is one type's rows and USDC on the page.
type TypeTotal struct {
	Rows int     `json:"rows"`
	USDC float64 `json:"usdc"`
}

// ActivityTotals sums the page's USDC by what moved it.
type ActivityTotals struct {
	Rows       int     `json:"rows"`
	BoughtUSDC float64 `json:"bought_usdc"` // TRADE rows with side BUY
	SoldUSDC   float64 `json:"sold_usdc"`   // TRADE rows with side SELL
	// RedeemedUSDC: REDEEM rows (resolved positions paid out).
	RedeemedUSDC float64 `json:"redeemed_usdc"`
	// IncomeUSDC: rewards, maker and taker rebates, referral rewards and
	// yield credited to the wallet.
	IncomeUSDC float64 `json:"income_usdc"`
	// DepositedUSDC and WithdrawnUSDC: DEPOSIT and WITHDRAWAL rows.
	DepositedUSDC float64 `json:"deposited_usdc"`
	WithdrawnUSDC float64 `json:"withdrawn_usdc"`
	// ByType: rows and USDC of each type on the page, unknown ones too.
	ByType map[string]TypeTotal `json:"by_type" mcp:"type=object"`
}

// ActivitiesOut is a page of activity with its totals.
type ActivitiesOut struct {
	envelope.Coverage
	Activity    []ActivityOut   `json:"activity" mcp:"type=object" jsonschema:"time is unix seconds"`
	Totals      ActivityTotals  `json:"totals"`
	TotalsCover envelope.Totals `json:"totals_cover" mcp:"enum=page|all"`
	More        bool            `json:"more"`
	NextCursor  string          `json:"next_cursor,omitempty"`
	// UnknownTypes are types Polymarket answered that this server does not
	// know yet: their rows are passed through and counted in by_type.
	UnknownTypes []string `json:"unknown_types,omitempty"`
	client.Source
}

// incomeTypes credit the wallet without a trade.
var incomeTypes = map[string]bool{"REWARD": true, "MAKER_REBATE": true, "TAKER_REBATE": true, "REFERRAL_REWARD": true, "YIELD": true}

func (s *Service) getUserActivity() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_user_activity", Title: "Get user activity", Toolset: setUsers, Hints: toolkit.RemoteRead,
		Description: "Activity of a Polymarket wallet, newest first (default: all types incl. deposits, withdrawals): time, type, side, market, size, USDC, price; page totals (bought, sold, redeemed, income = rewards/rebates/yield, deposited, withdrawn, by_type). 10 calls/min per user."},
		limited(s, userCall, func(ctx context.Context, in ActivityIn) (ActivitiesOut, error) {
			if err := client.CheckAddress("user", in.User); err != nil {
				return ActivitiesOut{}, err
			}
			if in.End > 0 && in.Start > in.End {
				return ActivitiesOut{}, envelope.Invalid("end", "end must not be before start")
			}
			for _, t := range in.Types {
				if !client.KnownActivityType(t) {
					return ActivitiesOut{}, envelope.Invalid("types", "unknown activity type %q; types are %s", t, strings.Join(client.ActivityTypes, ", "))
				}
			}
			c, err := decodeCursor("get_user_activity", in.Cursor)
			if err != nil {
				return ActivitiesOut{}, err
			}
			limit := in.Limit
			if limit <= 0 {
				limit = 25
			}
			// excludeDepositsWithdrawals=false: without it the API leaves
			// deposits and withdrawals out and strips them from the type
			// filter (Polymarket/ts-sdk .changeset/activity-deposit-withdrawal-exclusion.md).
			q := url.Values{"user": {in.User}, "limit": {strconv.Itoa(limit)}, "offset": {strconv.Itoa(c.Offset)},
				"sortBy": {"TIMESTAMP"}, "sortDirection": {"DESC"}, "excludeDepositsWithdrawals": {"false"}}
			if len(in.Types) > 0 {
				q.Set("type", strings.Join(in.Types, ","))
			}
			if in.Side != "" {
				q.Set("side", in.Side)
			}
			if in.Start > 0 {
				q.Set("start", strconv.FormatInt(in.Start, 10))
			}
			if in.End > 0 {
				q.Set("end", strconv.FormatInt(in.End, 10))
			}
			rows, src, err := s.c.Activity(ctx, q)
			if err != nil {
				return ActivitiesOut{}, err
			}
			out := ActivitiesOut{Activity: make([]ActivityOut, len(rows)), TotalsCover: envelope.TotalsPage, Source: src}
			tot := ActivityTotals{ByType: map[string]TypeTotal{}}
			for i, a := range rows {
				out.Activity[i] = ActivityOut{Time: int64(a.Timestamp), Type: a.Type, Side: a.Side, Title: a.Title,
					Outcome: a.Outcome, Size: float64(a.Size), USDC: cents(float64(a.UsdcSize)), Price: float64(a.Price), Slug: a.Slug}
				usdc := float64(a.UsdcSize)
				switch {
				case a.Type == "TRADE" && a.Side == "BUY":
					tot.BoughtUSDC += usdc
				case a.Type == "TRADE" && a.Side == "SELL":
					tot.SoldUSDC += usdc
				case a.Type == "REDEEM":
					tot.RedeemedUSDC += usdc
				case incomeTypes[a.Type]:
					tot.IncomeUSDC += usdc
				case a.Type == "DEPOSIT":
					tot.DepositedUSDC += usdc
				case a.Type == "WITHDRAWAL":
					tot.WithdrawnUSDC += usdc
				}
				bt := tot.ByType[a.Type]
				bt.Rows++
				bt.USDC += usdc
				tot.ByType[a.Type] = bt
				if !client.KnownActivityType(a.Type) && !slices.Contains(out.UnknownTypes, a.Type) {
					out.UnknownTypes = append(out.UnknownTypes, a.Type)
				}
			}
			for k, v := range tot.ByType {
				tot.ByType[k] = TypeTotal{Rows: v.Rows, USDC: cents(v.USDC)}
			}
			tot.Rows = len(rows)
			tot.BoughtUSDC, tot.SoldUSDC, tot.RedeemedUSDC = cents(tot.BoughtUSDC), cents(tot.SoldUSDC), cents(tot.RedeemedUSDC)
			tot.IncomeUSDC, tot.DepositedUSDC, tot.WithdrawnUSDC = cents(tot.IncomeUSDC), cents(tot.DepositedUSDC), cents(tot.WithdrawnUSDC)
			out.Totals = tot
			out.NextCursor = nextDataOffset("get_user_activity", c.Offset, limit, len(rows), dataMaxOffset)
			out.More = out.NextCursor != ""
			out.Coverage = dataCoverage("get_user_activity", out.NextCursor, c.Offset, len(rows), c.Offset+limit > dataMaxOffset && len(rows) == limit, "activity rows")
			return out, nil
		}))
}

// dataCoverage is the coverage of an offset page of the Data API: paged
// with a cursor, capped at the API's offset limit (a narrower window gets
// the rest), whole, or nothing.
func dataCoverage(tool, next string, offset, got int, capped bool, what string) envelope.Coverage {
	switch {
	case next != "":
		return envelope.Page(next, fmt.Sprintf("%s after the first %d", what, offset+got), "call "+tool+" again with the same arguments and this cursor")
	case capped:
		return envelope.Cut(envelope.Capped, fmt.Sprintf("%s past offset %d, the Data API's cap", what, dataMaxOffset),
			"narrow the query (start/end or types) to read further back")
	case offset == 0 && got == 0:
		return envelope.Nothing("the Data API answered no " + what + " for this query")
	}
	return envelope.Whole()
}

// HoldersIn names a market.
type HoldersIn struct {
	ConditionID string `json:"condition_id" mcp:"maxLength=100" jsonschema:"0x + 64 hex, from get_market"`
	Limit       int    `json:"limit,omitempty" mcp:"min=1;max=100;default=10"`
}

// HolderRow is one holder: a row of its outcome's table (cols once, then
// rows of values; holders are uniform rows).
type HolderRow struct {
	Wallet   string  `json:"wallet"`
	Name     string  `json:"name"`
	Shares   float64 `json:"shares"`
	Pct      float64 `json:"pct_of_listed"` // share of the listed holders' shares, percent
	Verified bool    `json:"verified"`
}

// HolderGroupOut is one outcome's holders. The outcome's token id is not
// repeated here (78 bytes; get_market lists it by the same index).
type HolderGroupOut struct {
	// Outcome is the outcome's name ("Yes", "Trump"), Index its place in
	// get_market's outcomes, both from the group's token (not from its
	// rows: a group nobody holds has none).
	Outcome string  `json:"outcome,omitempty"`
	Index   int64   `json:"index" jsonschema:"index into get_market's outcomes"`
	Rows    [][]any `json:"rows" jsonschema:"largest first, in cols order"`
	// Holders and Shares total the listed holders of this outcome.
	Holders int     `json:"holders"`
	Shares  float64 `json:"total_shares"`
}

// HoldersOut lists the groups.
type HoldersOut struct {
	envelope.Coverage
	Cols     []string         `json:"cols" jsonschema:"wallet,name,shares,pct_of_listed,verified"`
	Outcomes []HolderGroupOut `json:"outcomes" mcp:"type=object"`
	Note     string           `json:"note,omitempty"`
	// ThirdParty: the holders' names are written by Polymarket's users.
	ThirdParty envelope.ThirdParty `json:"third_party"`
	client.Source
}

func (s *Service) getTopHolders() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_top_holders", Title: "Get top holders", Toolset: setUsers, Hints: toolkit.RemoteRead,
		Description: "Largest holders of a market (its condition_id from get_market, not a token id), per outcome (name and index as in get_market), as a table (see cols) with each outcome's total shares."},
		limited(s, publicCall, func(ctx context.Context, in HoldersIn) (HoldersOut, error) {
			if err := client.CheckConditionID("condition_id", in.ConditionID); err != nil {
				return HoldersOut{}, err
			}
			limit := in.Limit
			if limit <= 0 {
				limit = 10
			}
			gs, src, err := s.c.Holders(ctx, url.Values{"market": {strings.ToLower(in.ConditionID)}, "limit": {strconv.Itoa(limit)}})
			if err != nil {
				return HoldersOut{}, err
			}
			out := HoldersOut{Cols: toolkit.Columns[HolderRow](), Outcomes: []HolderGroupOut{}, Source: src}
			// the outcomes' names, by token, from the market (cached with
			// Gamma's; a failure leaves the names out and says so)
			names := map[string]int{}
			var outcomes []string
			if m, msrc, err := s.c.Market(ctx, in.ConditionID); err == nil {
				outcomes = m.Outcomes
				for i, tok := range m.ClobTokenIDs {
					names[tok] = i
				}
				out.Source = out.Source.Merge(msrc)
			} else {
				out.Note = "outcome names could not be read (" + envelope.From(err).Message + "); index points into get_market's outcomes"
			}
			capped := false
			for _, g := range gs {
				og := HolderGroupOut{Index: -1}
				if i, ok := names[g.Token]; ok {
					og.Index = int64(i)
					if i < len(outcomes) {
						og.Outcome = outcomes[i]
					}
				}
				list := make([]HolderRow, len(g.Holders))
				for _, h := range g.Holders {
					og.Shares += float64(h.Amount)
				}
				for i, h := range g.Holders {
					if og.Index < 0 {
						og.Index = int64(h.OutcomeIndex)
					}
					name := h.Name
					if name == "" {
						name = h.Pseudonym
					}
					list[i] = HolderRow{Wallet: h.ProxyWallet, Name: envelope.CleanThirdParty(name), Shares: float64(h.Amount), Verified: h.Verified}
					if og.Shares > 0 {
						list[i].Pct = cents(float64(h.Amount) / og.Shares * 100)
					}
				}
				if og.Index < 0 {
					og.Index = 0
				}
				capped = capped || len(list) >= limit
				og.Holders, og.Shares = len(list), cents(og.Shares)
				_, og.Rows = toolkit.Tabulate(list)
				out.Outcomes = append(out.Outcomes, og)
			}
			switch {
			case len(out.Outcomes) == 0:
				out.Note = "nobody holds this market's outcomes (Polymarket answered null)"
				out.Coverage = envelope.Nothing(out.Note)
			case capped && limit < maxHolders:
				out.Coverage = envelope.Cut(envelope.Capped, fmt.Sprintf("holders past the largest %d of an outcome", limit),
					fmt.Sprintf("raise limit (up to %d) for more; shares and pct_of_listed cover the listed holders only", maxHolders))
			case capped:
				out.Coverage = envelope.Cut(envelope.Capped, fmt.Sprintf("holders past the largest %d of an outcome", limit),
					"the largest holders only are listed; shares and pct_of_listed cover them, not the outcome's supply")
			default:
				out.Coverage = envelope.Whole()
			}
			out.ThirdParty = holdersThirdParty
			return out, nil
		}))
}

// maxHolders is the tool's largest limit per outcome.
const maxHolders = 100

// holdersThirdParty: holder names are what Polymarket's users chose.
var holdersThirdParty = envelope.ThirdParty{"outcomes[].rows[][1]"}

// CommentsIn names the commented entity.
type CommentsIn struct {
	EntityType string `json:"entity_type" mcp:"enum=market|event|series"`
	EntityID   int64  `json:"entity_id" mcp:"min=1"`
	Order      string `json:"order,omitempty" mcp:"enum=newest|oldest;default=newest"`
	Limit      int    `json:"limit,omitempty" mcp:"min=1;max=100;default=20"`
	Cursor     string `json:"cursor,omitempty"`
}

// CommentOut is one comment; reply_to names the top-level comment a reply
// answers (replies follow their comment).
type CommentOut struct {
	ID        string  `json:"id"`
	Body      string  `json:"body"`
	Author    string  `json:"author,omitempty"`
	Wallet    string  `json:"wallet,omitempty"`
	CreatedAt string  `json:"created_at,omitempty"`
	Reactions float64 `json:"reactions,omitempty"`
	ReplyTo   string  `json:"reply_to,omitempty"`
}

// CommentsOut is a page of a thread.
type CommentsOut struct {
	envelope.Coverage
	Comments []CommentOut `json:"comments" mcp:"type=object"`
	// TopLevel and Replies count this page the way Gamma counts it: limit
	// bounds the top-level comments, replies ride along.
	TopLevel int `json:"top_level"`
	Replies  int `json:"replies"`
	// ResolvedTo says which entity the comments belong to when it is not
	// the one asked for (a market's comments are its event's).
	ResolvedTo string              `json:"resolved_to,omitempty"`
	NextCursor string              `json:"next_cursor,omitempty"`
	ThirdParty envelope.ThirdParty `json:"third_party"`
	client.Source
}

// entityTypes maps to Gamma's exact-case parent_entity_type. Gamma accepts
// only Event, Series and PerpsAsset: "market" in any casing is 422 `expected
// value to be one of "Event, Series, PerpsAsset"` (polyoxide
// docs/specs/gamma/OBSERVED.md, probed 2026-08-19; its spec-deviations,
// 2026-10-02), so a market's comments are read from its event.
var entityTypes = map[string]string{"market": "Event", "event": "Event", "series": "Series"}

// commentsThirdParty: comment bodies and author names are written by
// Polymarket's users.
var commentsThirdParty = envelope.ThirdParty{"comments[].body", "comments[].author"}

func (s *Service) listComments() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_comments", Title: "List comments", Toolset: setMarkets, Hints: toolkit.RemoteRead,
		Description: "Comments on an event or series (Gamma id), newest or oldest first, paged to the thread's end: body (≤500 chars), author (else wallet), time, reactions, reply_to. limit counts top-level comments; replies ride along. entity_type=market reads its event's (resolved_to)."},
		limited(s, publicCall, func(ctx context.Context, in CommentsIn) (CommentsOut, error) {
			typ, ok := entityTypes[in.EntityType]
			if !ok || in.EntityID <= 0 {
				return CommentsOut{}, envelope.Invalid("entity_type", "entity_type must be market, event or series and entity_id a positive Gamma id")
			}
			order := in.Order
			if order == "" {
				order = "newest"
			}
			if order != "newest" && order != "oldest" {
				return CommentsOut{}, envelope.Invalid("order", "order must be newest or oldest")
			}
			c, err := decodeCursor("list_comments", in.Cursor)
			if err != nil {
				return CommentsOut{}, err
			}
			limit := in.Limit
			if limit <= 0 {
				limit = 20
			}
			if limit > 100 {
				return CommentsOut{}, envelope.Invalid("limit", "limit is at most 100 top-level comments a page (Gamma's cap); follow next_cursor for more")
			}
			scope := fmt.Sprintf("%s:%d:%s", in.EntityType, in.EntityID, order)
			if in.Cursor != "" && c.Scope != scope {
				return CommentsOut{}, envelope.Invalid("cursor", "this cursor continues another thread or order; pass it with the entity_type, entity_id and order it came with, or leave it out for the first page")
			}
			id, resolved := strconv.FormatInt(in.EntityID, 10), ""
			if in.EntityType == "market" {
				m, _, err := s.c.Market(ctx, id)
				if err != nil {
					return CommentsOut{}, err
				}
				if len(m.Events) == 0 || m.Events[0].ID == "" {
					return CommentsOut{}, envelope.New(envelope.NotFound,
						"market %s belongs to no event, and Gamma keeps comments per event or series only; list_comments with entity_type=event takes an event id (get_market detail=full shows event_slug, get_event its id)", id)
				}
				id = string(m.Events[0].ID)
				resolved = fmt.Sprintf("event %s (%s): Gamma keeps comments per event, so these are the comments on market %d's event", id, m.Events[0].Slug, in.EntityID)
			}
			q := url.Values{"parent_entity_type": {typ}, "parent_entity_id": {id}, "limit": {strconv.Itoa(limit)},
				"order": {"createdAt"}, "ascending": {strconv.FormatBool(order == "oldest")}}
			if c.Keyset != "" {
				q.Set("after_cursor", c.Keyset)
			}
			page, src, err := s.c.CommentsKeyset(ctx, q)
			if err != nil {
				return CommentsOut{}, err
			}
			out := CommentsOut{Comments: make([]CommentOut, len(page.Comments)), ResolvedTo: resolved,
				ThirdParty: commentsThirdParty, Source: src}
			for i, r := range page.Comments {
				out.Comments[i] = commentOut(r)
				if r.ParentCommentID == "" {
					out.TopLevel++
				} else {
					out.Replies++
				}
			}
			next := s.commentsNext(ctx, q, page.NextCursor)
			out.Coverage = envelope.Whole()
			switch {
			case next != "":
				out.NextCursor = cursor{Tool: "list_comments", Keyset: next, Scope: scope}.encode()
				out.Coverage = envelope.Page(out.NextCursor, fmt.Sprintf("the %s comments after these %d top-level ones", map[string]string{"newest": "older", "oldest": "newer"}[order], out.TopLevel),
					"call list_comments again with the same entity_type, entity_id and order and this cursor")
			case len(out.Comments) == 0:
				out.Coverage = envelope.Nothing("Gamma answered no comments for this " + in.EntityType + " after this point")
			}
			return out, nil
		}))
}

// commentsNext is the keyset cursor to hand out, "" at the end of the
// thread. Gamma hands a cursor for a full page even when the thread ends
// exactly there, and the page after it is empty (Polymarket/ts-sdk
// packages/client/src/actions/comments.ts: "may return one final empty
// page"); so the next page is read once to check, and a cursor is handed
// out only when it leads to comments. That read is cached, so the next call
// with the cursor costs no request.
func (s *Service) commentsNext(ctx context.Context, q url.Values, upstreamNext string) string {
	if upstreamNext == "" {
		return ""
	}
	ahead := url.Values{}
	for k, v := range q {
		ahead[k] = v
	}
	ahead.Set("after_cursor", upstreamNext)
	p, _, err := s.c.CommentsKeyset(ctx, ahead)
	if err == nil && len(p.Comments) == 0 {
		return ""
	}
	return upstreamNext // a failed check keeps the page and Gamma's cursor: the next call reads it again
}

func commentOut(r client.Comment) CommentOut {
	co := CommentOut{ID: string(r.ID), Body: envelope.CleanThirdParty(clipText(r.Body, 500)), CreatedAt: r.CreatedAt,
		Reactions: float64(r.ReactionCount), ReplyTo: string(r.ParentCommentID)}
	if r.Profile != nil {
		co.Author = r.Profile.Name
		if co.Author == "" {
			co.Author = r.Profile.Pseudonym
		}
		co.Author = envelope.CleanThirdParty(co.Author)
	}
	if co.Author == "" { // the wallet stands in for a missing name; beside a name it is 42 B a row nobody decides on
		co.Wallet = r.UserAddress
	}
	return co
}

// builderMaxOffset is the deepest offset the leaderboard serves: 0..1000
// (docs.polymarket.com api-reference/builders/get-aggregated-builder-leaderboard,
// the v1 OpenAPI; polyte-data GetBuilderLeaderboard::offset "0-1000"), so
// a page may start at 1000 itself.
const builderMaxOffset = 1000

// builderCoverage: another page, the end of the board, or the API's offset
// cap reached with rows possibly left.
func builderCoverage(next string, offset, limit, got int) envelope.Coverage {
	switch {
	case next != "":
		return envelope.Page(next, fmt.Sprintf("ranks after %d", offset+got), "same time_period, this cursor")
	case got == limit && offset+limit > builderMaxOffset:
		return envelope.Cut(envelope.Capped, fmt.Sprintf("builders ranked after %d (the Data API serves offsets up to %d)", offset+got, builderMaxOffset),
			"the board cannot be read deeper; a shorter time_period ranks fewer builders")
	case offset == 0 && got == 0:
		return envelope.Nothing("the Data API ranked no builders for this time_period")
	}
	return envelope.Whole()
}

// BuildersIn picks the period.
type BuildersIn struct {
	TimePeriod string `json:"time_period,omitempty" mcp:"enum=DAY|WEEK|MONTH|ALL;default=DAY"`
	Limit      int    `json:"limit,omitempty" mcp:"min=1;max=50;default=25"`
	Cursor     string `json:"cursor,omitempty"`
}

// BuilderRow is one leaderboard row. The rows are uniform, so the page is a
// table (cols once, then rows of values): a row of objects would repeat every
// key per row, and the upstream rows are already just these fields plus a
// logo URL (the 30% list budget of docs/benchmarks.md). Volume is the
// route's own figure: the v1 OpenAPI gives no unit, and the v2 board's
// docs say its volume is in shares, not USDC
// (docs.polymarket.com/api-reference/boards/get-the-builders-leaderboard),
// so no unit is claimed.
type BuilderRow struct {
	Rank        int     `json:"rank"`
	Builder     string  `json:"builder"`
	Volume      float64 `json:"volume"`
	ActiveUsers float64 `json:"active_users"`
	Verified    bool    `json:"verified"`
}

// BuildersOut is a page of the leaderboard as a table.
type BuildersOut struct {
	envelope.Coverage
	Cols       []string `json:"cols" jsonschema:"rank,builder,volume,active_users,verified"`
	Rows       [][]any  `json:"rows" jsonschema:"one per builder, in cols order, by rank" mcp:"type=array"`
	NextCursor string   `json:"next_cursor,omitempty"`
	client.Source
}

func (s *Service) getBuilderLeaderboard() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_builder_leaderboard", Title: "Get builder leaderboard", Toolset: setUsers, Hints: toolkit.RemoteRead,
		Description: "Builder (order-routing app) leaderboard for a period by volume (as Polymarket reports it; unit undocumented), as a table (see cols)."},
		limited(s, publicCall, func(ctx context.Context, in BuildersIn) (BuildersOut, error) {
			c, err := decodeCursor("get_builder_leaderboard", in.Cursor)
			if err != nil {
				return BuildersOut{}, err
			}
			limit := in.Limit
			if limit <= 0 {
				limit = 25
			}
			tp := in.TimePeriod
			if tp == "" {
				tp = "DAY"
			}
			rows, src, err := s.c.Builders(ctx, url.Values{"timePeriod": {tp}, "limit": {strconv.Itoa(limit)}, "offset": {strconv.Itoa(c.Offset)}})
			if err != nil {
				return BuildersOut{}, err
			}
			list := make([]BuilderRow, len(rows))
			for i, r := range rows {
				rank, _ := strconv.Atoi(string(r.Rank))
				list[i] = BuilderRow{Rank: rank, Builder: r.Builder, Volume: float64(r.Volume), ActiveUsers: float64(r.ActiveUsers), Verified: r.Verified}
			}
			out := BuildersOut{Source: src}
			out.Cols, out.Rows = toolkit.Tabulate(list)
			out.NextCursor = nextDataOffset("get_builder_leaderboard", c.Offset, limit, len(rows), builderMaxOffset)
			out.Coverage = builderCoverage(out.NextCursor, c.Offset, limit, len(rows))
			return out, nil
		}))
}
