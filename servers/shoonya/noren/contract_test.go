package noren

// Contract tests: request/response pairs recorded in public sources (the
// official SDK's README samples and request fields, Noren documentation; see
// testdata/contract/README.md) replayed against this client. They do not use
// our fake, so a behaviour the client and the fake agree on but the real
// service lacks shows up here.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

type contractCase struct {
	Name          string            `json:"name"`
	Source        string            `json:"source"`
	Route         string            `json:"route"`
	Era           Era               `json:"era"`
	Auth          bool              `json:"auth"`
	BodyJKey      bool              `json:"body_jkey"`
	RequestKeys   []string          `json:"request_keys"`
	RequestValues map[string]string `json:"request_values"`
	Response      string            `json:"response"`
	Expect        struct {
		Code   envelope.Code `json:"code"`
		Token  string        `json:"token"`
		Order  string        `json:"order"`
		Rows   *int          `json:"rows"`
		Status string        `json:"status"`
		Price  float64       `json:"price"`
	} `json:"expect"`
}

// recorded is what the client sent.
type recorded struct {
	path, bearer, jkey string
	jdata              map[string]any
}

func parseBody(t *testing.T, r *http.Request) recorded {
	t.Helper()
	b, _ := io.ReadAll(r.Body)
	s := string(b)
	rec := recorded{path: r.URL.Path, bearer: strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")}
	if i := strings.LastIndex(s, "&jKey="); i >= 0 {
		rec.jkey, s = s[i+len("&jKey="):], s[:i]
	}
	if !strings.HasPrefix(s, "jData=") {
		t.Fatalf("body is not jData=...: %q", b)
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(s, "jData=")), &rec.jdata); err != nil {
		t.Fatalf("jData is not raw JSON (no official client URL-encodes it): %v", err)
	}
	return rec
}

// call runs the client method a case's route stands for; the arguments are
// those of the documented example call.
func (cc contractCase) call(ctx context.Context, c *Client, a *Auth) (token, order string, rows int, status string, price float64, err error) {
	switch cc.Route {
	case "QuickAuth":
		var au *Auth
		au, err = c.QuickAuth(ctx, Credentials{UID: "FA12345", Password: "pw", APISecret: "secret"}, "123456")
		if au != nil {
			token = au.Token
		}
	case "PlaceOrder":
		order, err = c.PlaceOrder(ctx, a, OrderRequest{TranType: "B", Product: "C", Exch: "NSE", TSym: "CANBK-EQ", Qty: 1,
			PriceType: "SL-LMT", Price: 200, Trigger: 199.5, Retention: "DAY", Remarks: "my_order_001", Decimals: 2})
	case "PlaceOrderLMT":
		order, err = c.PlaceOrder(ctx, a, OrderRequest{TranType: "B", Product: "C", Exch: "NSE", TSym: "INFY-EQ", Qty: 1,
			PriceType: "LMT", Price: 1500, Retention: "DAY", Remarks: "my_order_001", Decimals: 2})
	case "ModifyOrder":
		order, err = c.ModifyOrder(ctx, a, ModifyRequest{OrderNo: "20052600000103", Exch: "NSE", TSym: "INFY-EQ", Qty: 2, PriceType: "LMT", Price: 1505, Decimals: 2})
	case "CancelOrder":
		order, err = c.CancelOrder(ctx, a, "20052600000103")
	case "OrderBook":
		var l []Order
		l, err = c.OrderBook(ctx, a)
		rows = len(l)
		if rows > 0 {
			order, status, price = l[0].OrderNo, l[0].Status, float64(l[0].Price)
		}
	case "TradeBook":
		var l []Trade
		l, err = c.TradeBook(ctx, a)
		rows = len(l)
		if rows > 0 {
			order, price = l[0].OrderNo, float64(l[0].FillPrice)
		}
	case "PositionBook":
		var l []Position
		l, err = c.Positions(ctx, a)
		rows = len(l)
	case "Holdings":
		var l []Holding
		l, err = c.Holdings(ctx, a, "")
		rows = len(l)
	case "Limits":
		var l Limits
		l, err = c.Limits(ctx, a)
		price = float64(l.Cash)
	case "SearchScrip":
		var l []Scrip
		l, err = c.SearchScrip(ctx, a, "NSE", "REL")
		rows = len(l)
	case "GetQuotes":
		var q Quote
		q, err = c.GetQuotes(ctx, a, "NSE", "22")
		price = float64(q.Upper)
	case "GetOptionChain":
		var l []Scrip
		l, err = c.GetOptionChain(ctx, a, "NFO", "NIFTY27OCT22F", 16000, 2)
		rows = len(l)
	case "TPSeries":
		var l []Candle
		l, err = c.TPSeries(ctx, a, "NSE", "22", 1591070400, 1591093800, "5")
		rows = len(l)
	case "EODChartData":
		var l []Candle
		l, err = c.EODChartData(ctx, a, "NSE:PAYTM-EQ", 457401600, 480556800)
		rows = len(l)
		if rows > 0 {
			price = float64(l[0].Close)
		}
	default:
		err = fmt.Errorf("no client call for route %q", cc.Route)
	}
	return
}

func sameValue(got any, want string) bool {
	g := fmt.Sprint(got)
	if gf, err := strconv.ParseFloat(g, 64); err == nil {
		if wf, err := strconv.ParseFloat(want, 64); err == nil {
			return gf == wf
		}
	}
	return g == want
}

func TestContractRecordedSamples(t *testing.T) {
	raw, err := os.ReadFile("testdata/contract/samples.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []contractCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, cc := range cases {
		t.Run(cc.Name, func(t *testing.T) {
			if cc.Source == "" {
				t.Fatal("every recorded case names its public source")
			}
			route := strings.TrimSuffix(cc.Route, "LMT")
			var got recorded
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = parseBody(t, r)
				_, _ = io.WriteString(w, cc.Response)
			}))
			defer srv.Close()
			base := srv.URL + "/NorenWClientTP/"
			if cc.Era == OAuth {
				base = srv.URL + "/NorenWClientAPI/"
			}
			c := New(Config{Era: cc.Era, RESTURL: base, Timeout: 5 * time.Second, OrderTimeout: 5 * time.Second})
			a := &Auth{Era: cc.Era, UID: "FA12345", ActID: "FA12345", Token: "tok-123"}
			token, order, rows, status, price, err := cc.call(context.Background(), c, a)

			if !strings.HasSuffix(got.path, "/"+route) {
				t.Fatalf("sent to %s, want route %s", got.path, route)
			}
			switch {
			case !cc.Auth:
				if got.jkey != "" || got.bearer != "" {
					t.Fatalf("login carries a token: jKey %q bearer %q", got.jkey, got.bearer)
				}
			case cc.Era == Legacy:
				if got.jkey != "tok-123" || got.bearer != "" {
					t.Fatalf("legacy: jKey %q bearer %q", got.jkey, got.bearer)
				}
			default:
				if got.bearer != "tok-123" || (got.jkey == "tok-123") != cc.BodyJKey {
					t.Fatalf("oauth: bearer %q jKey %q (want jKey in body: %t)", got.bearer, got.jkey, cc.BodyJKey)
				}
			}
			if cc.RequestKeys != nil {
				var keys []string
				for k := range got.jdata {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				want := slices.Clone(cc.RequestKeys)
				sort.Strings(want)
				if !slices.Equal(keys, want) {
					t.Fatalf("request fields %v, the SDK sends %v", keys, want)
				}
			}
			for k, v := range cc.RequestValues {
				if !sameValue(got.jdata[k], v) {
					t.Errorf("%s = %v, recorded %q", k, got.jdata[k], v)
				}
			}

			x := cc.Expect
			if x.Code != "" {
				if e := envelope.From(err); err == nil || e.Code != x.Code {
					t.Fatalf("want %s, got %v", x.Code, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (x.Token != "" && token != x.Token) || (x.Order != "" && order != x.Order) || (x.Rows != nil && rows != *x.Rows) ||
				(x.Status != "" && status != x.Status) || (x.Price != 0 && price != x.Price) {
				t.Fatalf("decoded token=%q order=%q rows=%d status=%q price=%v; want %+v", token, order, rows, status, price, x)
			}
		})
	}
}
