package noren

// RouteKind is what a Noren route does to the account. Noren sends every
// route as a POST with a jData body, so the method says nothing: this
// table is what tells a read from a write.
type RouteKind int

const (
	// Reads only reads (books, limits, quotes, charts).
	Reads RouteKind = iota + 1
	// Writes places, modifies or cancels an order, or edits a market watch.
	Writes
	// LogsIn creates a session; a new login may end the sessions other
	// clients of the same user hold (assumed for Noren, see the README).
	LogsIn
)

// Routes is every route this client sends. post refuses a route that is
// not here, so a new route cannot be added without saying what it does;
// the drift probe sends only Reads (and QuickAuth when allowed to log in).
var Routes = map[string]RouteKind{
	"QuickAuth":      LogsIn,
	"GenAcsTok":      LogsIn,
	"PlaceOrder":     Writes,
	"ModifyOrder":    Writes,
	"CancelOrder":    Writes,
	"OrderBook":      Reads,
	"TradeBook":      Reads,
	"PositionBook":   Reads,
	"Holdings":       Reads,
	"Limits":         Reads,
	"SearchScrip":    Reads,
	"GetQuotes":      Reads,
	"GetOptionChain": Reads,
	"TPSeries":       Reads,
	"EODChartData":   Reads,
	// The confirmed writes beside orders (exit_order, convert_position).
	"ExitSNOOrder":      Writes,
	"ProductConversion": Writes,
	// GTT (gtt.go).
	"PlaceGTTOrder":      Writes,
	"CancelGTTOrder":     Writes,
	"GetPendingGTTOrder": Reads,
	// The trader's day: margins, one order's history, watchlists, Greeks.
	"GetOrderMargin":  Reads,
	"GetBasketMargin": Reads,
	"SingleOrdHist":   Reads,
	"GetOptionGreek":  Reads,
	"MWList":          Reads,
	"MarketWatch":     Reads,
	// Watchlist edits change no order but do change the account: sent once,
	// never probed.
	"AddMultiScripsToMW":  Writes,
	"DeleteMultiMWScrips": Writes,
	// Price alerts (alerts.go): they move no money, but change the account.
	"SetAlert":        Writes,
	"ModifyAlert":     Writes,
	"CancelAlert":     Writes,
	"GetPendingAlert": Reads,
}
