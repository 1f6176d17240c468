package client

import (
	"context"
	"net/url"
	"strconv"
)

// Positions lists a wallet's positions (Data API GET /positions, bare array).
func (c *Client) Positions(ctx context.Context, q url.Values) ([]Position, Source, error) {
	return dataList[Position](ctx, c, "get user positions", "/positions", q)
}

// Activity lists a wallet's activity (GET /activity).
func (c *Client) Activity(ctx context.Context, q url.Values) ([]Activity, Source, error) {
	return dataList[Activity](ctx, c, "get user activity", "/activity", q)
}

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
