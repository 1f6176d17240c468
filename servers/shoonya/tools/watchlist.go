package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// WatchIn is get_watchlists' input: no name lists the market watches.
type WatchIn struct {
	Name string `json:"name,omitempty" jsonschema:"omit: list the names" mcp:"maxLength=40"`
}

// WatchOut is the names, or one market watch's scrips with their quotes.
type WatchOut struct {
	envelope.Coverage
	Names  []string          `json:"names,omitempty"`
	Cols   []string          `json:"cols,omitempty" jsonschema:"as get_quotes_batch"`
	Rows   [][]any           `json:"rows,omitempty" mcp:"type=array"`
	Failed map[string]string `json:"failed,omitempty"`
}

// List decodes the rows back (for Go callers and tests).
func (o WatchOut) List() []QuoteRow {
	l, _ := toolkit.Untabulate[QuoteRow](o.Cols, o.Rows)
	return l
}

func keyOf(s noren.Scrip) string { return strings.ToUpper(s.Exch) + "|" + s.Token }

// watchErr names the tool that lists the watches beside the broker's refusal.
func watchErr(name string, err error) error {
	e := envelope.From(err)
	if e.Code == envelope.Unauthenticated || e.Code == envelope.RateLimited || e.Code == envelope.Timeout || e.Code == envelope.UpstreamUnavailable {
		return err
	}
	return envelope.New(e.Code, "watchlist %q: %s (get_watchlists without a name lists the names)", name, e.Message).
		WithRetryable(e.Retryable).WithDetail("broker_message", e.Details["broker_message"]).WithCause(err)
}

func watchlistsTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_watchlists", Title: "Watchlists", Toolset: "watchlists",
		Description: "The broker's market watches (the trader's app shows the same): no name lists the names; a name gives its scrips quoted (a table, see cols).",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in WatchIn) (WatchOut, error) {
		name := strings.TrimSpace(in.Name)
		if name == "" {
			names, err := do(ctx, d, func(a *noren.Auth) ([]string, error) { return d.client().MWList(ctx, a) })
			if err != nil {
				return WatchOut{}, err
			}
			out := WatchOut{Names: names, Coverage: envelope.Whole()}
			if len(names) == 0 {
				out.Names, out.Coverage = []string{}, envelope.Nothing("Shoonya answered \"no data\": no market watches")
			}
			return out, nil
		}
		return do(ctx, d, func(a *noren.Auth) (WatchOut, error) {
			scrips, err := d.client().MarketWatch(ctx, a, name)
			if err != nil {
				return WatchOut{}, watchErr(name, err)
			}
			if len(scrips) == 0 {
				return WatchOut{Coverage: envelope.Nothing("Shoonya answered \"no data\": watchlist " + name + " is empty"), Rows: [][]any{}}, nil
			}
			keys := make([]string, len(scrips))
			for i, s := range scrips {
				keys[i] = keyOf(s)
			}
			keys = dedupe(keys)
			if len(keys) > MaxBatchQuotes {
				keys = keys[:MaxBatchQuotes]
			}
			rows, failed, err := d.quoteMany(ctx, a, keys)
			if err != nil && noren.IsSessionExpired(err) {
				return WatchOut{}, err
			}
			if err != nil { // no quote answered: the scrips still are the list
				rows, failed = nil, map[string]string{}
				for _, k := range keys {
					failed[k] = envelope.From(err).Message
				}
			}
			b := batchOut(keys, rows, failed)
			out := WatchOut{Coverage: b.Coverage, Cols: b.Cols, Rows: b.Rows, Failed: b.Failed}
			if n := len(dedupe(keysOf(scrips))); n > MaxBatchQuotes && out.Complete {
				out.Coverage = envelope.Cut(envelope.Capped, fmt.Sprintf("quotes of %d more scrips (the first %d are quoted)", n-MaxBatchQuotes, MaxBatchQuotes), "get_quotes_batch for the rest")
			}
			return out, nil
		})
	})
}

func keysOf(l []noren.Scrip) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = keyOf(s)
	}
	return out
}

// EditWatchIn adds scrips to, or removes them from, one market watch.
type EditWatchIn struct {
	Name        string   `json:"name" mcp:"minLength=1;maxLength=40"`
	Action      string   `json:"action" mcp:"enum=add|remove"`
	Instruments []string `json:"instruments" jsonschema:"e.g. NSE|22" mcp:"pattern=^[A-Z]{2,4}\\|[0-9A-Za-z]{1,20}$;minItems=1;maxItems=50"`
}

// EditWatchOut is the watch after the edit, as the broker reads it back.
type EditWatchOut struct {
	envelope.Coverage
	Name        string   `json:"name"`
	Instruments []string `json:"instruments" jsonschema:"now in the watch"`
}

func editWatchlistTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "edit_watchlist", Title: "Edit watchlist", Toolset: "watchlists",
		Description: "Add instruments to, or remove them from, one of the broker's market watches; answers what it now holds. Repeating changes nothing more.",
		Hints:       toolkit.Hints{Idempotent: true, OpenWorld: true},
	}, func(ctx context.Context, in EditWatchIn) (EditWatchOut, error) {
		name := strings.TrimSpace(in.Name)
		keys := dedupe(in.Instruments)
		return do(ctx, d, func(a *noren.Auth) (EditWatchOut, error) {
			err := d.client().EditMarketWatch(ctx, a, name, keys, in.Action == "remove")
			if err != nil && !noren.IsOutcomeUnknown(err) {
				return EditWatchOut{}, watchErr(name, err)
			}
			scrips, rerr := d.client().MarketWatch(ctx, a, name)
			if rerr != nil {
				if err != nil {
					return EditWatchOut{}, envelope.New(envelope.OutcomeUnknown, "the %s on watchlist %q may or may not have happened (Shoonya's answer was lost, and reading the list back failed: %s); call get_watchlists, then repeat if needed: repeating changes nothing more",
						in.Action, name, envelope.From(rerr).Message).WithRetryable(true).WithCause(err)
				}
				return EditWatchOut{}, watchErr(name, rerr)
			}
			out := EditWatchOut{Name: name, Instruments: dedupe(keysOf(scrips)), Coverage: envelope.Whole()}
			if len(out.Instruments) == 0 {
				out.Coverage = envelope.Nothing("Shoonya answered \"no data\": watchlist " + name + " is empty")
			}
			return out, nil
		})
	})
}
