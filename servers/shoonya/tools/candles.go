package tools

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// SeriesIn is get_time_price_series' input.
type SeriesIn struct {
	Exchange      string `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	Token         string `json:"token" jsonschema:"from search_scrip" mcp:"pattern=^[0-9A-Za-z]{1,20}$"`
	TradingSymbol string `json:"trading_symbol,omitempty" jsonschema:"for day bars; default from token" mcp:"maxLength=64"`
	Interval      string `json:"interval,omitempty" jsonschema:"minutes, or day" mcp:"enum=1|3|5|10|15|30|60|120|240|day;default=5"`
	From          string `json:"from" jsonschema:"ISO 8601 date/time, IST if no zone" mcp:"minLength=10;maxLength=40"`
	To            string `json:"to,omitempty" jsonschema:"default now" mcp:"maxLength=40"`
}

// Candle is one normalised candle. A daily candle's time is its trade date
// (2026-12-04); an intraday one's is its start in IST (RFC 3339).
type Candle struct {
	Time         string  `json:"time"`
	Open         float64 `json:"open"`
	High         float64 `json:"high"`
	Low          float64 `json:"low"`
	Close        float64 `json:"close"`
	Volume       float64 `json:"volume"`
	OpenInterest float64 `json:"open_interest,omitempty"`
}

// SeriesOut is get_time_price_series' result.
type SeriesOut struct {
	envelope.Coverage
	Interval string   `json:"interval"`
	Candles  []Candle `json:"candles"`
}

// The broker's limits on one chart request, in one table. Each request of a
// call spans at most its interval's window; a longer range is fetched in
// several requests (newest first), merged and de-duplicated.
//
// Intraday (TPSeries) windows, calendar days per request: source:
// marketcalls/openalgo broker/shoonya/api/data.py _get_history_chunk_seconds
// ("Shoonya returns 504 Server Timeout when the range produces too many
// candles in a single call"; 1m, 5m and 15m checked against the live API in
// 2026-08, the others are openalgo's extrapolation). The limit is a count of
// candles, not of days (Shoonya-Dev/ShoonyaApi-py#58), so a 504 on
// a window from this table (an MCX session is longer than NSE's) halves it and
// asks again.
var intradayWindowDays = map[string]int{
	"1": 5, "3": 10, "5": 20, "10": 40, "15": 60, "30": 90, "60": 180, "120": 180, "240": 365,
}

const (
	// dailyWindow: EODChartData answers at most the newest eodMaxRows rows of
	// a range and drops the older ones silently; two years (about 500 trading
	// days) per request stays under it. source: marketcalls/openalgo
	// broker/shoonya/api/data.py ("D": 2*365 days; "EODChartData silently
	// truncates to the newest 1201 rows").
	dailyWindow = 2 * 365 * 24 * time.Hour
	eodMaxRows  = 1201
	// intradayDepth: the broker keeps intraday candles for about a year
	// (Shoonya-Dev/ShoonyaApi-py#58: two years asked, the last one
	// returned; Shoonya-Dev/ShoonyaApi-py#215, January 2026: nothing before 17 March 2025).
	intradayDepth = 365 * 24 * time.Hour
	// maxCandles bounds one result (about 60k tokens): five NSE sessions of
	// 1-minute candles (1,875) fit; more is cut and says how to get the rest.
	maxCandles = 2000
	// maxChartRequests bounds the broker requests of one call (its budget is
	// 200 a minute, ShoonyaApi-py README), halvings after a 504 included.
	maxChartRequests = 24
	// minChartWindow: a request this short that still times out is the
	// broker being slow, not the window being too long.
	minChartWindow = time.Hour
	// dailyStartSlack: a first daily bar later than from by more than this
	// (more than a long holiday) means the broker holds nothing older.
	dailyStartSlack = 10 * 24 * time.Hour
)

func parseWhen(field, s string, def time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, nil
	}
	for _, l := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.ParseInLocation(l, s, IST); err == nil {
			return t, nil
		}
	}
	return time.Time{}, envelope.Invalid(field, "%s must be an ISO 8601 date or date-time like 2026-11-20 or 2026-11-20T09:15:00+05:30", field)
}

func timePriceSeriesTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_time_price_series", Title: "Candles", Toolset: "market",
		Description: "OHLCV candles oldest first: intraday (1y back) or daily (interval day); 2000/call.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in SeriesIn) (SeriesOut, error) {
		iv := defaultStr(in.Interval, "5")
		now := d.now()
		from, err := parseWhen("from", in.From, time.Time{})
		if err != nil {
			return SeriesOut{}, err
		}
		to, err := parseWhen("to", in.To, now)
		if err != nil {
			return SeriesOut{}, err
		}
		if to.After(now) {
			to = now
		}
		if !to.After(from) {
			return SeriesOut{}, envelope.Invalid("to", "to must be after from (and from not in the future)")
		}
		exch := strings.ToUpper(in.Exchange)
		if iv == "day" {
			return dailySeries(ctx, d, exch, in, from, to)
		}
		return intradaySeries(ctx, d, exch, in.Token, iv, from, to, now)
	})
}

// chartFetch is one request of a chart read: the candles in [st, et].
type chartFetch func(ctx context.Context, a *noren.Auth, st, et time.Time) ([]noren.Candle, error)

// chartPlan is a chunked read of [from, to], newest request first.
type chartPlan struct {
	op       string        // the broker route, for messages
	what     string        // "5-minute candles", for messages
	from, to time.Time     // what to cover
	window   time.Duration // one request's span, halved after a 504
	// cut reports whether a request answered as much as the broker answers
	// at most (so the rest of its span was dropped and it must be split).
	cut func(rows int) bool
	// halve504: a 504 means too many candles (TPSeries), so a shorter
	// window is tried; EODChartData cuts silently instead (cut).
	halve504 bool
	fetch    chartFetch
	key      func(noren.Candle) string // de-duplication key
}

// chartRun is what a plan fetched: the candles, the oldest instant covered
// (everything in [covered, to] was asked for and answered) and, when it
// stopped early, why.
type chartRun struct {
	candles  []noren.Candle
	covered  time.Time
	window   time.Duration // the window that worked last
	stopped  error         // a failed request after others had answered
	budget   bool          // maxChartRequests or maxCandles reached
	requests int
}

func (p chartPlan) run(ctx context.Context, d *Deps) (chartRun, error) {
	r := chartRun{covered: p.to, window: p.window}
	seen := map[string]bool{}
	end := p.to
	for end.After(p.from) {
		if r.requests >= maxChartRequests || len(r.candles) >= maxCandles {
			r.budget = true
			break
		}
		st := end.Add(-r.window)
		if st.Before(p.from) {
			st = p.from
		}
		r.requests++
		rows, err := do(ctx, d, func(a *noren.Auth) ([]noren.Candle, error) { return p.fetch(ctx, a, st, end) })
		tooMany := (p.halve504 && noren.IsServerTimeout(err)) || (err == nil && p.cut != nil && p.cut(len(rows)))
		if tooMany && end.Sub(st) >= 2*minChartWindow {
			// Too many candles for one request: the same window again would
			// fail again; half of it may not.
			r.window = end.Sub(st) / 2
			continue
		}
		if err != nil {
			if p.halve504 && noren.IsServerTimeout(err) {
				said, _ := envelope.From(err).Details["broker_message"].(string)
				err = envelope.New(envelope.UpstreamUnavailable,
					"%s: Shoonya timed out (504 Server Timeout) even for %s of %s, so the window is not the cause: the broker is slow now; try again in a minute",
					p.op, spanWords(end.Sub(st)), p.what).WithRetryable(true).WithRetryAfter(time.Minute).
					WithDetail("window_from", st.In(IST).Format(time.RFC3339)).WithDetail("window_to", end.In(IST).Format(time.RFC3339)).WithDetail("broker_message", said)
			}
			if len(r.candles) == 0 || envelope.From(err).Code == envelope.Unauthenticated {
				return chartRun{}, err
			}
			r.stopped = err
			break
		}
		for _, c := range rows {
			if c.Open == 0 && c.High == 0 && c.Low == 0 && c.Close == 0 {
				continue // Noren pads with all-zero candles (openalgo)
			}
			if k := p.key(c); !seen[k] {
				seen[k] = true
				r.candles = append(r.candles, c)
			}
		}
		r.covered, end = st, st
	}
	return r, nil
}

// spanWords is a request span for people: "5 days", "7.5 hours".
func spanWords(s time.Duration) string {
	if s >= 48*time.Hour {
		return fmt.Sprintf("%s days", trimFloat(s.Hours()/24))
	}
	return fmt.Sprintf("%s hours", trimFloat(s.Hours()))
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", f), "0"), ".")
}

func intradaySeries(ctx context.Context, d *Deps, exch, token, iv string, from, to, now time.Time) (SeriesOut, error) {
	oldest := now.Add(-intradayDepth)
	if !to.After(oldest) {
		return SeriesOut{}, envelope.Invalid("from", "intraday candles go back about a year (to %s); %s to %s is older. Use interval day for older candles",
			oldest.In(IST).Format("2006-01-02"), from.In(IST).Format("2006-01-02"), to.In(IST).Format("2006-01-02")).WithDetail("window_days", 365)
	}
	askedFrom := from
	if from.Before(oldest) {
		from = oldest
	}
	days := intradayWindowDays[iv]
	plan := chartPlan{op: "TPSeries", what: iv + "-minute candles", from: from, to: to,
		window: time.Duration(days) * 24 * time.Hour, halve504: true,
		fetch: func(ctx context.Context, a *noren.Auth, st, et time.Time) ([]noren.Candle, error) {
			return d.client().TPSeries(ctx, a, exch, token, st.Unix(), et.Unix(), iv)
		},
		key: candleTime}
	r, err := plan.run(ctx, d)
	if err != nil {
		return SeriesOut{}, err
	}
	out := SeriesOut{Interval: iv, Candles: make([]Candle, 0, len(r.candles))}
	for _, c := range r.candles {
		out.Candles = append(out.Candles, candleView(c, candleTime(c)))
	}
	cov := finish(&out, r, plan, iv+"-minute", days)
	if cov == nil && askedFrom.Before(from) {
		c := envelope.Cut(envelope.Windowed,
			fmt.Sprintf("candles from %s to %s: Shoonya keeps intraday candles for about a year", askedFrom.In(IST).Format("2006-01-02"), from.In(IST).Format("2006-01-02T15:04")),
			"call get_time_price_series with interval day for older candles")
		cov = &c
	}
	return withCoverage(out, cov, "Shoonya answered \"no data\" for this window (no trading, or older than it keeps)"), nil
}

func dailySeries(ctx context.Context, d *Deps, exch string, in SeriesIn, from, to time.Time) (SeriesOut, error) {
	tsym := in.TradingSymbol
	if tsym == "" {
		q, err := do(ctx, d, func(a *noren.Auth) (noren.Quote, error) { return d.client().GetQuotes(ctx, a, exch, in.Token) })
		if err != nil {
			return SeriesOut{}, err
		}
		tsym = q.TSym
	}
	plan := chartPlan{op: "EODChartData", what: "daily candles", from: from, to: to, window: dailyWindow,
		cut: func(rows int) bool { return rows >= eodMaxRows },
		fetch: func(ctx context.Context, a *noren.Auth, st, et time.Time) ([]noren.Candle, error) {
			return d.client().EODChartData(ctx, a, exch+":"+tsym, st.Unix(), et.Unix())
		},
		key: tradeDate}
	r, err := plan.run(ctx, d)
	if err != nil {
		return SeriesOut{}, err
	}
	out := SeriesOut{Interval: "day", Candles: make([]Candle, 0, len(r.candles))}
	for _, c := range r.candles {
		out.Candles = append(out.Candles, candleView(c, tradeDate(c)))
	}
	cov := finish(&out, r, plan, "daily", int(dailyWindow.Hours()/24))
	if cov == nil && len(out.Candles) > 0 {
		first, _ := time.ParseInLocation("2006-01-02", out.Candles[0].Time, IST)
		if first.Sub(from) > dailyStartSlack {
			c := envelope.Cut(envelope.Windowed,
				fmt.Sprintf("daily bars from %s to %s: Shoonya's first daily bar for %s is %s (its daily history reportedly starts in August 2021, or the instrument listed later)",
					from.In(IST).Format("2006-01-02"), first.AddDate(0, 0, -1).Format("2006-01-02"), tsym, out.Candles[0].Time),
				"Shoonya holds nothing older; another data source is needed for those years")
			cov = &c
		}
	}
	return withCoverage(out, cov, "Shoonya answered \"no data\" for this window (no trading, or older than it keeps)"), nil
}

// finish sorts out's candles oldest first, keeps the newest maxCandles and
// says what a plan that stopped early did not cover (nil: all of it).
func finish(out *SeriesOut, r chartRun, p chartPlan, what string, windowDays int) *envelope.Coverage {
	sort.SliceStable(out.Candles, func(i, j int) bool { return out.Candles[i].Time < out.Candles[j].Time })
	covered := r.covered.In(IST).Format(time.RFC3339)
	cut := false
	if n := len(out.Candles); n > maxCandles {
		out.Candles = out.Candles[n-maxCandles:]
		covered, cut = out.Candles[0].Time, true
	}
	if !cut && !r.budget && r.stopped == nil {
		return nil
	}
	missing := fmt.Sprintf("%s candles from %s to %s", what, p.from.In(IST).Format(time.RFC3339), covered)
	window := ""
	if r.window < time.Duration(windowDays)*24*time.Hour {
		window = fmt.Sprintf("; Shoonya answered at most %s of them per request just now", spanWords(r.window))
	}
	next := fmt.Sprintf("call get_time_price_series again with the same from and to=%s (at most %d candles per call%s)", covered, maxCandles, window)
	if r.stopped != nil {
		c := envelope.Cut(envelope.Partial, missing+" (a request failed: "+envelope.From(r.stopped).Message+")", next)
		return &c
	}
	c := envelope.Cut(envelope.Truncated, missing, next)
	return &c
}

func withCoverage(out SeriesOut, cov *envelope.Coverage, empty string) SeriesOut {
	switch {
	case cov != nil:
		out.Coverage = *cov
	case len(out.Candles) == 0:
		out.Coverage = envelope.Nothing(empty)
	default:
		out.Coverage = envelope.Whole()
	}
	return out
}

func candleView(c noren.Candle, when string) Candle {
	return Candle{Time: when, Open: float64(c.Open), High: float64(c.High), Low: float64(c.Low), Close: float64(c.Close),
		Volume: float64(c.Volume), OpenInterest: float64(c.OI)}
}

// candleTime is an intraday candle's start: ssboe (epoch seconds), else
// its "DD-MM-YYYY HH:MM:SS" time in IST.
func candleTime(c noren.Candle) string {
	if t, ok := parseNorenTime(string(c.SSBoE)); ok && c.SSBoE != "" {
		return t.Format(time.RFC3339)
	}
	return norenTime(c.Time)
}

// tradeDate is a daily bar's trade date. EODChartData rows carry it as
// "21-SEP-2022", and ssboe as 00:00 UTC of that day (ShoonyaApi-py README
// EODChartData sample), which read in IST would be 05:30 of the same date:
// the date is what a daily bar means, so it is all a daily candle carries.
func tradeDate(c noren.Candle) string {
	if t, ok := parseNorenTime(c.Time); ok && strings.TrimSpace(c.Time) != "" {
		return t.Format("2006-01-02")
	}
	if t, ok := parseNorenTime(string(c.SSBoE)); ok && c.SSBoE != "" {
		return t.UTC().Format("2006-01-02")
	}
	return c.Time
}
