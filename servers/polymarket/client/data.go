package client

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// PositionsPage is one page of GET /v2/positions.
type PositionsPage struct {
	Rows    []Position `json:"rows"`
	Next    string     `json:"next_cursor"` // "" at the end
	HasMore bool       `json:"has_more"`
}

// Positions reads one page of a wallet's positions from the Data API v2
// (GET /v2/positions): v2 serves the whole lifecycle behind status (OPEN,
// the default and superset, REDEEMABLE, CLOSED: ts-sdk bindings
// PositionStatus) and pages by an opaque cursor, sent with the same user and
// status (docs.polymarket.com/migrate/data-api-v1-to-v2 "Position
// lifecycle", "Pagination"; api-reference/wallet/list-positions-for-a-user-or-market
// "Resume contract"). v1's /positions has no status and stops at offset
// 10,000, so it is not used. Rows are {data, pagination} with snake_case
// fields; a documented miss is data: null.
func (c *Client) Positions(ctx context.Context, q url.Values) (PositionsPage, Source, error) {
	b, src, err := c.get(ctx, c.data, "get user positions", "/v2/positions", q)
	if err != nil {
		return PositionsPage{}, src, err
	}
	env, err := decode[struct {
		Data       []PositionV2 `json:"data"`
		Pagination struct {
			HasMore    bool    `json:"has_more"`
			NextCursor *string `json:"next_cursor"`
		} `json:"pagination"`
	}]("get user positions", b)
	if err != nil {
		return PositionsPage{}, src, err
	}
	pg := PositionsPage{Rows: make([]Position, 0, len(env.Data)), HasMore: env.Pagination.HasMore}
	if env.Pagination.NextCursor != nil {
		pg.Next = *env.Pagination.NextCursor
	}
	for _, r := range env.Data {
		pg.Rows = append(pg.Rows, r.Position())
	}
	return pg, src, nil
}

// ActivityTypes are the activity types the Data API answers today: the
// market rows TRADE, SPLIT, MERGE, REDEEM, CONVERSION, and the account-level
// credits and debits MIGRATION, REWARD, MAKER_REBATE, TAKER_REBATE,
// REFERRAL_REWARD, YIELD, DEPOSIT, WITHDRAWAL, TIP, which carry only an
// amount (Polymarket/ts-sdk packages/bindings/src/data/activity.ts, its
// Activity union; .changeset/dev-469-missing-activity-types.md,
// data-v2-core-welcome.md).
var ActivityTypes = []string{"TRADE", "SPLIT", "MERGE", "REDEEM", "CONVERSION", "MIGRATION", "REWARD",
	"MAKER_REBATE", "TAKER_REBATE", "REFERRAL_REWARD", "YIELD", "DEPOSIT", "WITHDRAWAL", "TIP"}

// Activity lists a wallet's activity (GET /activity). The API leaves
// DEPOSIT and WITHDRAWAL rows out, and strips them from a type filter,
// unless excludeDepositsWithdrawals=false is sent (Polymarket/ts-sdk
// .changeset/activity-deposit-withdrawal-exclusion.md): the tool sends it.
//
// A type not in ActivityTypes is passed through and noted as drift on every
// answer, not only the sampled ones, so a new type is reported (once a day,
// docs/drift.md) the first time it is seen.
func (c *Client) Activity(ctx context.Context, q url.Values) ([]Activity, Source, error) {
	rows, src, err := dataList[Activity](ctx, c, "get user activity", "/activity", q)
	for _, r := range rows {
		if !KnownActivityType(r.Type) {
			c.data.NoteDrift("get user activity", drift.Finding{Kind: drift.NewEnum, Path: "[].type",
				Detail: fmt.Sprintf("activity type %q is not one this server knows (passed through)", r.Type)})
		}
	}
	return rows, src, err
}

// KnownActivityType says whether t is one of ActivityTypes.
func KnownActivityType(t string) bool { return slices.Contains(ActivityTypes, t) }

// Holders lists top holders of a market, grouped per outcome token (GET
// /holders?market=<conditionId>; the original sent token_id). A market
// nobody holds answers 200 with a bare null: an empty list here.
func (c *Client) Holders(ctx context.Context, q url.Values) ([]HolderGroup, Source, error) {
	b, src, err := c.getNullable(ctx, c.data, "get top holders", "/holders", q)
	if err != nil {
		return nil, src, err
	}
	l, err := decode[[]HolderGroup]("get top holders", b)
	if l == nil && err == nil {
		l = []HolderGroup{}
	}
	return l, src, err
}

// Builders reads GET /v1/builders/leaderboard (the original called /leaderboard?window=).
func (c *Client) Builders(ctx context.Context, q url.Values) ([]Builder, Source, error) {
	return dataList[Builder](ctx, c, "get builder leaderboard", "/v1/builders/leaderboard", q)
}

// Value reads GET /value?user= (optionally market=<conditionIds csv>): the
// marked value of all the wallet's positions in one call, answered as
// [{"user","value"}] (docs.polymarket.com/api-reference/core/get-total-value-of-a-users-positions,
// the Data API OpenAPI's /value). An empty list is a wallet with no value
// known to the API: Known false.
func (c *Client) Value(ctx context.Context, q url.Values) (Value, Source, error) {
	rows, src, err := dataList[Value](ctx, c, "get portfolio value", "/value", q)
	if err != nil || len(rows) == 0 {
		return Value{}, src, err
	}
	v := rows[0]
	v.Known = true
	return v, src, nil
}

func dataList[T any](ctx context.Context, c *Client, op, path string, q url.Values) ([]T, Source, error) {
	b, src, err := c.get(ctx, c.data, op, path, q)
	if err != nil {
		return nil, src, err
	}
	l, err := decode[[]T](op, b)
	if l == nil && err == nil {
		l = []T{}
	}
	return l, src, err
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
