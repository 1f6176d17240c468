package noren

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// contract is request/response pairs recorded in public sources (the
// official SDK's README samples and request fields, Noren documentation;
// see testdata/contract/README.md), replayed against this client with no
// fake in between. A case names the login era of its session ("era"), which
// decides the host path and where the token goes, and may want an exact
// number of rows ("want.rows") beside the result.
var contract = servetest.Contract{File: "testdata/contract/cases.json", MinCases: 20, DecodeBody: formBody, Shapes: Shapes,
	Call: func(t *testing.T, base string, tc servetest.ContractCase) (any, error) {
		var own struct {
			Era  Era `json:"era"`
			Want struct {
				Rows *int `json:"rows"`
			} `json:"want"`
		}
		if err := json.Unmarshal(tc.Raw, &own); err != nil {
			t.Fatal(err)
		}
		rest := map[Era]string{Legacy: DefaultLegacyREST, OAuth: DefaultOAuthREST}[own.Era]
		u, err := url.Parse(rest)
		if rest == "" || err != nil {
			t.Fatalf("era %q", own.Era)
		}
		c := New(Config{Era: own.Era, RESTURL: base + u.Path, Timeout: 5 * time.Second, OrderTimeout: 5 * time.Second, Drift: tc.Drift})
		a := &Auth{Era: own.Era, UID: "FA12345", ActID: "FA12345", Token: "tok-123"}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		got, err := invoke(ctx, c, a, tc.Call, tc.Args)
		if v := reflect.ValueOf(got); own.Want.Rows != nil && err == nil && (v.Kind() != reflect.Slice || v.Len() != *own.Want.Rows) {
			t.Errorf("want %d rows, got %+v", *own.Want.Rows, got)
		}
		return got, err
	}}

// TestContract replays the recorded cases against the client.
func TestContract(t *testing.T) { contract.Run(t) }

// contractArgs are the arguments of the documented example calls.
type contractArgs struct {
	UID       string  `json:"uid"`
	Password  string  `json:"password"`
	APISecret string  `json:"api_secret"`
	Factor2   string  `json:"factor2"`
	OrderNo   string  `json:"order_no"`
	Prd       string  `json:"prd"`
	Exch      string  `json:"exch"`
	Token     string  `json:"token"`
	TSym      string  `json:"tsym"`
	Sym       string  `json:"sym"`
	Text      string  `json:"text"`
	Strike    float64 `json:"strike"`
	Count     int     `json:"count"`
	From      int64   `json:"from"`
	To        int64   `json:"to"`
	Interval  string  `json:"interval"`
}

// invoke calls the client method a case names, as session a.
func invoke(ctx context.Context, c *Client, a *Auth, call string, args json.RawMessage) (any, error) {
	var x contractArgs
	if err := json.Unmarshal(args, &x); err != nil {
		return nil, fmt.Errorf("args of %s: %w", call, err)
	}
	switch call {
	case "QuickAuth":
		return c.QuickAuth(ctx, Credentials{UID: x.UID, Password: x.Password, APISecret: x.APISecret}, x.Factor2)
	case "PlaceOrder":
		var o OrderRequest
		if err := json.Unmarshal(args, &o); err != nil {
			return nil, err
		}
		return c.PlaceOrder(ctx, a, o)
	case "ModifyOrder":
		var m ModifyRequest
		if err := json.Unmarshal(args, &m); err != nil {
			return nil, err
		}
		return c.ModifyOrder(ctx, a, m)
	case "CancelOrder":
		return c.CancelOrder(ctx, a, x.OrderNo)
	case "OrderBook":
		return c.OrderBook(ctx, a)
	case "TradeBook":
		return c.TradeBook(ctx, a)
	case "Positions":
		return c.Positions(ctx, a)
	case "Holdings":
		return c.Holdings(ctx, a, x.Prd)
	case "Limits":
		return c.Limits(ctx, a)
	case "SearchScrip":
		return c.SearchScrip(ctx, a, x.Exch, x.Text)
	case "GetQuotes":
		return c.GetQuotes(ctx, a, x.Exch, x.Token)
	case "GetOptionChain":
		return c.GetOptionChain(ctx, a, x.Exch, x.TSym, x.Strike, x.Count)
	case "TPSeries":
		return c.TPSeries(ctx, a, x.Exch, x.Token, x.From, x.To, x.Interval)
	case "EODChartData":
		return c.EODChartData(ctx, a, x.Sym, x.From, x.To)
	}
	return dayInvoke(ctx, c, a, call, args)
}

// formBody is a sent Noren body, jData=<JSON>[&jKey=<token>], as the JSON
// value a recording holds: {"jData": <JSON>, "jKey": <token>}, with no jKey
// when none was sent. The form says which fields there are; jData itself is
// taken as sent, because it goes raw (no official client URL-encodes it) and
// decoding it would turn a quote_plus'd tsym ("M%26M-EQ") into another value.
func formBody(sent []byte) ([]byte, error) {
	form, err := url.ParseQuery(string(sent))
	if err != nil {
		return nil, err
	}
	for k, v := range form {
		if (k != "jData" && k != "jKey") || len(v) != 1 {
			return nil, fmt.Errorf("field %s=%q: a Noren body is jData=…[&jKey=…]", k, v)
		}
	}
	jdata, ok := strings.CutPrefix(string(sent), "jData=")
	jkey, withKey := form["jKey"]
	if ok && withKey {
		jdata, ok = strings.CutSuffix(jdata, "&jKey="+jkey[0])
	}
	if !ok || !json.Valid([]byte(jdata)) {
		return nil, errors.New("jData is not raw JSON first in the body (no official client URL-encodes it)")
	}
	out := map[string]any{"jData": json.RawMessage(jdata)}
	if withKey {
		out["jKey"] = jkey[0]
	}
	return json.Marshal(out)
}

func TestFormBody(t *testing.T) {
	cases := []struct{ name, sent, want, err string }{
		{"legacy", `jData={"uid":"FA12345"}&jKey=tok-123`, `{"jData":{"uid":"FA12345"},"jKey":"tok-123"}`, ""},
		{"no jKey", `jData={"uid":"FA12345"}`, `{"jData":{"uid":"FA12345"}}`, ""},
		{"jData as sent", `jData={"tsym":"M%26M-EQ","sym":"NSE:Nifty 50"}&jKey=k`, `{"jData":{"tsym":"M%26M-EQ","sym":"NSE:Nifty 50"},"jKey":"k"}`, ""},
		{"URL-encoded jData", `jData=%7B%22uid%22%3A%22FA12345%22%7D`, "", "not raw JSON"},
		{"jKey first", `jKey=k&jData={"uid":"FA12345"}`, "", "not raw JSON"},
		{"no jData", `jKey=k`, "", "not raw JSON"},
		{"other field", `jData={}&jKey=k&x=1`, "", "field x"},
		{"jKey twice", `jData={}&jKey=k&jKey=k`, "", "field jKey"},
		{"bad escape", `jData={"remarks":"50%"}`, "", "invalid URL escape"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := formBody([]byte(c.sent))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %s, %v; want error %q", got, err, c.err)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Fatalf("got %s, %v; want %s", got, err, c.want)
			}
		})
	}
}
