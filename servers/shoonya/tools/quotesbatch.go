package tools

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// MaxBatchQuotes is how many instruments one get_quotes_batch call quotes:
// GetQuotes answers one instrument per request (ShoonyaApi-py README
// get_quotes), so 50 are a quarter of the account's 200/min budget.
const MaxBatchQuotes = 50

// BatchIn names the instruments as EXCHANGE|token.
type BatchIn struct {
	Instruments []string `json:"instruments" jsonschema:"e.g. NSE|22" mcp:"pattern=^[A-Z]{2,4}\\|[0-9A-Za-z]{1,20}$;minItems=1;maxItems=50"`
}

// QuoteRow is one instrument's row; change is last price less previous close.
type QuoteRow struct {
	Instrument    string  `json:"instrument"`
	TradingSymbol string  `json:"trading_symbol"`
	LastPrice     float64 `json:"last_price"`
	Change        float64 `json:"change"`
	ChangePct     float64 `json:"change_percent"`
	Volume        float64 `json:"volume"`
	OpenInterest  float64 `json:"open_interest"`
}

// BatchOut is the quotes as a table, and the instruments that failed.
type BatchOut struct {
	envelope.Coverage
	Cols   []string          `json:"cols" jsonschema:"instrument,trading_symbol,last_price,change,change_percent,volume,open_interest"`
	Rows   [][]any           `json:"rows" mcp:"type=array"`
	Failed map[string]string `json:"failed,omitempty" jsonschema:"instrument: why"`
}

// List decodes the rows back (for Go callers and tests).
func (o BatchOut) List() []QuoteRow {
	l, _ := toolkit.Untabulate[QuoteRow](o.Cols, o.Rows)
	return l
}

func quotesBatchTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_quotes_batch", Title: "Quotes table", Toolset: "market",
		Description: "Up to 50 instruments' quotes as a table (see cols), one GetQuotes each under the rate budget; failed names each miss.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in BatchIn) (BatchOut, error) {
		keys := dedupe(in.Instruments)
		var rows []QuoteRow
		var failed map[string]string
		_, err := do(ctx, d, func(a *noren.Auth) (struct{}, error) {
			var err error
			rows, failed, err = d.quoteMany(ctx, a, keys)
			return struct{}{}, err
		})
		if err != nil {
			return BatchOut{}, err
		}
		return batchOut(keys, rows, failed), nil
	})
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(in))
	for _, k := range in {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// quoteMany quotes keys ChainConcurrency at a time (the account's limiter
// paces them); each miss is kept with its reason. A session that expired
// fails the whole call, so session.Do can log in again and repeat it.
func (d *Deps) quoteMany(ctx context.Context, a *noren.Auth, keys []string) ([]QuoteRow, map[string]string, error) {
	rows := make([]*QuoteRow, len(keys))
	errs := make([]error, len(keys))
	n := d.ChainConcurrency
	if n <= 0 {
		n = 8
	}
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	for i, k := range keys {
		exch, token, _ := strings.Cut(k, "|")
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			q, err := d.client().GetQuotes(ctx, a, exch, token)
			if err != nil {
				errs[i] = err
				return
			}
			r := quoteRow(k, q)
			rows[i] = &r
		}()
	}
	wg.Wait()
	var out []QuoteRow
	var first error
	failed := map[string]string{}
	for i, k := range keys {
		switch {
		case noren.IsSessionExpired(errs[i]):
			return nil, nil, errs[i]
		case errs[i] != nil:
			if first == nil {
				first = errs[i]
			}
			e := envelope.From(errs[i])
			failed[k] = string(e.Code) + ": " + e.Message
		default:
			out = append(out, *rows[i])
		}
	}
	if len(out) == 0 && first != nil {
		// Nothing answered: an error (the first one), never an empty table.
		e := envelope.From(first)
		all := envelope.New(e.Code, "no instrument was quoted: %s", e.Message).WithRetryable(e.Retryable).
			WithRetryAfter(e.RetryAfter).WithCause(first)
		for k, v := range e.Details {
			all = all.WithDetail(k, v)
		}
		return nil, nil, all.WithDetail("failed", failed)
	}
	return out, failed, nil
}

func quoteRow(key string, q noren.Quote) QuoteRow {
	r := QuoteRow{Instrument: key, TradingSymbol: q.TSym, LastPrice: float64(q.LP), Volume: float64(q.Volume), OpenInterest: float64(q.OI)}
	if q.Close > 0 && q.LP > 0 {
		r.Change = math.Round(float64(q.LP-q.Close)*100) / 100
		r.ChangePct = math.Round(float64((q.LP-q.Close)/q.Close)*10000) / 100
	}
	return r
}

func batchOut(keys []string, rows []QuoteRow, failed map[string]string) BatchOut {
	out := BatchOut{Coverage: envelope.Whole()}
	out.Cols, out.Rows = toolkit.Tabulate(rows)
	if out.Rows == nil {
		out.Rows = [][]any{}
	}
	if len(failed) > 0 {
		out.Failed = failed
		out.Coverage = envelope.Cut(envelope.Partial, fmt.Sprintf("%d of %d instruments answered; the rest are in failed", len(rows), len(keys)),
			"call again with the failed instruments (after retry_after on rate_limited), or get_quotes for one")
	}
	return out
}
