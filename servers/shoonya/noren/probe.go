package noren

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// ProbeSession is the session the drift probe reads with: the one the
// server stored (reused as it is, never replaced), or the one its login
// probe got. The probe runs its calls one after another.
type ProbeSession struct {
	Auth *Auth
	// refused is Noren's word that the session ended: the reads after it
	// are skipped, not sent.
	refused string
}

const probeUpstream = "Shoonya"

// Probes are one read per read route of Routes, in this order: the limits
// and the four books; a search (NSE, RELIANCE) whose first scrip the quote,
// the intraday and the daily candles read; a search (NFO, NIFTY) whose
// first option contract the option chain reads; then the margin and
// order-history reads (dayProbes). Each is sent with s's
// session, which a login probe before them may set; skip, when not "",
// is why none is sent (no session may be used).
func (c *Client) Probes(s *ProbeSession, now time.Time, skip string) []drift.Probe {
	day := int64(24 * 60 * 60)
	t := now.Unix()
	read := func(route string, needs []string, data func(a *Auth, earlier map[string][]byte) (map[string]any, error)) drift.Probe {
		return drift.Probe{Upstream: probeUpstream, Route: route, Method: http.MethodPost, Path: "/" + route,
			ReadOnly: route + " only reads (client route table: Reads); Noren sends every route as a POST",
			Skip:     skip, Needs: needs, Send: c.probeSender(s),
			Prepare: func(earlier map[string][]byte, call *drift.Call) error {
				switch {
				case s.refused != "":
					return errors.New(s.refused)
				case s.Auth == nil:
					return errors.New("no session: the login before it did not succeed")
				}
				j, err := data(s.Auth, earlier)
				call.JSON = j
				return err
			}}
	}
	own := func(extra func(a *Auth) map[string]any) func(*Auth, map[string][]byte) (map[string]any, error) {
		return func(a *Auth, _ map[string][]byte) (map[string]any, error) { return extra(a), nil }
	}
	scrip := func(earlier map[string][]byte, option bool) (Scrip, error) {
		var res struct {
			Values []Scrip `json:"values"`
		}
		_ = json.Unmarshal(earlier["SearchScrip"], &res)
		for _, v := range res.Values {
			// An option is any optt but XX (futures): a new value still
			// reaches the option chain, whose shape then reports it.
			if v.Token != "" && v.TSym != "" && (!option || (v.OptType != "" && v.OptType != "XX")) {
				return v, nil
			}
		}
		return Scrip{}, errors.New("the search found no scrip to read")
	}
	onScrip := func(build func(a *Auth, sc Scrip) map[string]any) func(*Auth, map[string][]byte) (map[string]any, error) {
		return func(a *Auth, earlier map[string][]byte) (map[string]any, error) {
			sc, err := scrip(earlier, false)
			return build(a, sc), err
		}
	}
	return append([]drift.Probe{
		read("Limits", nil, own(func(a *Auth) map[string]any { return map[string]any{"uid": a.UID, "actid": a.ActID} })),
		read("OrderBook", nil, own(func(a *Auth) map[string]any { return map[string]any{"ordersource": "API", "uid": a.UID} })),
		read("TradeBook", nil, own(func(a *Auth) map[string]any {
			return map[string]any{"ordersource": "API", "uid": a.UID, "actid": a.ActID}
		})),
		read("PositionBook", nil, own(func(a *Auth) map[string]any { return map[string]any{"uid": a.UID, "actid": a.ActID} })),
		read("Holdings", nil, own(func(a *Auth) map[string]any { return map[string]any{"uid": a.UID, "actid": a.ActID, "prd": "C"} })),
		read("GetPendingAlert", nil, own(func(a *Auth) map[string]any { return map[string]any{"uid": a.UID} })),
		read("SearchScrip", nil, own(func(a *Auth) map[string]any {
			return map[string]any{"uid": a.UID, "exch": "NSE", "stext": QuoteSymbol("RELIANCE")}
		})),
		read("GetQuotes", []string{"SearchScrip"}, onScrip(func(a *Auth, sc Scrip) map[string]any {
			return map[string]any{"uid": a.UID, "exch": sc.Exch, "token": sc.Token}
		})),
		read("TPSeries", []string{"SearchScrip"}, onScrip(func(a *Auth, sc Scrip) map[string]any {
			return map[string]any{"ordersource": "API", "uid": a.UID, "exch": sc.Exch, "token": sc.Token,
				"st": i64(t - 5*day), "et": i64(t), "intrv": "60"}
		})),
		read("EODChartData", []string{"SearchScrip"}, onScrip(func(a *Auth, sc Scrip) map[string]any {
			return map[string]any{"uid": a.UID, "sym": sc.Exch + ":" + sc.TSym, "from": i64(t - 10*day), "to": i64(t)}
		})),
		read("SearchScrip", nil, own(func(a *Auth) map[string]any {
			return map[string]any{"uid": a.UID, "exch": "NFO", "stext": QuoteSymbol("NIFTY")}
		})),
		read("GetPendingGTTOrder", nil, own(func(a *Auth) map[string]any { return map[string]any{"uid": a.UID} })),
		read("GetOptionChain", []string{"SearchScrip"}, func(a *Auth, earlier map[string][]byte) (map[string]any, error) {
			sc, err := scrip(earlier, true)
			return map[string]any{"uid": a.UID, "exch": sc.Exch, "tsym": QuoteSymbol(sc.TSym),
				"strprc": formatFloat(float64(sc.Strike)), "cnt": "2"}, err
		}),
	}, c.dayProbes(read, now)...)
}

// dayProbes are the trader's-day reads: the margin of one share of the
// quoted scrip (one leg at its last price; a basket of the same leg twice),
// Noren's Greeks of a made-up option, the market-watch names and the first watch, and the history of the first
// order in the book (an empty book asks for order 0: Noren's no-data
// answer, its error shape).
func (c *Client) dayProbes(read func(string, []string, func(*Auth, map[string][]byte) (map[string]any, error)) drift.Probe, now time.Time) []drift.Probe {
	leg := func(earlier map[string][]byte) (map[string]any, error) {
		var q Quote
		if err := json.Unmarshal(earlier["GetQuotes"], &q); err != nil || q.TSym == "" {
			return nil, errors.New("the quote before it gave no scrip to price")
		}
		px := float64(q.LP)
		if px <= 0 {
			px = float64(q.Close)
		}
		return MarginLeg{Exch: q.Exch, TSym: q.TSym, Qty: 1, Price: px, Product: "C", TranType: "B", PriceType: "LMT", Decimals: int(q.PP)}.fields(), nil
	}
	return []drift.Probe{
		read("GetOrderMargin", []string{"GetQuotes"}, func(a *Auth, earlier map[string][]byte) (map[string]any, error) {
			j, err := leg(earlier)
			if err == nil {
				j["uid"], j["actid"] = a.UID, a.ActID
			}
			return j, err
		}),
		read("GetBasketMargin", []string{"GetQuotes"}, func(a *Auth, earlier map[string][]byte) (map[string]any, error) {
			j, err := leg(earlier)
			if err != nil {
				return nil, err
			}
			second, _ := leg(earlier)
			j["uid"], j["actid"], j["basketlists"] = a.UID, a.ActID, []map[string]any{second}
			return j, nil
		}),
		read("GetOptionGreek", nil, func(a *Auth, _ map[string][]byte) (map[string]any, error) {
			// A call 30 days out at the money: the route only computes.
			exd := strings.ToUpper(now.AddDate(0, 0, 30).Format("02-Jan-2006"))
			return map[string]any{"source": "API", "actid": a.ActID, "exd": exd, "strprc": "100", "sptprc": "100",
				"int_rate": "7", "volatility": "20", "optt": "CE"}, nil
		}),
		read("MWList", nil, func(a *Auth, _ map[string][]byte) (map[string]any, error) {
			return map[string]any{"ordersource": "API", "uid": a.UID}, nil
		}),
		read("MarketWatch", []string{"MWList"}, func(a *Auth, earlier map[string][]byte) (map[string]any, error) {
			var res struct {
				Values []string `json:"values"`
			}
			if json.Unmarshal(earlier["MWList"], &res) != nil || len(res.Values) == 0 {
				return nil, errors.New("the market-watch list before it named no watch")
			}
			return map[string]any{"ordersource": "API", "uid": a.UID, "wlname": res.Values[0]}, nil
		}),
		read("SingleOrdHist", []string{"OrderBook"}, func(a *Auth, earlier map[string][]byte) (map[string]any, error) {
			no := "0"
			var book []Order
			if json.Unmarshal(earlier["OrderBook"], &book) == nil && len(book) > 0 && book[0].OrderNo != "" {
				no = book[0].OrderNo
			}
			return map[string]any{"ordersource": "API", "uid": a.UID, "norenordno": no}, nil
		}),
	}
}

// probeSender sends a read probe with s's session. It refuses, before
// anything leaves, a route that is not a read in Routes (an order, a
// login, a route the client does not know) whatever the caller says.
func (c *Client) probeSender(s *ProbeSession) drift.Sender {
	return func(ctx context.Context, call drift.Call) (drift.Reply, error) {
		if Routes[call.Route] != Reads || call.Method != http.MethodPost || call.Path != "/"+call.Route {
			return drift.Reply{}, fmt.Errorf("refused: %s %s is not a read route of the Noren client; a probe never writes", call.Method, call.Path)
		}
		if s.Auth == nil {
			return drift.Reply{}, errors.New("no session")
		}
		jdata, _ := call.JSON.(map[string]any)
		reply, err := c.sendProbe(ctx, call.Route, s.Auth, jdata)
		if IsSessionExpired(err) {
			s.refused = "not sent: Shoonya no longer takes the stored session (it ends with the trading day); log in again with connect_shoonya_broker"
			return reply, drift.Unprobed("Shoonya no longer takes the stored session (it ends with the trading day); log in again with connect_shoonya_broker")
		}
		return reply, err
	}
}

// LoginProbe logs in with QuickAuth (the legacy login; OAuth needs the
// user's browser) and checks its answer against QuickAuth's shape; the
// session it gets is s's for the reads after it. A new login may end the
// session the server holds (assumed for Noren), so the caller adds it only
// when the operator allowed it and no stored session exists.
func (c *Client) LoginProbe(s *ProbeSession, cr Credentials, now func() time.Time) drift.Probe {
	return drift.Probe{Upstream: probeUpstream, Route: "QuickAuth", Method: http.MethodPost, Path: "/QuickAuth",
		ReadOnly: "a login: changes no account data; sent only when the operator allowed the probe to log in",
		Send: func(ctx context.Context, call drift.Call) (drift.Reply, error) {
			if call.Route != "QuickAuth" || Routes[call.Route] != LogsIn || call.Path != "/QuickAuth" {
				return drift.Reply{}, fmt.Errorf("refused: %s is not the login route", call.Path)
			}
			factor2, err := TOTP(cr.TOTPSecret, now())
			if err != nil {
				return drift.Reply{}, err
			}
			reply, err := c.sendProbe(ctx, "QuickAuth", nil, quickAuthData(cr, factor2))
			var res LoginResult
			if err == nil && json.Unmarshal(reply.Body, &res) == nil && res.SUserToken != "" {
				redact.Register(res.SUserToken) // never printed, should a message ever carry it
				actid := res.ActID
				if actid == "" {
					actid = cr.UID
				}
				s.Auth = &Auth{Era: Legacy, UID: cr.UID, ActID: actid, Token: res.SUserToken}
			}
			return reply, err
		}}
}

// sendProbe sends one route as the client would (the same body, session
// header or jKey, deadline and account budget) and hands back the answer
// whatever it was. A Not_Ok answer is an error, but "no data" (an empty
// book) is a good answer with nothing in it.
func (c *Client) sendProbe(ctx context.Context, route string, a *Auth, jdata map[string]any) (drift.Reply, error) {
	if c.cfg.Limiter != nil && a != nil {
		if err := ratelimit.Wait(ctx, c.cfg.Limiter, a.LimitKey()); err != nil {
			return drift.Reply{}, fmt.Errorf("%s: not sent: this account's request budget (shared with the server) is used up or its store did not answer", route)
		}
	}
	var jkey string
	var hdr map[string]string
	if a != nil {
		switch {
		case a.Era != OAuth:
			jkey = a.Token
		case route == "TPSeries" || route == "EODChartData":
			jkey = a.Token // as postAs sends the chart routes: both ways
			fallthrough
		default:
			hdr = map[string]string{"Authorization": "Bearer " + a.Token}
		}
	}
	body, err := Body(jdata, jkey)
	if err != nil {
		return drift.Reply{}, err
	}
	resp, err := c.t.up.Do(ctx, upstream.Request{Op: route, Method: http.MethodPost, Path: "/" + route,
		RawBody: []byte(body), ContentType: "text/plain", Headers: hdr, Idempotent: Routes[route] == Reads,
		NoDetect: true, Timeout: c.cfg.Timeout})
	if resp == nil {
		resp = &upstream.Response{}
	}
	reply := drift.Reply{Status: resp.Status, Header: resp.Header, Body: resp.Body}
	if err != nil {
		if e := norenBodyError(route, resp); e != nil {
			return reply, probeErr(e)
		}
		return reply, probeErr(err)
	}
	if notOK(resp.Body) {
		var st Status
		_ = json.Unmarshal(resp.Body, &st)
		if e := EmsgError(route, st.Emsg); !IsNoData(e) {
			return reply, probeErr(e)
		}
	}
	return reply, nil
}

// probeErr is an error's message and the broker's own words (which never
// hold credentials), keeping its cause for IsSessionExpired.
func probeErr(err error) error {
	e := envelope.From(err)
	msg := e.Message
	if bm, ok := e.Details["broker_message"].(string); ok && bm != "" && !strings.Contains(msg, bm) {
		msg += " (Shoonya: " + bm + ")"
	}
	return &probeError{msg: msg, cause: err}
}

type probeError struct {
	msg   string
	cause error
}

func (e *probeError) Error() string { return e.msg }
func (e *probeError) Unwrap() error { return e.cause }
