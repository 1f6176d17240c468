package tools

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// SearchIn is search_scrip's input.
type SearchIn struct {
	Exchange string `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	Text     string `json:"search_text" jsonschema:"e.g. RELIANCE, 'NIFTY NOV CE'" mcp:"minLength=1;maxLength=64"`
}

// Instrument is one search hit: a row of search_scrip's table (cols once,
// then rows of values, the 30% list budget of docs/benchmarks.md); "" is no option type. No
// strike column: SearchScrip rows carry no strprc (ShoonyaApi-py README); an
// option's strike ends its trading symbol.
type Instrument struct {
	TradingSymbol string  `json:"trading_symbol"`
	Token         string  `json:"token"`
	LotSize       float64 `json:"lot_size"`
	TickSize      float64 `json:"tick_size"`
	Instrument    string  `json:"instrument_type"`
	OptionType    string  `json:"option_type"`
}

// SearchOut is search_scrip's result.
type SearchOut struct {
	envelope.Coverage
	Cols []string `json:"cols" jsonschema:"trading_symbol,token,lot_size,tick_size,instrument_type,option_type"`
	Rows [][]any  `json:"rows" mcp:"type=array"`
}

func searchOut(list []noren.Scrip) SearchOut {
	hits := make([]Instrument, len(list))
	for i, s := range list {
		hits[i] = scripView(s)
	}
	var out SearchOut
	out.Cols, out.Rows = toolkit.Tabulate(hits)
	// assumed: SearchScrip has no paging or count (ShoonyaApi-py README), so
	// its "values" are taken as every match it has; none is "No Data :  ".
	out.Coverage = envelope.Whole()
	if len(hits) == 0 {
		out.Coverage = envelope.Nothing("Shoonya answered \"No Data\": nothing matches this text on this exchange")
	}
	if out.Rows == nil {
		out.Rows = [][]any{}
	}
	return out
}

// List decodes the rows back into instruments (for Go callers and tests); a
// malformed table gives none.
func (o SearchOut) List() []Instrument {
	l, _ := toolkit.Untabulate[Instrument](o.Cols, o.Rows)
	return l
}

func searchScripTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "search_scrip", Title: "Search instruments", Toolset: "market",
		Description: "Find instruments by name on one exchange (a table, see cols). " +
			"Use first: trading_symbol for orders, token for quotes, candles and feeds.",
		Hints: toolkit.RemoteRead,
	}, func(ctx context.Context, in SearchIn) (SearchOut, error) {
		exch := strings.ToUpper(in.Exchange)
		// Served from the cache for ScripTTL (see scripcache.go).
		out, _, err := d.scrips().Get(ctx, scripKey(ctx, exch, in.Text), func(ctx context.Context) (SearchOut, error) {
			list, err := do(ctx, d, func(a *noren.Auth) ([]noren.Scrip, error) {
				return d.client().SearchScrip(ctx, a, exch, in.Text)
			})
			if err != nil {
				return SearchOut{}, err
			}
			return searchOut(list), nil
		})
		return out, err
	})
}

// QuoteIn is get_quotes' input.
type QuoteIn struct {
	Exchange string `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	Token    string `json:"token" jsonschema:"from search_scrip; NSE 26000 Nifty 50, 26009 Bank Nifty" mcp:"pattern=^[0-9A-Za-z]{1,20}$"`
}

// Depth is one side's level.
type Depth struct {
	Price    float64 `json:"price"`
	Quantity float64 `json:"quantity"`
}

// QuoteOut is one instrument's quote.
type QuoteOut struct {
	Exchange      string  `json:"-"` // the request's echo
	Token         string  `json:"-"`
	TradingSymbol string  `json:"trading_symbol"`
	Name          string  `json:"name,omitempty"`
	LastPrice     float64 `json:"last_price"`
	Open          float64 `json:"open"`
	High          float64 `json:"high"`
	Low           float64 `json:"low"`
	Close         float64 `json:"previous_close"`
	ChangePct     float64 `json:"change_percent"`
	AveragePrice  float64 `json:"average_price"`
	Volume        float64 `json:"volume"`
	OpenInterest  float64 `json:"open_interest"`
	UpperCircuit  float64 `json:"upper_circuit"`
	LowerCircuit  float64 `json:"lower_circuit"`
	LotSize       float64 `json:"lot_size"`
	TickSize      float64 `json:"tick_size"`
	LastTradeQty  float64 `json:"last_trade_quantity"`
	LastTradeTime string  `json:"last_trade_time,omitempty"`
	Bids          []Depth `json:"bids" jsonschema:"{price, quantity}, best first" mcp:"type=object"`
	Asks          []Depth `json:"asks" mcp:"type=object"`
}

func quoteView(q noren.Quote) QuoteOut {
	out := QuoteOut{Exchange: q.Exch, Token: q.Token, TradingSymbol: q.TSym, Name: q.CName, LastPrice: float64(q.LP),
		Open: float64(q.Open), High: float64(q.High), Low: float64(q.Low), Close: float64(q.Close),
		AveragePrice: float64(q.AvgPrice), Volume: float64(q.Volume), OpenInterest: float64(q.OI),
		UpperCircuit: float64(q.Upper), LowerCircuit: float64(q.Lower), LotSize: float64(q.LotSize),
		TickSize: float64(q.TickSize), LastTradeQty: float64(q.LTQ), LastTradeTime: q.LTT}
	if q.Close > 0 && q.LP > 0 {
		out.ChangePct = math.Round(float64((q.LP-q.Close)/q.Close)*10000) / 100
	}
	bp := []noren.Num{q.BP1, q.BP2, q.BP3, q.BP4, q.BP5}
	bq := []noren.Num{q.BQ1, q.BQ2, q.BQ3, q.BQ4, q.BQ5}
	sp := []noren.Num{q.SP1, q.SP2, q.SP3, q.SP4, q.SP5}
	sq := []noren.Num{q.SQ1, q.SQ2, q.SQ3, q.SQ4, q.SQ5}
	out.Bids, out.Asks = []Depth{}, []Depth{}
	for i := range 5 {
		if bp[i] > 0 || bq[i] > 0 {
			out.Bids = append(out.Bids, Depth{float64(bp[i]), float64(bq[i])})
		}
		if sp[i] > 0 || sq[i] > 0 {
			out.Asks = append(out.Asks, Depth{float64(sp[i]), float64(sq[i])})
		}
	}
	return out
}

func quotesTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_quotes", Title: "Quote", Toolset: "market",
		Description: "Snapshot quote of one instrument: last price, OHLC, change, volume, OI, circuits, 5-level depth. " +
			"Streaming: subscribe_market_feeds. Errors: not_found (unknown token).",
		Hints: toolkit.RemoteRead,
	}, func(ctx context.Context, in QuoteIn) (QuoteOut, error) {
		q, err := do(ctx, d, func(a *noren.Auth) (noren.Quote, error) {
			return d.client().GetQuotes(ctx, a, strings.ToUpper(in.Exchange), in.Token)
		})
		if err != nil {
			return QuoteOut{}, err
		}
		return quoteView(q), nil
	})
}

// ChainIn is get_option_chain's input.
type ChainIn struct {
	Exchange      string  `json:"exchange" mcp:"enum=NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol string  `json:"trading_symbol" jsonschema:"option/future, or NIFTY (nearest expiry)" mcp:"minLength=1;maxLength=64"`
	StrikePrice   float64 `json:"strike_price,omitempty" jsonschema:"centre; default at the money" mcp:"min=0.01"`
	Count         int     `json:"strike_count,omitempty" jsonschema:"each side" mcp:"min=1;max=25;default=5"`
}

// Leg is one option with its quote.
type Leg struct {
	TradingSymbol string  `json:"trading_symbol"`
	Token         string  `json:"token"`
	LastPrice     float64 `json:"last_price"`
	ChangePct     float64 `json:"change_percent"`
	Volume        float64 `json:"volume"`
	OpenInterest  float64 `json:"open_interest"`
	Bid           float64 `json:"bid"`
	Ask           float64 `json:"ask"`
	LotSize       float64 `json:"lot_size"`
	QuoteError    string  `json:"quote_error,omitempty"`
}

// ChainRow is one strike with call and put side by side.
type ChainRow struct {
	Strike float64 `json:"strike"`
	Call   *Leg    `json:"call,omitempty"`
	Put    *Leg    `json:"put,omitempty" jsonschema:"as call" mcp:"type=object"`
}

// ChainOut is get_option_chain's result.
type ChainOut struct {
	envelope.Coverage
	Exchange string     `json:"-"` // the request's echo
	Contract string     `json:"contract,omitempty"`
	Rows     []ChainRow `json:"rows"`
	Legs     int        `json:"legs_quoted"`
}

func optionChainTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_option_chain", Title: "Option chain", Toolset: "market",
		Description: "Option chain with live quotes, call and put per strike. " +
			"One quote per leg (25 strikes = 100 quotes, half the broker's per-minute budget).",
		Hints: toolkit.RemoteRead,
	}, func(ctx context.Context, in ChainIn) (ChainOut, error) {
		cnt := in.Count
		if cnt == 0 {
			cnt = 5
		}
		exch := strings.ToUpper(in.Exchange)
		tsym := strings.ToUpper(strings.TrimSpace(in.TradingSymbol))
		contract := ""
		strike := in.StrikePrice
		legs, err := do(ctx, d, func(a *noren.Auth) ([]noren.Scrip, error) {
			if strike == 0 {
				atm, err := d.atTheMoney(ctx, a, exch, tsym)
				if err != nil {
					return nil, err
				}
				strike = atm
			}
			legs, err := d.client().GetOptionChain(ctx, a, exch, tsym, strike, cnt)
			if err != nil || len(legs) > 0 || !isUnderlyingName(tsym) {
				return legs, err
			}
			// GetOptionChain takes a contract's trading symbol; an
			// underlying's name (NIFTY) answers "no data". Resolve it to the
			// nearest-expiry contract SearchScrip lists for it.
			c, err := d.nearestContract(ctx, a, exch, tsym)
			if err != nil || c == "" {
				return nil, err
			}
			contract = c
			return d.client().GetOptionChain(ctx, a, exch, c, strike, cnt)
		})
		if err != nil {
			return ChainOut{}, err
		}
		if len(legs) == 0 {
			return ChainOut{}, envelope.New(envelope.NotFound, "no option chain for %s on %s: get_option_chain takes an option or future's trading symbol (e.g. NIFTY28NOV24F or NIFTY28NOV24C24000) or an underlying name such as NIFTY; find them with search_scrip (exchange %s)", tsym, exch, exch)
		}
		quotes := make([]Leg, len(legs))
		var wg sync.WaitGroup
		sem := make(chan struct{}, max(1, d.ChainConcurrency))
		var authErr error
		var mu sync.Mutex
		for i, l := range legs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				q, err := do(ctx, d, func(a *noren.Auth) (noren.Quote, error) { return d.client().GetQuotes(ctx, a, l.Exch, l.Token) })
				leg := Leg{TradingSymbol: l.TSym, Token: l.Token, LotSize: float64(l.LotSize)}
				if err != nil {
					e := envelope.From(err)
					leg.QuoteError = e.Message
					if e.Code == envelope.Unauthenticated {
						mu.Lock()
						authErr = err
						mu.Unlock()
					}
				} else {
					v := quoteView(q)
					leg.LastPrice, leg.ChangePct, leg.Volume, leg.OpenInterest = v.LastPrice, v.ChangePct, v.Volume, v.OpenInterest
					if len(v.Bids) > 0 {
						leg.Bid = v.Bids[0].Price
					}
					if len(v.Asks) > 0 {
						leg.Ask = v.Asks[0].Price
					}
				}
				quotes[i] = leg
			}()
		}
		wg.Wait()
		if authErr != nil {
			return ChainOut{}, authErr
		}
		if err := ctx.Err(); err != nil {
			return ChainOut{}, envelope.From(err)
		}
		rows := map[float64]*ChainRow{}
		for i, l := range legs {
			r := rows[float64(l.Strike)]
			if r == nil {
				r = &ChainRow{Strike: float64(l.Strike)}
				rows[float64(l.Strike)] = r
			}
			leg := quotes[i]
			switch strings.ToUpper(l.OptType) {
			case "CE":
				r.Call = &leg
			case "PE":
				r.Put = &leg
			}
		}
		out := ChainOut{Exchange: exch, Contract: contract, Rows: make([]ChainRow, 0, len(rows)), Legs: len(legs)}
		for _, r := range rows {
			out.Rows = append(out.Rows, *r)
		}
		sort.Slice(out.Rows, func(i, j int) bool { return out.Rows[i].Strike < out.Rows[j].Strike })
		out.Coverage = envelope.Whole()
		if n := unquoted(quotes); n > 0 {
			out.Coverage = envelope.Cut(envelope.Partial, fmt.Sprintf("quotes of %d of %d legs (see quote_error)", n, len(quotes)),
				"call get_option_chain again, or get_quotes for those legs' tokens")
		}
		return out, nil
	})
}

func unquoted(legs []Leg) int {
	n := 0
	for _, l := range legs {
		if l.QuoteError != "" {
			n++
		}
	}
	return n
}

func scripView(s noren.Scrip) Instrument {
	optt := s.OptType
	if optt == "XX" {
		optt = ""
	}
	return Instrument{TradingSymbol: s.TSym, Token: s.Token, LotSize: float64(s.LotSize),
		TickSize: float64(s.TickSize), Instrument: s.InstName, OptionType: optt}
}

// isUnderlyingName reports whether tsym is a bare name (NIFTY, BANKNIFTY,
// CRUDEOIL) rather than a contract, whose symbol carries its expiry digits.
func isUnderlyingName(tsym string) bool {
	return tsym != "" && !strings.ContainsAny(tsym, "0123456789")
}

// contractExpiry reads the expiry a Noren derivative symbol carries after
// its underlying's name, and what follows it: NIFTY28NOV24F (future),
// NIFTY28NOV24C24000 (option; DDMMMYY, ShoonyaApi-py README symbol samples),
// and MCX futures, which carry no F: CRUDEOIL19DEC24 (Noren MCX scrip
// master, MCX_symbols.txt; marketcalls/openalgo broker/shoonya/database
// builds MCX future symbols as name + expiry).
var contractExpiry = regexp.MustCompile(`^([A-Z&-]+?)(\d{2}[A-Z]{3}\d{2})([CPF]|$)`)

// isFuture reports whether a contract's suffix (contractExpiry's third
// group) is a future's: F, or none on MCX.
func isFuture(suffix string) bool { return suffix == "F" || suffix == "" }

// atTheMoney is the price an option chain of tsym centres on when no strike
// is given: the last price of tsym if it is a future, else of the nearest
// future of its underlying on exch.
func (d *Deps) atTheMoney(ctx context.Context, a *noren.Auth, exch, tsym string) (float64, error) {
	name := tsym
	if m := contractExpiry.FindStringSubmatch(tsym); m != nil {
		name = m[1]
		if isFuture(m[3]) {
			return d.lastPriceOf(ctx, a, exch, tsym)
		}
	}
	fut, err := d.nearestContractOf(ctx, a, exch, name, isFuture)
	if err != nil {
		return 0, err
	}
	if fut == "" {
		return 0, envelope.Invalid("strike_price", "no future of %s on %s to read the at-the-money price from; pass strike_price (get_quotes on the underlying gives its price)", name, exch)
	}
	return d.lastPriceOf(ctx, a, exch, fut)
}

// lastPriceOf quotes the contract tsym on exch (found through SearchScrip).
func (d *Deps) lastPriceOf(ctx context.Context, a *noren.Auth, exch, tsym string) (float64, error) {
	found, err := d.client().SearchScrip(ctx, a, exch, tsym)
	if err != nil && !noren.IsNoData(err) {
		return 0, err
	}
	for _, s := range found {
		if strings.EqualFold(s.TSym, tsym) {
			q, err := d.client().GetQuotes(ctx, a, exch, s.Token)
			if err != nil {
				return 0, err
			}
			if q.LP <= 0 {
				break
			}
			return float64(q.LP), nil
		}
	}
	return 0, envelope.Invalid("strike_price", "no last price for %s on %s to centre the chain on; pass strike_price", tsym, exch)
}

// nearestContract returns the contract of name with the nearest expiry not
// yet past, among what SearchScrip lists on exch ("" if none).
func (d *Deps) nearestContract(ctx context.Context, a *noren.Auth, exch, name string) (string, error) {
	return d.nearestContractOf(ctx, a, exch, name, func(string) bool { return true })
}

// nearestContractOf is nearestContract among the contracts whose suffix
// (F, C, P or none) kind accepts.
func (d *Deps) nearestContractOf(ctx context.Context, a *noren.Auth, exch, name string, kind func(suffix string) bool) (string, error) {
	found, err := d.client().SearchScrip(ctx, a, exch, name)
	if noren.IsNoData(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	now := d.now().In(IST)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, IST)
	best, bestExp := "", time.Time{}
	for _, s := range found {
		m := contractExpiry.FindStringSubmatch(strings.ToUpper(s.TSym))
		if m == nil || m[1] != name || !kind(m[3]) {
			continue
		}
		exp, err := time.ParseInLocation("02Jan06", m[2][:2]+m[2][2:3]+strings.ToLower(m[2][3:5])+m[2][5:], IST)
		if err != nil || exp.Before(today) {
			continue
		}
		if best == "" || exp.Before(bestExp) {
			best, bestExp = s.TSym, exp
		}
	}
	return best, nil
}
