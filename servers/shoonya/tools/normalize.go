package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// Every call's arguments pass through one normaliser before the schema
// check (the toolkit validates the raw bytes, so the rewritten arguments
// replace them):
//   - exchange codes are case-insensitive: "nse" means NSE, in "exchange"
//     and in "instruments" entries (EXCHANGE|token); the schemas keep the
//     upper-case enums Noren uses;
//   - the argument names of the seed design and of ShoonyaApi-py are
//     accepted as aliases of the schema's names (argAliases, one table), with
//     their values in those clients' forms ("B", "C", "LMT", Unix seconds,
//     interval "D", {"exchange","token"} objects). tools/list shows one name
//     per argument; an alias sent beside its schema name is left in place, so
//     the schema refuses it as an unknown argument instead of one silently
//     winning.
func normalisedArguments(t toolkit.Tool) toolkit.Tool {
	inner := t.Handler
	name := t.Tool.Name
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := normaliseArgs(name, req.GetRawArguments())
		req.Params.Arguments = args
		if m, ok := args.(map[string]any); ok {
			if b, err := json.Marshal(m); err == nil {
				req.Params.RawArguments = b
			}
		}
		return inner(ctx, req)
	}
	return t
}

// argAlias is one accepted name: the schema's name it stands for, and how
// its value is turned into the schema's form (nil: as sent).
type argAlias struct {
	to    string
	value func(any) any
}

// argAliases: per tool ("*": every tool), alias → schema name. Sources: the
// seed design's names (tradingsymbol, transaction_type, product_type,
// retention, price_trigger, remarks, two_fa_token, strikeprice, count,
// start_time/end_time in Unix seconds, interval "D", feed_type,
// subscription_id) and Shoonya-Dev/ShoonyaApi-py README / NorenApi.py
// (buy_or_sell, price_type, discloseqty, bookloss_price, bookprofit_price,
// trail_price, orderno, newquantity, newprice, newprice_type,
// newtrigger_price, userid, twoFA, searchtext, starttime, endtime,
// instrument). remarks is what place_order sends to Noren as remarks: its
// idempotency key.
var argAliases = map[string]map[string]argAlias{
	"*": {"tradingsymbol": {to: "trading_symbol"}},
	"place_order": {
		"transaction_type": {"side", sideValue}, "buy_or_sell": {"side", sideValue},
		"product_type": {"product", productValue}, "retention": {"validity", upper},
		"price_type": {"order_type", priceTypeValue}, "price_trigger": {"trigger_price", number},
		"remarks": {to: "idempotency_key"}, "discloseqty": {"disclosed_quantity", number},
		"bookloss_price": {"stop_loss", number}, "bookprofit_price": {"target", number},
		"trail_price": {"trailing_stop", number}, "amo": {"after_market", yesNo},
	},
	"modify_order": {
		"orderno": {to: "order_id"}, "newquantity": {"quantity", number}, "newprice": {"price", number},
		"newprice_type": {"order_type", priceTypeValue}, "newtrigger_price": {"trigger_price", number},
		"price_trigger": {"trigger_price", number}, "price_type": {"order_type", priceTypeValue},
	},
	"cancel_order":           {"orderno": {to: "order_id"}},
	"connect_shoonya_broker": {"two_fa_token": {to: "totp"}, "twoFA": {to: "totp"}, "userid": {to: "user_id"}},
	"search_scrip":           {"searchtext": {to: "search_text"}},
	"get_option_chain":       {"strikeprice": {"strike_price", number}, "count": {"strike_count", number}},
	"get_time_price_series": {
		"start_time": {"from", unixTime}, "end_time": {"to", unixTime},
		"starttime": {"from", unixTime}, "endtime": {"to", unixTime},
	},
	"subscribe_market_feeds":   {"instrument": {"instruments", instrumentList}, "feed_type": {"depth", feedDepth}},
	"unsubscribe_market_feeds": {"instrument": {"instruments", instrumentList}, "feed_type": {"depth", feedDepth}},
}

// normaliseArgs rewrites one call's arguments (see normalisedArguments);
// anything that is not exactly one JSON object is returned as it came, for
// the toolkit to report.
func normaliseArgs(tool string, raw any) any {
	var args map[string]any
	switch v := raw.(type) {
	case map[string]any:
		args = v
	case json.RawMessage:
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber() // numbers pass through exactly as sent
		if d.Decode(&args) != nil || args == nil {
			return raw // the toolkit reports what is wrong with it
		}
		if _, err := d.Token(); err != io.EOF {
			return raw // trailing bytes: not one object, so not ours to rewrite
		}
	default:
		return raw
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
	}
	for k, v := range args {
		a, ok := argAliases[tool][k]
		if !ok {
			a, ok = argAliases["*"][k]
		}
		if !ok {
			continue
		}
		if _, both := args[a.to]; both {
			continue // the schema refuses the alias as unknown
		}
		delete(out, k)
		if a.value != nil {
			v = a.value(v)
		}
		out[a.to] = v
	}
	if tool == "unsubscribe_market_feeds" {
		expandSubscriptionID(out)
	}
	if tool == "get_time_price_series" {
		if s, ok := out["interval"].(string); ok && strings.EqualFold(strings.TrimSpace(s), "D") {
			out["interval"] = "day" // ShoonyaApi-py and the seed: "D" is daily
		} else if n, ok := out["interval"].(json.Number); ok {
			out["interval"] = n.String() // minutes as a number: 5 → "5"
		} else if f, ok := out["interval"].(float64); ok {
			out["interval"] = strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	for k, v := range out {
		switch k {
		case "exchange":
			if s, ok := v.(string); ok {
				out[k] = upperIfExchange(s)
			}
		case "instruments":
			if l, ok := v.([]any); ok {
				out[k] = upperInstruments(l)
			}
		}
	}
	return out
}

// upperInstruments upper-cases the exchange of EXCHANGE|token entries and
// turns {"exchange","token"} objects into that form.
func upperInstruments(l []any) []any {
	up := make([]any, len(l))
	for i, e := range l {
		up[i] = e
		switch v := e.(type) {
		case string:
			if ex, tok, found := strings.Cut(v, "|"); found {
				up[i] = upperIfExchange(ex) + "|" + strings.TrimSpace(tok)
			}
		case map[string]any:
			ex, _ := v["exchange"].(string)
			tok := fmt.Sprint(v["token"])
			if n, ok := v["token"].(json.Number); ok {
				tok = n.String()
			}
			if len(v) == 2 && ex != "" && v["token"] != nil {
				up[i] = upperIfExchange(ex) + "|" + strings.TrimSpace(tok)
			}
		}
	}
	return up
}

// subscriptionPrefix starts the subscription_id subscribe_market_feeds
// returns: it names what was subscribed (the feed and the instruments), so
// unsubscribe_market_feeds can undo it from the id alone, on any replica,
// with no state kept per client.
const subscriptionPrefix = "sub:"

// SubscriptionID is the id of a subscription to keys (EXCH|token) on the
// touchline or depth feed.
func SubscriptionID(keys []string, depth bool) string {
	feed := "touchline"
	if depth {
		feed = "depth"
	}
	return subscriptionPrefix + feed + ":" + strings.Join(keys, ",")
}

// expandSubscriptionID turns a subscription_id into the instruments and
// depth it stands for; an id that is not one of ours is left for the
// schema to refuse.
func expandSubscriptionID(args map[string]any) {
	id, ok := args["subscription_id"].(string)
	if !ok || args["instruments"] != nil {
		return
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(id), subscriptionPrefix)
	feed, list, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || (feed != "touchline" && feed != "depth") || list == "" {
		return
	}
	keys := []any{}
	for _, k := range strings.Split(list, ",") {
		keys = append(keys, k)
	}
	delete(args, "subscription_id")
	args["instruments"] = keys
	if _, set := args["depth"]; !set {
		args["depth"] = feed == "depth"
	}
}

func upper(v any) any {
	if s, ok := v.(string); ok {
		return strings.ToUpper(strings.TrimSpace(s))
	}
	return v
}

// sideValue: ShoonyaApi-py's buy_or_sell is "B" or "S".
func sideValue(v any) any {
	switch s := upper(v); s {
	case "B":
		return "BUY"
	case "S":
		return "SELL"
	default:
		return s
	}
}

// productValue: ShoonyaApi-py's product_type letters (README: C CNC, M
// NRML, I MIS, B bracket, H cover).
func productValue(v any) any {
	switch s := upper(v); s {
	case "C":
		return "CNC"
	case "M":
		return "NRML"
	case "I":
		return "MIS"
	case "B":
		return "BRACKET"
	case "H":
		return "COVER"
	default:
		return s
	}
}

// priceTypeValue: Noren's price types (LMT, MKT, SL-LMT, SL-MKT).
func priceTypeValue(v any) any {
	switch s := upper(v); s {
	case "LMT":
		return "LIMIT"
	case "MKT":
		return "MARKET"
	case "SL-LMT":
		return "SL"
	case "SL-MKT":
		return "SL-M"
	default:
		return s
	}
}

// number: ShoonyaApi-py passes prices and quantities as numbers or numeric
// strings ("0"); a string that is a number becomes one.
func number(v any) any {
	if s, ok := v.(string); ok {
		if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			return json.Number(strings.TrimSpace(s))
		}
	}
	return v
}

func yesNo(v any) any {
	if s, ok := v.(string); ok {
		switch strings.ToUpper(strings.TrimSpace(s)) {
		case "YES", "Y", "TRUE":
			return true
		case "NO", "N", "FALSE":
			return false
		}
	}
	return v
}

// unixTime: start_time/end_time in Unix seconds (number or numeric string)
// become the ISO 8601 time in IST the schema takes.
func unixTime(v any) any {
	var f float64
	switch x := v.(type) {
	case json.Number:
		f, _ = x.Float64()
	case float64:
		f = x
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil {
			return v // an ISO time under the alias name passes as sent
		}
	default:
		return v
	}
	if f <= 0 || f > 1e11 {
		return v // not Unix seconds: the schema check says what is wrong
	}
	return time.Unix(int64(f), 0).In(IST).Format(time.RFC3339)
}

// instrumentList: ShoonyaApi-py's subscribe(instrument) takes one
// "EXCH|token" string or a list of them.
func instrumentList(v any) any {
	if s, ok := v.(string); ok {
		return []any{s}
	}
	return v
}

// feedDepth: feed_type "depth"/"snapquote"/"d" (ShoonyaApi-py FeedType.SNAPQUOTE
// = 2) is the depth feed; "touchline"/"t" (FeedType.TOUCHLINE = 1) is not.
func feedDepth(v any) any {
	s := strings.ToLower(strings.TrimSpace(fmt.Sprint(v)))
	if n, ok := v.(json.Number); ok {
		s = n.String()
	}
	switch s {
	case "depth", "snapquote", "d", "2":
		return true
	case "touchline", "t", "1":
		return false
	}
	return v
}

// upperIfExchange is s upper-cased when that is an exchange code Noren
// knows; anything else stays as the caller sent it, so the schema's error
// quotes the caller's own text.
func upperIfExchange(s string) string {
	switch u := strings.ToUpper(strings.TrimSpace(s)); u {
	case "NSE", "BSE", "NFO", "BFO", "CDS", "BCD", "MCX", "NCX":
		return u
	}
	return s
}
