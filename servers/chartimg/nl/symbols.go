package nl

// Symbols: names and tickers, pairs (EUR/USD, btcusdt), bare tickers, the symbol and exchange arguments.

import (
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"sort"
	"strings"
)

// pair resolves a base/quote pair: two currencies → FX, a crypto base → its exchange.
func (s *state) pair(a, q string) (string, bool) {
	if currencies[a] && currencies[q] && a != q {
		return "FX:" + strings.ToUpper(a+q), true
	}
	if base, ok := cryptoBase(a); ok {
		switch q {
		case "usdt", "usdc", "btc", "eth", "fdusd":
			return "BINANCE:" + base + strings.ToUpper(q), true
		case "usd", "eur", "gbp":
			return "COINBASE:" + base + strings.ToUpper(q), true
		}
	}
	return "", false
}

var cryptoBases = func() map[string]string {
	m := map[string]string{}
	for _, c := range cryptos {
		m[strings.ToLower(c[1])] = c[1]
	}
	return m
}()

func cryptoBase(w string) (string, bool) {
	b, ok := cryptoBases[w]
	return b, ok
}

// stopTickers are capitalised words that are not tickers.
var stopTickers = map[string]bool{"I": true, "A": true, "AND": true, "THE": true, "USD": true, "UTC": true, "EST": true,
	"PST": true, "GMT": true, "PNG": true, "JPEG": true, "JPG": true, "OK": true, "HD": true, "UK": true, "US": true, "EU": true,
	"PM": true, "AM": true, "MAX": true, "ALL": true, "NEW": true, "ON": true, "OF": true, "FOR": true, "TO": true, "IN": true,
	"AT": true, "BY": true, "ME": true, "MY": true, "IT": true, "IS": true, "PLEASE": true, "CHART": true, "SHOW": true,
	"WITH": true, "LAST": true, "PAST": true, "API": true, "TV": true, "NOW": true, "GET": true, "AN": true, "OR": true,
	"DAY": true, "WEEK": true, "YEAR": true, "MONTH": true, "HOUR": true, "ETF": true, "FX": true, "CFD": true}

// word looks at an unrecognised word: a pair (eurusd, btcusdt), a ticker (PLTR),
// or "foo indicator".
func (s *state) word(i int, it *item) {
	w := it.tok.word
	if len(w) >= 6 && len(w) <= 10 {
		for _, q := range []string{"usdt", "usdc", "usd", "eur", "btc", "eth", "jpy", "gbp", "chf", "cad", "aud"} {
			if strings.HasSuffix(w, q) && len(w) > len(q)+1 {
				if full, ok := s.pair(w[:len(w)-len(q)], q); ok {
					s.symbols = append(s.symbols, hit{value: full, phrase: it.tok.orig, pair: true})
					return
				}
			}
		}
	}
	next := s.at(i + 1)
	if next.kind == kWord && (next.tok.word == "indicator" || next.tok.word == "oscillator" || next.tok.word == "overlay" || next.tok.word == "study") &&
		!negations[w] && !genericWords[w] {
		s.warn("%q is not in the documented indicator list; call fetch_chart_documentation for the names", it.tok.orig+" "+next.tok.orig)
		return
	}
	if w == "all" && (it.tok.orig == "ALL" && !s.shouting || s.at(i-1).kind == kRangeCue) {
		// the API's range code written as such ("1W — ALL", "range: all")
		s.rangeHits = append(s.rangeHits, hit{value: "ALL", phrase: it.tok.orig})
		return
	}
	// tickers run to 5 letters on stock exchanges, 6 for some coins (RENDER, PENDLE)
	maxLen := 6
	if s.shouting {
		maxLen = 5 // an all-capitals request has 6-letter words that are no tickers
	}
	if it.tok.upper && len(it.tok.orig) >= 2 && len(it.tok.orig) <= maxLen && !stopTickers[it.tok.orig] && onlyLetters(it.tok.orig) {
		s.tickers = append(s.tickers, it.tok.orig)
	}
}

// genericWords before "indicator" name no indicator ("any indicators", "technical indicators").
var genericWords = map[string]bool{"any": true, "some": true, "other": true, "more": true, "technical": true, "few": true,
	"common": true, "basic": true, "popular": true, "favorite": true, "favourite": true, "usual": true, "standard": true, "main": true, "key": true}

func onlyLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return true
}

func (s *state) resolveSymbol(req Request) {
	c := &s.res.Config
	exch := strings.ToUpper(strings.TrimSpace(req.Exchange))
	if exch == "" && len(s.exchanges) > 0 {
		exch = s.exchanges[0]
	}
	if sym := strings.TrimSpace(req.Symbol); sym != "" {
		switch {
		case strings.Contains(sym, ":"):
			c.Symbol = strings.ToUpper(sym)
			s.reason("symbol: %s as given", c.Symbol)
		default:
			sub := &state{b: s.b}
			var toks [8]token
			sub.match(lex(sym, toks[:0]))
			sub.rest()
			if len(sub.symbols) > 0 && req.Exchange == "" {
				c.Symbol = sub.symbols[0].value
				s.reason("symbol: %q → %s", sym, c.Symbol)
			} else if len(sub.symObjs) > 0 && sub.symObjs[0].crypto {
				c.Symbol = s.rehome(sub.symObjs[0], exch)
				s.reason("symbol: %q on %s → %s", sym, exch, c.Symbol)
			} else if exch != "" {
				c.Symbol = exch + ":" + strings.ToUpper(sym)
				s.reason("symbol: %q with exchange %s → %s", sym, exch, c.Symbol)
			} else if len(sub.symbols) > 0 {
				c.Symbol = sub.symbols[0].value
			} else {
				s.warn("symbol %q has no known exchange; pass exchange (see get_exchanges) or EXCHANGE:SYMBOL", sym)
			}
		}
		if c.Symbol != "" {
			if len(s.symbols) > 0 && s.symbols[0].value != c.Symbol {
				s.reason("symbol: the symbol argument overrides %q in the text", s.symbols[0].phrase)
			}
			return
		}
	}
	if len(s.symbols) > 0 {
		h := s.symbols[0]
		c.Symbol = h.value
		// a written pair trades where the user said ("GBPJPY on OANDA"), when
		// that exchange is one the docs list
		if _, bare, ok := strings.Cut(h.value, ":"); ok && h.pair && exch != "" && s.b.exchanges[exch] {
			c.Symbol = exch + ":" + bare
		}
		// a named crypto moves to the exchange the user named ("bitcoin on Coinbase")
		if len(s.symObjs) > 0 && s.symObjs[0].full == h.value && exch != "" {
			if s.symObjs[0].crypto {
				c.Symbol = s.rehome(s.symObjs[0], exch)
			} else if ex, _, _ := strings.Cut(h.value, ":"); ex != exch {
				s.warn("%s is listed as %s; exchange %s was not applied", s.symObjs[0].name, h.value, exch)
			}
		}
		s.perpetual(c)
		s.reasonQuoted("symbol: ", h.phrase, c.Symbol)
		var others []string
		for _, o := range s.symbols[1:] {
			if o.value != h.value {
				others = append(others, o.value)
			}
		}
		if len(others) > 0 {
			sort.Strings(others)
			s.warn("one symbol per chart: %s is charted, %s ignored (a ratio can be charted as a formula, e.g. %s/%s)", c.Symbol, strings.Join(others, ", "), c.Symbol, others[0])
		}
		return
	}
	if len(s.tickers) > 0 {
		t := s.tickers[0]
		s.tickers = s.tickers[1:]
		if exch != "" {
			c.Symbol = exch + ":" + t
			s.reason("symbol: ticker %s on %s → %s", t, exch, c.Symbol)
			return
		}
		s.warn("ticker %s has no known exchange; pass exchange (e.g. NASDAQ, NYSE; see get_exchanges) or symbol EXCHANGE:%s", t, t)
		return
	}
	if exch != "" {
		if co, ok := companyOf[exch]; ok {
			s.warn("exchange %s was named but no symbol; pass symbol or name one (see get_symbols), or for the company's own stock %s (say \"%s shares\")", exch, co, strings.ToLower(exch))
			return
		}
		s.warn("exchange %s was named but no symbol; pass symbol or name one (see get_symbols)", exch)
		return
	}
	s.warn("no symbol recognised; name one (e.g. \"AAPL\", \"bitcoin\") or pass symbol as EXCHANGE:SYMBOL — without it the API draws BINANCE:BTCUSDT")
}

func (s *state) rehome(sym *symbol, exch string) string {
	if exch == "" {
		return sym.full
	}
	q, ok := cryptoQuote[exch]
	if !ok {
		q = "USDT"
		s.warn("quote currency on %s is not known; %s%s assumed (check with get_symbols)", exch, sym.base, q)
	}
	return exch + ":" + sym.base + q
}

// perpExchanges are the crypto exchanges whose perpetual contracts TradingView
// names SYMBOL.P (the docs' "TradingView Symbols" examples: BITGET:BTCUSDT.P,
// BLOFIN:BTCUSDT.P, BYBIT:BTCUSDT.P, DELTA:BTCUSDT.P, MEXC:BTCUSDT.P,
// OKX:BTCUSDT.P, PIONEX:BTCUSDT.P, BTSE:BTCUSD.P, DERIBIT:BTCUSD.P; Binance's
// USDT-margined perpetuals are BINANCE:BTCUSDT.P on TradingView).
var perpExchanges = map[string]bool{"BINANCE": true, "BYBIT": true, "OKX": true, "BITGET": true, "MEXC": true,
	"BLOFIN": true, "PIONEX": true, "DELTA": true, "BTSE": true, "DERIBIT": true}

// perpetual turns a crypto pair into its perpetual contract when the text
// says "perp"/"perpetual" ("ETHUSDT perp on Bybit" → BYBIT:ETHUSDT.P), or
// warns when the exchange lists none that way.
func (s *state) perpetual(c *chart.Config) {
	said := ""
	for i := range s.items {
		if w := s.items[i].tok.word; s.items[i].kind == kWord && (w == "perp" || w == "perpetual") {
			said = s.items[i].tok.orig
			break
		}
	}
	ex, sym, ok := strings.Cut(c.Symbol, ":")
	if said == "" || !ok || strings.HasSuffix(sym, ".P") || !s.b.crypto[ex] {
		return
	}
	if !perpExchanges[ex] {
		s.warn("%q: %s lists no perpetual as %s.P that chart-img documents; the spot pair %s is charted", said, ex, sym, c.Symbol)
		return
	}
	c.Symbol += ".P"
	s.reason("symbol: %q → the perpetual contract %s (TradingView's SYMBOL.P)", said, c.Symbol)
}
