package tools

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

func checkTokens(ids []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for i, id := range ids {
		if err := client.CheckTokenID(fmt.Sprintf("token_ids[%d]", i), id); err != nil {
			return nil, err
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return nil, envelope.Invalid("token_ids", "token_ids needs at least one CLOB token id (outcomes[].token_id of get_market)")
	}
	return out, nil
}

// BooksIn names the tokens and the summary depth.
type BooksIn struct {
	TokenIDs  []string `json:"token_ids" mcp:"minItems=1;maxItems=20"`
	Depth     int      `json:"depth,omitempty" mcp:"min=1;max=50;default=5"`
	BandCents int      `json:"band_cents,omitempty" mcp:"min=1;max=50;default=2"`
}

// BookOut is one summarised book. Levels are [price, size], best first.
type BookOut struct {
	TokenID     string      `json:"token_id"`
	ConditionID string      `json:"condition_id,omitempty"`
	BestBid     *float64    `json:"best_bid,omitempty"`
	BestAsk     *float64    `json:"best_ask,omitempty"`
	Mid         *float64    `json:"mid,omitempty"`
	Spread      *float64    `json:"spread,omitempty"`
	BidSize     float64     `json:"bid_size_in_band"`
	AskSize     float64     `json:"ask_size_in_band"`
	Bids        [][]float64 `json:"bids"`
	Asks        [][]float64 `json:"asks"`
	BidLevels   int         `json:"bid_levels"`
	AskLevels   int         `json:"ask_levels"`
	TickSize    float64     `json:"tick_size,omitempty"`
	LastTrade   float64     `json:"last_trade,omitempty"`
	Warning     string      `json:"warning,omitempty"`
}

// BooksOut lists the books found and the tokens without one.
type BooksOut struct {
	envelope.Coverage
	Books   []BookOut `json:"books" mcp:"type=object" jsonschema:"bids/asks are [price,size], best first"`
	Missing []string  `json:"missing,omitempty"`
	client.Source
}

func (s *Service) getOrderBooks() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_order_books", Title: "Get order books", Toolset: setTrading, Hints: toolkit.RemoteRead,
		Description: "Order books of 1-20 outcome token ids, summarised: best bid/ask, mid, spread, size within ±band_cents of mid, top depth levels. A stale book that disagrees with get_prices is flagged (warning). Resolved/unknown tokens → missing."},
		limited(s, publicCall, func(ctx context.Context, in BooksIn) (BooksOut, error) {
			ids, err := checkTokens(in.TokenIDs)
			if err != nil {
				return BooksOut{}, err
			}
			depth, band := in.Depth, in.BandCents
			if depth <= 0 {
				depth = 5
			}
			if band <= 0 {
				band = 2
			}
			books, src, err := s.c.Books(ctx, ids)
			if err != nil {
				var e *envelope.Error
				if len(ids) == 1 && asCode(err, &e, envelope.NotFound) {
					return BooksOut{Coverage: noBook, Books: []BookOut{}, Missing: ids}, nil
				}
				return BooksOut{}, err
			}
			// headline prices from /prices: the book can be a stale "ghost"
			// (Polymarket/py-clob-client#180)
			reqs := make([]client.PriceReq, 0, 2*len(ids))
			for _, id := range ids {
				reqs = append(reqs, client.PriceReq{TokenID: id, Side: "BUY"}, client.PriceReq{TokenID: id, Side: "SELL"})
			}
			prices, psrc, perr := s.c.Prices(ctx, reqs)
			out := BooksOut{Books: []BookOut{}, Source: src}
			if perr == nil {
				out.Source = src.Merge(psrc)
			}
			found := map[string]bool{}
			for _, b := range books {
				found[b.AssetID] = true
				bo := summarise(b, depth, float64(band)/100)
				if perr == nil {
					checkGhost(&bo, prices[b.AssetID], float64(b.TickSize))
				}
				out.Books = append(out.Books, bo)
			}
			for _, id := range ids {
				if !found[id] {
					out.Missing = append(out.Missing, id)
				}
			}
			out.Coverage = tokensCoverage(len(out.Books))
			return out, nil
		}))
}

func asCode(err error, e **envelope.Error, code envelope.Code) bool {
	ee := envelope.From(err)
	*e = ee
	return ee.Code == code
}

// summarise takes best bid = max bid and best ask = min ask: the CLOB sends
// bids ascending and asks descending (rs-clob-client#330, py-clob-client#106).
func summarise(b client.Book, depth int, band float64) BookOut {
	bids := append([]client.Level(nil), b.Bids...)
	asks := append([]client.Level(nil), b.Asks...)
	sort.Slice(bids, func(i, j int) bool { return bids[i].Price > bids[j].Price })
	sort.Slice(asks, func(i, j int) bool { return asks[i].Price < asks[j].Price })
	out := BookOut{TokenID: b.AssetID, ConditionID: b.Market, BidLevels: len(bids), AskLevels: len(asks),
		TickSize: float64(b.TickSize), LastTrade: float64(b.LastTradePrice), Bids: levels(bids, depth), Asks: levels(asks, depth)}
	if len(bids) > 0 {
		out.BestBid = ptr(float64(bids[0].Price))
	}
	if len(asks) > 0 {
		out.BestAsk = ptr(float64(asks[0].Price))
	}
	if out.BestBid != nil && out.BestAsk != nil {
		mid := round4((*out.BestBid + *out.BestAsk) / 2)
		out.Mid, out.Spread = &mid, ptr(round4(*out.BestAsk-*out.BestBid))
		for _, l := range bids {
			if mid-float64(l.Price) <= band+1e-9 {
				out.BidSize += float64(l.Size)
			}
		}
		for _, l := range asks {
			if float64(l.Price)-mid <= band+1e-9 {
				out.AskSize += float64(l.Size)
			}
		}
	}
	return out
}

func levels(ls []client.Level, n int) [][]float64 {
	out := [][]float64{}
	for i := 0; i < len(ls) && i < n; i++ {
		out = append(out, []float64{float64(ls[i].Price), float64(ls[i].Size)})
	}
	return out
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// checkGhost compares the book's best prices with /price (BUY = best bid,
// SELL = best ask); more than a tick apart, /price wins and a warning says why.
func checkGhost(b *BookOut, p map[string]float64, tick float64) {
	if p == nil {
		return
	}
	tick = max(tick, 0.001)
	bid, hasBid := p["BUY"]
	ask, hasAsk := p["SELL"]
	off := func(book *float64, v float64, has bool) bool {
		return has && (book == nil || math.Abs(*book-v) > tick+1e-9)
	}
	if !off(b.BestBid, bid, hasBid) && !off(b.BestAsk, ask, hasAsk) {
		return
	}
	b.Warning = "the book disagrees with /price (a known stale \"ghost\" book); best_bid/best_ask/mid come from /price, levels are the book as sent"
	if hasBid {
		b.BestBid = ptr(bid)
	}
	if hasAsk {
		b.BestAsk = ptr(ask)
	}
	if hasBid && hasAsk {
		b.Mid, b.Spread = ptr(round4((bid+ask)/2)), ptr(round4(ask-bid))
	}
}

// noBook is the coverage of tokens the CLOB has no book for: a real
// answer (resolved or unknown tokens), every token asked for accounted for.
var noBook = envelope.Nothing("the CLOB has no book for these tokens (resolved or unknown; see missing)")

// tokensCoverage: every token asked for is answered, with its book or
// prices or in missing; none found says so.
func tokensCoverage(found int) envelope.Coverage {
	if found == 0 {
		return noBook
	}
	return envelope.Whole()
}

// PricesIn names tokens and sides.
type PricesIn struct {
	TokenIDs []string `json:"token_ids" mcp:"minItems=1;maxItems=50"`
	Side     string   `json:"side,omitempty" mcp:"enum=BUY|SELL|BOTH;default=BOTH"`
}

// PriceOut is one token's best prices.
type PriceOut struct {
	TokenID string   `json:"token_id"`
	Bid     *float64 `json:"best_bid,omitempty"`
	Ask     *float64 `json:"best_ask,omitempty"`
}

// PricesOut lists prices and tokens without any.
type PricesOut struct {
	envelope.Coverage
	Prices  []PriceOut `json:"prices" mcp:"type=object" jsonschema:"{token_id, best_bid, best_ask}"`
	Missing []string   `json:"missing,omitempty"`
	client.Source
}

func (s *Service) getPrices() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_prices", Title: "Get best prices", Toolset: setTrading, Hints: toolkit.RemoteRead,
		Description: "Best prices of 1-50 outcome token ids. Side as the CLOB means it: BUY = best bid (highest resting buy: what selling now gets), SELL = best ask (lowest resting sell: what buying now costs). No book → missing."},
		limited(s, publicCall, func(ctx context.Context, in PricesIn) (PricesOut, error) {
			ids, err := checkTokens(in.TokenIDs)
			if err != nil {
				return PricesOut{}, err
			}
			sides := []string{"BUY", "SELL"}
			if in.Side == "BUY" || in.Side == "SELL" {
				sides = []string{in.Side}
			}
			var reqs []client.PriceReq
			for _, id := range ids {
				for _, sd := range sides {
					reqs = append(reqs, client.PriceReq{TokenID: id, Side: sd})
				}
			}
			ps, src, err := s.c.Prices(ctx, reqs)
			if err != nil {
				return PricesOut{}, err
			}
			out := PricesOut{Prices: []PriceOut{}, Source: src}
			for _, id := range ids {
				p, ok := ps[id]
				if !ok || len(p) == 0 {
					out.Missing = append(out.Missing, id)
					continue
				}
				po := PriceOut{TokenID: id}
				if v, ok := p["BUY"]; ok {
					po.Bid = ptr(v)
				}
				if v, ok := p["SELL"]; ok {
					po.Ask = ptr(v)
				}
				out.Prices = append(out.Prices, po)
			}
			out.Coverage = tokensCoverage(len(out.Prices))
			return out, nil
		}))
}

// HistoryIn selects a price history.
type HistoryIn struct {
	TokenID   string `json:"token_id" mcp:"maxLength=100" jsonschema:"outcomes[].token_id of get_market"`
	Interval  string `json:"interval,omitempty" mcp:"enum=1h|6h|1d|1w|1m|max" jsonschema:"ending now; 1m = month"`
	StartTS   int64  `json:"start_ts,omitempty" mcp:"min=1"`
	EndTS     int64  `json:"end_ts,omitempty" mcp:"min=1"`
	Fidelity  int    `json:"fidelity,omitempty" mcp:"min=1;max=10080"`
	MaxPoints int    `json:"max_points,omitempty" mcp:"min=2;max=1000;default=200"`
}

// HistoryOut is a price series ([unix seconds, price]) with a summary over
// every point read (not only the thinned ones shown).
type HistoryOut struct {
	envelope.Coverage
	Points [][]float64 `json:"points"`
	// First, Last, Min, Max are prices (0..1); a price of 0 is shown.
	First *float64 `json:"first,omitempty"`
	Last  *float64 `json:"last,omitempty"`
	Min   *float64 `json:"min,omitempty"`
	Max   *float64 `json:"max,omitempty"`
	// Change is last − first; ChangePct is that over first, in percent
	// (absent when first is 0).
	Change    *float64 `json:"change,omitempty"`
	ChangePct *float64 `json:"change_pct,omitempty"`
	// Window is the [start, end] unix seconds the answer covers; for max it
	// is what Polymarket returned, first point to last.
	Window   []int64 `json:"window"`
	Fidelity int     `json:"fidelity_min,omitempty"`
	Note     string  `json:"note,omitempty"`
	client.Source
}

// intervalSeconds: an interval's window (1m is a month: docs "a duration
// ending at the current time").
var intervalSeconds = map[string]int64{"1h": 3600, "6h": 6 * 3600, "1d": 86400, "1w": 7 * 86400, "1m": 30 * 86400}

// historyPointCap bounds the points read upstream for one answer: a long
// window at a fine fidelity gets a coarser one (15 days at 1 minute is 21,600
// points: the cookbook's measurement).
const historyPointCap = 20000

// maxReachPoints: interval=max answers a bounded number of points ending now
// ("roughly 4,300": polyoxide's spec notes; a cookbook measured 31 days at
// the default fidelity), so an open market's fidelity is chosen for its age
// to keep within 4,000 points and reach its start.
const maxReachPoints = 4000

// resolvedFidelity: a resolved market's interval=max history exists only at
// 12-hour points or coarser; finer answers [] (py-clob-client#216, #189; a
// probe of 2026-09-26 on a resolved 2024 token: fidelity absent, 1 and 60
// gave [], 720 gave 614 points Jan→Nov 2024).
const resolvedFidelity = 720

// ageFidelity is the finest fidelity (minutes) at which interval=max reaches
// back age.
func ageFidelity(age time.Duration) int {
	for _, f := range []int{1, 5, 15, 30, 60, 180, 360, 720, 1440} {
		if int(age.Minutes())/f <= maxReachPoints {
			return f
		}
	}
	return 10080
}

func (s *Service) getPriceHistory() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_price_history", Title: "Get price history", Toolset: setTrading, Hints: toolkit.RemoteRead,
		Description: "Price history of one outcome token: interval (default 1d, ending now; max = the market's whole life) or start_ts/end_ts (≤180 days); fidelity in minutes (raised to the minimum). [unix_s, price] points thinned to max_points; first/last/min/max/change/change_pct of all points; window covered; note: adjustments."},
		limited(s, publicCall, func(ctx context.Context, in HistoryIn) (HistoryOut, error) {
			if err := client.CheckTokenID("token_id", in.TokenID); err != nil {
				return HistoryOut{}, err
			}
			if in.EndTS > 0 && in.StartTS == 0 {
				return HistoryOut{}, envelope.Invalid("start_ts", "end_ts needs start_ts (Polymarket refuses endTs alone); or give interval alone for a window ending now")
			}
			if in.EndTS > 0 && in.EndTS <= in.StartTS {
				return HistoryOut{}, envelope.Invalid("end_ts", "end_ts must be after start_ts")
			}
			now := s.now().Unix()
			if in.StartTS >= now || in.EndTS > now+86400 {
				return HistoryOut{}, envelope.Invalid("start_ts", "start_ts and end_ts are unix seconds in the past (milliseconds are 1000 times too large); now is %d", now)
			}
			var notes []string
			fid := in.Fidelity
			if floor := client.MinFidelity(in.Interval); fid < floor {
				if fid > 0 {
					notes = append(notes, fmt.Sprintf("fidelity raised to %d, Polymarket's minimum for interval %s", floor, in.Interval))
				}
				fid = floor
			}
			h := history{fid: fid, cov: envelope.Whole()}
			var err error
			iv := in.Interval
			switch {
			case in.StartTS > 0:
				end := in.EndTS
				if end == 0 {
					end = now
				}
				err = s.historySpan(ctx, &h, in.TokenID, in.StartTS, end)
			case iv == "max":
				err = s.historyMax(ctx, &h, in.TokenID, in.Fidelity, now)
			default:
				if iv == "" {
					iv = "1d"
				}
				err = s.historyInterval(ctx, &h, in.TokenID, iv, in.Fidelity, now)
			}
			if err != nil {
				return HistoryOut{}, err
			}
			notes = append(notes, h.notes...)
			out := HistoryOut{Coverage: h.cov, Points: [][]float64{}, Window: h.window, Fidelity: h.fid, Source: h.src}
			if out.Window == nil {
				out.Window = []int64{}
			}
			pts := h.pts
			if len(pts) == 0 {
				if len(notes) == 0 {
					notes = append(notes, "no price history in this window; get_market shows whether the market trades (markets before 2023 have no CLOB history)")
				}
				out.Note = strings.Join(notes, "; ")
				if out.Complete {
					out.Coverage = envelope.Nothing("Polymarket answered no points for this window")
				}
				return out, nil
			}
			summarize(&out, pts)
			maxPts := in.MaxPoints
			if maxPts <= 0 {
				maxPts = 200
			}
			step := 1.0
			if len(pts) > maxPts {
				step = float64(len(pts)-1) / float64(maxPts-1)
			}
			for f := 0.0; int(math.Round(f)) < len(pts) && len(out.Points) < maxPts; f += step {
				p := pts[int(math.Round(f))]
				out.Points = append(out.Points, []float64{float64(p.T), float64(p.P)})
			}
			if len(pts) > maxPts {
				notes = append(notes, fmt.Sprintf("%d points thinned to %d (first, last, min, max and change cover all %d)", len(pts), len(out.Points), len(pts)))
			}
			out.Note = strings.Join(notes, "; ")
			return out, nil
		}))
}

// history is what one answer read: points, the window they cover, the
// fidelity asked, its coverage and notes.
type history struct {
	pts    []client.Point
	src    client.Source
	window []int64
	fid    int
	cov    envelope.Coverage
	notes  []string
}

// summarize sets first, last, min, max and the change over every point.
func summarize(out *HistoryOut, pts []client.Point) {
	first, last := float64(pts[0].P), float64(pts[len(pts)-1].P)
	lo, hi := first, first
	for _, p := range pts {
		lo, hi = math.Min(lo, float64(p.P)), math.Max(hi, float64(p.P))
	}
	change := math.Round((last-first)*1e4) / 1e4
	out.First, out.Last, out.Min, out.Max, out.Change = &first, &last, &lo, &hi, &change
	if first != 0 {
		pct := cents((last - first) / first * 100)
		out.ChangePct = &pct
	}
}

// historyInterval reads an interval ending now; a resolved market has no
// points there, so it is served the interval before it closed.
func (s *Service) historyInterval(ctx context.Context, h *history, token, iv string, asked int, now int64) error {
	send := h.fid
	if asked == 0 && h.fid == 1 {
		send = 0 // Polymarket's default, not sent
	}
	pts, src, err := s.c.History(ctx, client.HistoryQuery{Token: token, Interval: iv, Fidelity: send})
	if err != nil {
		return err
	}
	h.pts, h.src, h.window = pts, src, []int64{now - intervalSeconds[iv], now}
	if len(pts) > 0 {
		return nil
	}
	// interval windows end now: a resolved market has no points in them,
	// but its history is reachable with windows before closedTime (the
	// public historical-data cookbook §2.3)
	closedAt, note, err := s.closedMarket(ctx, token)
	if err != nil || note != "" {
		h.notes = append(h.notes, note)
		return err
	}
	end := closedAt.Unix()
	start := end - intervalSeconds[iv]
	h.notes = append(h.notes, fmt.Sprintf("the market closed at %s and interval windows end now, so this is the %s before it closed; interval=max gives its whole life", closedAt.UTC().Format(time.RFC3339), iv))
	return s.historySpan(ctx, h, token, start, end)
}

// historyMax reads a market's whole life. A resolved market is read at
// 12-hour points (finer answers nothing); an open one at the finest
// fidelity whose points reach back to its start; what the CLOB returned
// sets the window, and coverage says when it starts after the market did.
func (s *Service) historyMax(ctx context.Context, h *history, token string, asked int, now int64) error {
	m, msrc, err := s.c.Market(ctx, token)
	var e *envelope.Error
	switch {
	case errors.As(err, &e) && e.Code == envelope.NotFound:
		m = client.Market{} // no Gamma market: ask the CLOB as given
	case err != nil:
		return err
	}
	began, known := client.ParseGammaTime(m.StartDate)
	switch {
	case m.Closed:
		if h.fid < resolvedFidelity {
			if asked > 0 {
				h.notes = append(h.notes, fmt.Sprintf("fidelity raised to %d: for a resolved market Polymarket answers interval=max only at 12-hour points or coarser", resolvedFidelity))
			}
			h.fid = resolvedFidelity
		}
	case known:
		if f := ageFidelity(time.Duration(now-began.Unix()) * time.Second); h.fid < f {
			if asked > 0 {
				h.notes = append(h.notes, fmt.Sprintf("fidelity raised to %d minutes so the points reach the market's start (%s)", f, began.UTC().Format(time.DateOnly)))
			}
			h.fid = f
		}
	}
	pts, src, err := s.c.History(ctx, client.HistoryQuery{Token: token, Interval: "max", Fidelity: h.fid})
	if err != nil {
		return err
	}
	h.pts, h.src = pts, src.Merge(msrc)
	if len(pts) == 0 {
		if m.Closed {
			h.notes = append(h.notes, "Polymarket has no price history for this resolved market at 12-hour points; try start_ts/end_ts before its close")
		}
		return nil
	}
	first, last := int64(pts[0].T), int64(pts[len(pts)-1].T)
	h.window = []int64{first, last}
	h.notes = append(h.notes, fmt.Sprintf("interval max: %s to %s at %d-minute points", time.Unix(first, 0).UTC().Format(time.DateOnly), time.Unix(last, 0).UTC().Format(time.DateOnly), h.fid))
	if known && first > began.Unix()+int64(2*h.fid*60)+86400 {
		h.cov = envelope.Cut(envelope.Windowed,
			fmt.Sprintf("prices from the market's start (%s) to %s: Polymarket's interval=max reached no further at this fidelity", began.UTC().Format(time.DateOnly), time.Unix(first, 0).UTC().Format(time.DateOnly)),
			"call get_price_history with start_ts/end_ts before "+strconv.FormatInt(first, 10)+", or a coarser fidelity")
	}
	return nil
}

// closedMarket finds the token's market and when it closed; note explains
// why there is nothing to read before a close.
func (s *Service) closedMarket(ctx context.Context, token string) (time.Time, string, error) {
	m, _, err := s.c.Market(ctx, token)
	if err != nil {
		var e *envelope.Error
		if errors.As(err, &e) && e.Code == envelope.NotFound {
			return time.Time{}, "no price history, and no Gamma market lists this token; check the id with get_market", nil
		}
		return time.Time{}, "", err
	}
	if !m.Closed {
		return time.Time{}, "no price history in this window (the market is open: it may not have traded yet)", nil
	}
	at, ok := client.ParseGammaTime(m.ClosedTime)
	if !ok {
		at, ok = client.ParseGammaTime(m.EndDate)
	}
	if !ok {
		return time.Time{}, "the market is closed and Gamma gives no closedTime; pass start_ts/end_ts before it closed", nil
	}
	return at, "", nil
}

// historySpan reads [start, end] in windows of at most 15 days
// (Polymarket's longest), at a fidelity coarse enough to stay within
// historyPointCap, and says what it did.
func (s *Service) historySpan(ctx context.Context, h *history, token string, start, end int64) error {
	if mins := (end - start) / 60; mins/int64(h.fid) > historyPointCap {
		h.fid = int(mins/historyPointCap) + 1
		h.notes = append(h.notes, fmt.Sprintf("fidelity raised to %d minutes to keep within %d points", h.fid, historyPointCap))
	}
	sp, err := s.c.HistorySpan(ctx, token, start, end, h.fid)
	if err != nil {
		return err
	}
	h.pts, h.src, h.window = sp.Points, h.src.Merge(sp.Src), []int64{start, end}
	if sp.Windows > 1 {
		h.notes = append(h.notes, fmt.Sprintf("read as %d windows of up to 15 days (Polymarket's longest) and joined", sp.Windows))
	}
	if sp.Truncated {
		from := end - client.MaxHistoryChunks*client.MaxHistoryWindow
		h.window[0] = from
		h.cov = envelope.Cut(envelope.Windowed, fmt.Sprintf("the window before %d: one call reads at most %d days (%d windows)", from, client.MaxHistoryChunks*15, client.MaxHistoryChunks),
			fmt.Sprintf("call get_price_history again with end_ts=%d for the earlier part", from))
	}
	return nil
}
