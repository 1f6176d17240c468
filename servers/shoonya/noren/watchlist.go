package noren

import (
	"context"
	"errors"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// The broker's market watches, so an agent and the trader's app see the
// same lists. source: NorenApi.py get_watch_list_names, get_watch_list,
// add_watch_list_scrip, delete_watch_list_scrip (fields ordersource, uid,
// wlname, scrips as '#'-joined EXCHANGE|token); ShoonyaApi-py
// tests/test_watchlist.py reads MWList's values as the names and
// MarketWatch's values as {exch, token, tsym}.

// MWList lists the user's market-watch names. A refusal is an error.
func (c *Client) MWList(ctx context.Context, a *Auth) ([]string, error) {
	return list[string](ctx, c, "MWList", a, map[string]any{"ordersource": "API", "uid": a.UID})
}

// MarketWatch lists the scrips of one market watch (Noren's "no data" is
// an empty watch).
func (c *Client) MarketWatch(ctx context.Context, a *Auth, name string) ([]Scrip, error) {
	return list[Scrip](ctx, c, "MarketWatch", a, map[string]any{"ordersource": "API", "uid": a.UID, "wlname": name})
}

// EditMarketWatch adds (or, with remove, deletes) scrips ("EXCH|token") in
// one market watch. It is sent once; adding or removing the same scrips
// again changes nothing more.
func (c *Client) EditMarketWatch(ctx context.Context, a *Auth, name string, scrips []string, remove bool) error {
	route := "AddMultiScripsToMW"
	if remove {
		route = "DeleteMultiMWScrips"
	}
	body, err := c.post(ctx, route, a, map[string]any{"ordersource": "API", "uid": a.UID, "wlname": name, "scrips": strings.Join(scrips, "#")}, false)
	if err != nil {
		return err
	}
	err = DecodeObject(route, body, nil)
	if errors.Is(err, ErrUnreadable) {
		// An answer came but cannot be read: the edit may have happened.
		return envelope.New(envelope.OutcomeUnknown, "%s: Shoonya's answer could not be read, so the edit may or may not have happened; read the watchlist before repeating", route).WithCause(err)
	}
	return err
}
