package tools_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// TestTableColumns: each table tool's schema names the columns Tabulate writes.
func TestTableColumns(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	want := map[string][]string{
		"search_scrip":      toolkit.Columns[tools.Instrument](),
		"get_order_book":    toolkit.Columns[tools.OrderRow](),
		"get_trade_book":    toolkit.Columns[tools.TradeRow](),
		"get_holdings":      toolkit.Columns[tools.HoldingRow](),
		"get_order_history": toolkit.Columns[tools.HistoryRow](),
		"get_quotes_batch":  toolkit.Columns[tools.QuoteRow](),
	}
	for _, tl := range e.conn.Built.Registry.Tools() {
		if cols, ok := want[tl.Name()]; ok {
			servetest.TableColumns(t, tl.Tool, cols)
			delete(want, tl.Name())
		}
	}
	if len(want) > 0 {
		t.Errorf("tools not found: %v", want)
	}
}
