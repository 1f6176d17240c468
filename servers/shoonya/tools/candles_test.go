package tools_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// candleNow pins the candle tests' clock (server and fake alike) to a fixed,
// documented instant: Friday 2026-12-04, 16:00 IST, after the NSE close, so
// the number of candles in a window is known whatever day the tests run.
const candleNow = "2026-12-04T16:00:00+05:30"

// candleEnv is a quiet OAuth env at candleNow whose REST calls go through a
// counting proxy, so a test sees how many chart requests reached the broker.
func candleEnv(t *testing.T, cfg fake.Config) (*env, *countingProxy) {
	t.Helper()
	t.Setenv("MCPFLEET_FAKE_NOW", candleNow)
	cfg.TickInterval = -1
	cfg.RateLimit.Disabled = true
	proxy := newCountingProxy(t)
	e := newEnv(t, noren.OAuth, envOpt{cfg: cfg, extra: map[string]string{"SHOONYA_REST_URL": proxy.url + fake.PathOAuthREST}})
	h := e.fake.Handler()
	proxy.target.Store(&h)
	e.connect()
	return e, proxy
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// nseCandles is how many step-minute NSE candles start in [from, to): one
// every step minutes from 09:15 until 15:30 on each trading day (the fake's
// session, NSE's hours).
func nseCandles(from, to time.Time, step int) int {
	n := 0
	for day := time.Date(from.In(tools.IST).Year(), from.In(tools.IST).Month(), from.In(tools.IST).Day(), 0, 0, 0, 0, tools.IST); day.Before(to); day = day.AddDate(0, 0, 1) {
		if !fake.TradingDay(day) {
			continue
		}
		for m := 9*60 + 15; m < 15*60+30; m += step {
			if t0 := day.Add(time.Duration(m) * time.Minute); !t0.Before(from) && t0.Before(to) {
				n++
			}
		}
	}
	return n
}

// checkSeries: oldest first, no candle twice, all inside [from, to).
func checkSeries(t *testing.T, out tools.SeriesOut, from, to time.Time) {
	t.Helper()
	prev := ""
	for _, c := range out.Candles {
		if c.Time <= prev {
			t.Fatalf("candles not strictly ascending: %s after %s", c.Time, prev)
		}
		prev = c.Time
		at, err := time.Parse(time.RFC3339, c.Time)
		if err != nil || at.Before(from) || !at.Before(to) {
			t.Fatalf("candle at %s outside [%s, %s)", c.Time, from, to)
		}
	}
}

// Each interval at the edge of its window (the table in candles.go, from
// marketcalls/openalgo broker/shoonya/api/data.py): a range exactly one
// window long is one TPSeries request; one hour more is two, merged
// without losing or repeating a candle. 240 minutes' window is the year the
// broker keeps, so one hour more is flagged as windowed instead.
func TestCandleWindowsPerInterval(t *testing.T) {
	e, proxy := candleEnv(t, fake.Config{})
	to := mustTime(t, candleNow)
	windows := map[string]int{"1": 5, "3": 10, "5": 20, "10": 40, "15": 60, "30": 90, "60": 180, "120": 180, "240": 365}
	for _, iv := range []string{"1", "3", "5", "10", "15", "30", "60", "120", "240"} {
		var step int
		fmt.Sscan(iv, &step)
		for _, extra := range []time.Duration{0, time.Hour} {
			from := to.Add(-time.Duration(windows[iv])*24*time.Hour - extra)
			if iv == "240" && extra == 0 {
				// The server's clock runs on from candleNow, so a year
				// back from it is a little more than the year it keeps.
				from = from.Add(time.Minute)
			}
			before := proxy.count("TPSeries")
			out := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885",
				"interval": iv, "from": from.Format(time.RFC3339), "to": to.Format(time.RFC3339)}))
			sent := proxy.count("TPSeries") - before
			name := fmt.Sprintf("interval %s, window+%v", iv, extra)
			wantSent := 1
			if extra > 0 && iv != "240" {
				wantSent = 2
			}
			if sent != wantSent {
				t.Fatalf("%s: %d TPSeries requests, want %d", name, sent, wantSent)
			}
			checkSeries(t, out, from, to)
			if want := nseCandles(from, to, step); len(out.Candles) != want || want == 0 {
				t.Fatalf("%s: %d candles, want %d", name, len(out.Candles), want)
			}
			switch {
			case extra > 0 && iv == "240":
				if out.Complete || out.Incomplete.Reason != envelope.Windowed || !strings.Contains(out.Incomplete.Next, "interval day") {
					t.Fatalf("%s: %+v", name, out.Coverage)
				}
			case !out.Complete:
				t.Fatalf("%s: %+v", name, out.Incomplete)
			}
		}
	}
}

// A range longer than one result holds comes back cut to the newest 2,000
// candles, saying what is missing and the call that gets it; that call gets
// the older part and nothing twice.
func TestCandlesCutSayHowToGetTheRest(t *testing.T) {
	e, _ := candleEnv(t, fake.Config{})
	to := mustTime(t, candleNow)
	from := to.AddDate(0, 0, -14)
	out := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885",
		"interval": "1", "from": from.Format(time.RFC3339)}))
	if out.Complete || out.Incomplete.Reason != envelope.Truncated || len(out.Candles) != 2000 {
		t.Fatalf("%d candles, %+v", len(out.Candles), out.Coverage)
	}
	first := out.Candles[0].Time
	if !strings.Contains(out.Incomplete.Next, "to="+first) || !strings.Contains(out.Incomplete.Missing, first) {
		t.Fatalf("next %q missing %q, first candle %s", out.Incomplete.Next, out.Incomplete.Missing, first)
	}
	rest := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885",
		"interval": "1", "from": from.Format(time.RFC3339), "to": first}))
	checkSeries(t, rest, from, mustTime(t, first))
	if got, want := len(out.Candles)+len(rest.Candles), nseCandles(from, to, 1); got != want {
		t.Fatalf("both calls: %d candles, want %d (%+v)", got, want, rest.Coverage)
	}
}

// The 504 answer: when a request makes more candles than the broker answers
// (here the fake times out past 800), the tool halves the window and asks
// again instead of telling the model to try again, and the result is whole.
// A broker that times out even for an hour is slow, and is said to be so.
func TestCandles504HalvesTheWindow(t *testing.T) {
	e, proxy := candleEnv(t, fake.Config{TPSeriesMaxCandles: 800})
	to := mustTime(t, candleNow)
	from := to.AddDate(0, 0, -5)
	out := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885",
		"interval": "1", "from": from.Format(time.RFC3339)}))
	checkSeries(t, out, from, to)
	if want := nseCandles(from, to, 1); !out.Complete || len(out.Candles) != want {
		t.Fatalf("%d candles, want %d; %+v", len(out.Candles), want, out.Coverage)
	}
	if n := proxy.count("TPSeries"); n < 2 {
		t.Fatalf("%d TPSeries requests: no smaller window was tried", n)
	}

	slow, _ := candleEnv(t, fake.Config{})
	slow.fake.SetFault("TPSeries", fake.Fault{Kind: fake.FaultStatus, Status: 504, Body: `{"stat":"Not_Ok","emsg":"Server Timeout :  "}`})
	b := servetest.ErrorBody(t, slow.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885",
		"interval": "5", "from": to.AddDate(0, 0, -1).Format(time.RFC3339)}))
	if b.Code != envelope.UpstreamUnavailable || !b.Retryable || !strings.Contains(b.Message, "not the cause") {
		t.Fatalf("%+v", b)
	}
}

// Fifteen years of daily bars: fetched in two-year requests (each under
// EODChartData's silent 1,201-row cap), every bar once and dated by its
// trade date, and flagged as starting where the broker's daily store starts.
func TestDailyFifteenYears(t *testing.T) {
	e, proxy := candleEnv(t, fake.Config{})
	to := mustTime(t, candleNow)
	from := to.AddDate(-15, 0, 0)
	out := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885",
		"trading_symbol": "RELIANCE-EQ", "interval": "day", "from": from.Format("2006-01-02")}))
	if n := proxy.count("EODChartData"); n < 8 {
		t.Fatalf("%d EODChartData requests for 15 years, want one per two years", n)
	}
	first := time.Date(2021, 8, 2, 0, 0, 0, 0, tools.IST) // the fake's first daily bar (fake.Config.EODFirstDay)
	want := 0
	for d := first; d.Before(to); d = d.AddDate(0, 0, 1) {
		if fake.TradingDay(d) && d.Before(time.Date(2026, 12, 4, 0, 0, 0, 0, tools.IST)) {
			want++
		}
	}
	if len(out.Candles) != want || want <= 1201 {
		t.Fatalf("%d daily bars, want %d (more than one EODChartData answer holds)", len(out.Candles), want)
	}
	prev := ""
	for _, c := range out.Candles {
		d, err := time.ParseInLocation("2006-01-02", c.Time, tools.IST)
		if err != nil || !fake.TradingDay(d) || c.Time <= prev {
			t.Fatalf("daily bar time %q after %q", c.Time, prev)
		}
		prev = c.Time
	}
	if out.Candles[0].Time != "2021-08-02" || out.Candles[len(out.Candles)-1].Time != "2026-12-03" {
		t.Fatalf("bars from %s to %s", out.Candles[0].Time, out.Candles[len(out.Candles)-1].Time)
	}
	if out.Complete || out.Incomplete.Reason != envelope.Windowed || !strings.Contains(out.Incomplete.Missing, "2021-08-02") {
		t.Fatalf("%+v", out.Coverage)
	}
}
