package validate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
)

func newValidator() *Validator {
	d := docsparse.Snapshot()
	return New(d, nl.New(d))
}

func TestValidate(t *testing.T) {
	v := newValidator()
	cases := []struct {
		name, plan, cfg string
		valid           bool
		field, msg      string // an issue that must be present
	}{
		{"minimal ok", "BASIC", `{"symbol":"BINANCE:BTCUSDT"}`, true, "", ""},
		{"full ok", "PRO", `{"symbol":"NASDAQ:AAPL","interval":"4h","range":"3M","width":1280,"height":720,"style":"heikinAshi","theme":"dark",
			"studies":[{"name":"Relative Strength Index","input":{"length":21,"smoothingLine":"EMA"}},{"name":"Bollinger Bands","input":{"in_0":20,"in_1":2.5}},{"name":"Volume","forceOverlay":true}],
			"drawings":[{"name":"Horizontal Line","input":{"price":180}}]}`, true, "", ""},
		{"formula symbol", "BASIC", `{"symbol":"(NASDAQ:MARA+NASDAQ:RIOT)/10"}`, true, "", ""},
		{"missing symbol is a warning", "BASIC", `{}`, true, "symbol", "missing"},
		{"symbol without exchange", "BASIC", `{"symbol":"AAPL"}`, false, "symbol", "lacks the exchange"},
		{"lower-case symbol", "BASIC", `{"symbol":"binance:btcusdt"}`, false, "symbol", "upper case"},
		{"bad interval", "BASIC", `{"symbol":"FX:EURUSD","interval":"10m"}`, false, "interval", "not supported"},
		{"interval case", "BASIC", `{"symbol":"FX:EURUSD","interval":"1d"}`, false, "interval", "use \"1D\""},
		{"7D range", "BASIC", `{"symbol":"FX:EURUSD","range":"7D"}`, false, "range", "not supported"},
		{"range object ok", "BASIC", `{"symbol":"FX:EURUSD","range":{"from":"2024-01-01T00:00:00Z","to":"2024-02-01T00:00:00Z"}}`, true, "", ""},
		{"range object reversed", "BASIC", `{"symbol":"FX:EURUSD","range":{"from":"2024-03-01T00:00:00Z","to":"2024-02-01T00:00:00Z"}}`, false, "range", "before"},
		{"range object half", "BASIC", `{"symbol":"FX:EURUSD","range":{"from":"2024-03-01T00:00:00Z"}}`, false, "range", "both from and to"},
		{"style", "BASIC", `{"symbol":"FX:EURUSD","style":"heikin ashi"}`, false, "style", "not supported"},
		{"theme case", "BASIC", `{"symbol":"FX:EURUSD","theme":"Dark"}`, false, "theme", "use \"dark\""},
		{"timezone", "BASIC", `{"symbol":"FX:EURUSD","timezone":"Mars/Olympus"}`, false, "timezone", "not a timezone on chart-img's list"},
		{"timezone off the list: same clock named", "BASIC", `{"symbol":"FX:EURUSD","timezone":"America/Denver"}`, false, "timezone", "use US/Mountain (the same clock all year)"},
		{"timezone alias off the list", "BASIC", `{"symbol":"FX:EURUSD","timezone":"US/Eastern"}`, false, "timezone", "use America/New_York"},
		{"timezone Asia/Calcutta is Kolkata", "BASIC", `{"symbol":"FX:EURUSD","timezone":"Asia/Calcutta"}`, false, "timezone", "use Asia/Kolkata"},
		{"timezone UTC is the default's", "BASIC", `{"symbol":"FX:EURUSD","timezone":"UTC"}`, false, "timezone", "use Etc/UTC"},
		{"timezone no listed clock", "BASIC", `{"symbol":"FX:EURUSD","timezone":"Asia/Kabul"}`, false, "timezone", "the nearest is"},
		{"study level override ok", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"Relative Strength Index","override":{"UpperLimit.value":80,"LowerLimit.value":20}}]}`, true, "", ""},
		{"study override off the table warns", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"Relative Strength Index","override":{"upper":80}}]}`, true, "studies[0].override.upper", "its levels are UpperLimit.value, LowerLimit.value"},
		{"timezone default ok", "BASIC", `{"symbol":"FX:EURUSD","timezone":"Etc/UTC"}`, true, "", ""},
		{"timezone listed ok", "BASIC", `{"symbol":"FX:EURUSD","timezone":"US/Mountain"}`, true, "", ""},
		{"timezone ok", "BASIC", `{"symbol":"FX:EURUSD","timezone":"America/New_York"}`, true, "", ""},
		{"too small", "BASIC", `{"symbol":"FX:EURUSD","width":300}`, false, "width", "below the minimum"},
		{"resolution over BASIC", "BASIC", `{"symbol":"FX:EURUSD","width":1920,"height":1080}`, false, "width", "Exceed Max Usage Resolution Limit (800x600)"},
		{"resolution fine on PRO", "PRO", `{"symbol":"FX:EURUSD","width":1920,"height":1080}`, true, "", ""},
		{"combined limit", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"Volume"},{"name":"VWAP"},{"name":"MACD"}],"drawings":[{"name":"Horizontal Line","input":{"price":1}}]}`, false, "studies", "combined limit of 3"},
		{"tv-basicstudies name", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"BollingerBands@tv-basicstudies"}]}`, false, "studies[0].name", "use \"Bollinger Bands\""},
		{"short name", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"RSI"}]}`, false, "studies[0].name", "Relative Strength Index"},
		{"name case", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"bollinger bands"}]}`, false, "studies[0].name", "exactly"},
		{"unknown study", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"Pivot Points Standard"}]}`, false, "studies[0].name", "not in the documented"},
		{"inputs plural", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"MACD","inputs":{"in_0":12}}]}`, false, "studies[0].inputs", "input (singular)"},
		{"unknown input key", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"Relative Strength Index","input":{"in_0":14}}]}`, false, "studies[0].input.in_0", "length"},
		{"input range", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"Bollinger Bands","input":{"in_1":99}}]}`, false, "studies[0].input.in_1", "outside"},
		{"input integer", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"Bollinger Bands","input":{"in_0":20.5}}]}`, false, "studies[0].input.in_0", "whole number"},
		{"input option", "BASIC", `{"symbol":"FX:EURUSD","studies":[{"name":"MACD","input":{"in_3":"median"}}]}`, false, "studies[0].input.in_3", "not one of"},
		{"drawing missing input", "BASIC", `{"symbol":"FX:EURUSD","drawings":[{"name":"Trend Line","input":{"startPrice":1}}]}`, false, "drawings[0].input.startDatetime", "needs input"},
		{"drawing bad name", "BASIC", `{"symbol":"FX:EURUSD","drawings":[{"name":"Circle","input":{}}]}`, false, "drawings[0].name", "not documented"},
		{"indicators key", "BASIC", `{"symbol":"FX:EURUSD","indicators":[]}`, false, "indicators", "use studies"},
		{"watermark on BASIC", "BASIC", `{"symbol":"FX:EURUSD","watermark":"mine"}`, false, "watermark", "ULTRA"},
		{"watermark on ULTRA", "ULTRA", `{"symbol":"FX:EURUSD","watermark":"mine","watermarkSize":32}`, true, "", ""},
		{"unknown plan: paid size only warns", "", `{"symbol":"FX:EURUSD","width":1920,"height":1080}`, true, "width", "needs the PRO plan or higher; the key's plan is unknown, so this is not checked (set CHART_IMG_PLAN)"},
		{"unknown plan: paid parameter count only warns", "", `{"symbol":"FX:EURUSD","studies":[{"name":"Volume"},{"name":"VWAP"},{"name":"MACD"},{"name":"Volume"}]}`, true, "studies", "need the PRO plan or higher"},
		{"unknown plan: beyond every plan", "", `{"symbol":"FX:EURUSD","width":4096,"height":2160}`, false, "width", "exceeds every plan"},
		{"unknown plan: watermark only warns", "", `{"symbol":"FX:EURUSD","watermark":"mine"}`, true, "watermark", "CHART_IMG_PLAN"},
		{"known plan refusal names the setting", "BASIC", `{"symbol":"FX:EURUSD","width":801}`, false, "width", "set CHART_IMG_PLAN"},
		{"too many bars", "BASIC", `{"symbol":"FX:EURUSD","interval":"1m","range":"1Y"}`, true, "range", "bars"},
		{"too many bars in {from,to}", "BASIC", `{"symbol":"FX:EURUSD","interval":"5m","range":{"from":"2024-01-01T00:00:00Z","to":"2024-02-01T00:00:00Z"}}`, true, "range", "about 8928"},
		{"shift", "BASIC", `{"symbol":"FX:EURUSD","shiftLeft":0}`, false, "shiftLeft", "1..1000"},
		{"override", "BASIC", `{"symbol":"FX:EURUSD","override":{"showLegend":"yes"}}`, false, "override.showLegend", "true or false"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var cfg map[string]any
			if err := json.Unmarshal([]byte(tc.cfg), &cfg); err != nil {
				t.Fatal(err)
			}
			plan, _ := v.Plan(tc.plan)
			res := v.Validate(cfg, plan)
			if res.Valid != tc.valid {
				t.Errorf("valid = %v, want %v; errors %+v", res.Valid, tc.valid, res.Errors)
			}
			if tc.field == "" {
				if len(res.Errors) > 0 {
					t.Errorf("unexpected issues %+v", res.Errors)
				}
				return
			}
			for _, e := range res.Errors {
				if e.Field == tc.field && strings.Contains(e.Message, tc.msg) {
					return
				}
			}
			t.Errorf("no issue on %s containing %q: %+v", tc.field, tc.msg, res.Errors)
		})
	}
}

func TestRateLimitCheck(t *testing.T) {
	v := newValidator()
	plan, _ := v.Plan("MEGA")
	res := v.Validate(map[string]any{"symbol": "FX:EURUSD", "width": 2000.0, "height": 1000.0}, plan)
	c := res.RateLimitCheck
	if c.Plan != "MEGA" || c.WithinLimits || c.Resolution.Pass || !c.Parameters.Pass || c.DailyMax != 1000 || c.RequestsPerSecond != 15 {
		t.Errorf("rateLimitCheck = %+v", c)
	}
	if !strings.Contains(strings.Join(res.Suggestions, ";"), "ULTRA") {
		t.Errorf("suggestions = %q", res.Suggestions)
	}
}

// TestBareSymbolSuggestion: a ticker without its exchange is answered with
// the exchange it trades on, not a list that includes impossible ones (a
// Binance pair on NASDAQ).
func TestBareSymbolSuggestion(t *testing.T) {
	v := newValidator()
	plan, _ := v.Plan("BASIC")
	for _, tc := range []struct{ symbol, want, not string }{
		{"BTCUSDT", "BINANCE:BTCUSDT", "NASDAQ"},
		{"ETHUSDT", "BINANCE:ETHUSDT", "NASDAQ"},
		{"AAPL", "NASDAQ:AAPL", "BINANCE"},
		{"EURUSD", "FX:EURUSD", "NASDAQ"},
		{"ZQXW", "get_symbols", "NASDAQ:ZQXW"},
	} {
		res := v.Validate(map[string]any{"symbol": tc.symbol}, plan)
		text := ""
		for _, e := range res.Errors {
			text += e.Message + ";"
		}
		text += strings.Join(res.Suggestions, ";")
		if res.Valid || !strings.Contains(text, tc.want) || strings.Contains(text, tc.not) {
			t.Errorf("%s: %s (want %s, not %s)", tc.symbol, text, tc.want, tc.not)
		}
	}
}

// TestRateLimitCheckFigures: the check carries the numbers a program reads
// (used/allowed studies+drawings, asked/allowed size, the smallest plan that
// fits), for a known plan and for an unknown one, not only a sentence.
func TestRateLimitCheckFigures(t *testing.T) {
	v := newValidator()
	studies := []any{}
	for range 6 {
		studies = append(studies, map[string]any{"name": "Volume"})
	}
	cfg := map[string]any{"symbol": "FX:EURUSD", "width": 1920.0, "height": 1080.0, "studies": studies}
	basic, _ := v.Plan("BASIC")
	for _, tc := range []struct {
		plan                     chart.Plan
		name                     string
		maxW, maxH, allowed      int
		resPlan, paramsPlan      string
		withinLimits, resolution bool
	}{
		{basic, "BASIC", 800, 600, 3, "PRO", "MEGA", false, false},
		{chart.Plan{}, Unknown, 2048, 1920, 50, "PRO", "MEGA", true, true},
	} {
		c := v.Validate(cfg, tc.plan).RateLimitCheck
		r, p := c.Resolution, c.Parameters
		if c.Plan != tc.name || c.WithinLimits != tc.withinLimits || r.Pass != tc.resolution ||
			r.Width != 1920 || r.Height != 1080 || r.MaxWidth != tc.maxW || r.MaxHeight != tc.maxH || r.MinimumPlan != tc.resPlan ||
			p.Used != 6 || p.Allowed != tc.allowed || p.MinimumPlan != tc.paramsPlan {
			t.Errorf("%s: rateLimitCheck = %+v", tc.name, c)
		}
	}
}

// Every config the NL builder makes validates on the plan it says it needs.
func TestBuilderOutputValidates(t *testing.T) {
	d := docsparse.Snapshot()
	b := nl.New(d)
	v := New(d, b)
	for _, text := range []string{"AAPL 50 and 200 day moving averages with RSI 21 last year dark", "BTC 4h bollinger bands (20, 2.5) past week 1280x720",
		"EUR/USD 15m ichimoku today", "ETH MACD 12 26 9 and stoch 14 3 3 heikin ashi 6 months"} {
		r := b.Build(nl.Request{Text: text})
		raw, _ := json.Marshal(r.Config)
		var cfg map[string]any
		_ = json.Unmarshal(raw, &cfg)
		plan, _ := chart.SmallestPlanFor(r.Config.Width, r.Config.Height, len(r.Config.Studies)+len(r.Config.Drawings))
		plan, _ = v.Plan(plan.Name)
		if res := v.Validate(cfg, plan); !res.Valid {
			t.Errorf("%q → %s invalid: %+v", text, raw, res.Errors)
		}
	}
}

func FuzzValidate(f *testing.F) {
	f.Add(`{"symbol":"NASDAQ:AAPL","studies":[{"name":"MACD","input":{"in_0":1e308}}],"range":{"from":1}}`)
	f.Add(`{"drawings":[{"name":"Trend Line","input":{"startDatetime":null}}],"width":-1,"override":{"mainPaneHeight":"x"}}`)
	f.Add(`{"interval":"","range":"","symbol":"::","watermarkSize":null,"studies":null}`)
	v := newValidator()
	plan, _ := v.Plan("BASIC")
	f.Fuzz(func(t *testing.T, raw string) {
		var cfg map[string]any
		if json.Unmarshal([]byte(raw), &cfg) != nil {
			return
		}
		res := v.Validate(cfg, plan)
		for _, e := range res.Errors {
			if e.Severity == "error" && res.Valid {
				t.Fatal("valid with errors")
			}
		}
	})
}

// FuzzBuilderOutputValidates: whatever the text, the config the NL builder
// makes passes validation on the plan it says it needs (the parse is tuned by
// hand for speed: this is its conformance proof). The symbol and
// exchange arguments are left out: they are passed through as given, and
// validation is where a wrong one is caught.
func FuzzBuilderOutputValidates(f *testing.F) {
	for _, s := range []string{"AAPL 50 and 200 day moving averages with RSI 21 last year dark", "BTC 4h bollinger bands (20, 2.5) past week 1280x720",
		"EUR/USD 15m ichimoku today", "ETH MACD 12 26 9 and stoch 14 3 3 heikin ashi 6 months", "RSI:14 NASDAQ:AAPL 9/21 ema 1920x1080 (((",
		"Tesla daily candles with the 20 and 50 EMA and RSI 14 over the past 6 months, dark", "support at 60k and 58k, resistance at 72,500",
		"Show BTC with Williams 77%R and the Awesome Oscillator over 3 months", "bolinger bands on bitcion 4K log scale as jpeg"} {
		f.Add(s)
	}
	d := docsparse.Snapshot()
	b := nl.New(d)
	v := New(d, b)
	f.Fuzz(func(t *testing.T, text string) {
		r := b.Build(nl.Request{Text: text})
		raw, err := json.Marshal(r.Config)
		if err != nil {
			t.Fatal(err)
		}
		var cfg map[string]any
		if err := json.Unmarshal(raw, &cfg); err != nil {
			t.Fatal(err)
		}
		plan, ok := chart.SmallestPlanFor(r.Config.Width, r.Config.Height, len(r.Config.Studies)+len(r.Config.Drawings))
		if !ok {
			return // more studies than any plan allows: the builder warned
		}
		plan, _ = v.Plan(plan.Name)
		if res := v.Validate(cfg, plan); !res.Valid {
			t.Fatalf("%q → %s invalid: %+v", text, raw, res.Errors)
		}
	})
}

// TestReadSettingsValidate: what construct_chart_config reads for a
// timezone, a study's levels and smoothing, or trading sessions passes
// validate_chart_config with no issue on those fields.
func TestReadSettingsValidate(t *testing.T) {
	d := docsparse.Snapshot()
	b := nl.New(d)
	v := New(d, b)
	pro, _ := chart.PlanByName("PRO")
	for _, text := range []string{
		"AAPL 15m last 2 days in New York time", "BTC 1h EST", "ETH 4h UTC", "gold daily in London time",
		"BTC 4h in Denver time", "Nifty 15m IST", "BTC 4h with RSI levels at 80 and 20",
		"RSI 14 with its 9-period EMA smoothing on AAPL", "EURUSD daily stochastic levels 80 20",
		"SPY 1h Williams %R with levels -10 and -90", "ETH daily RSI with overbought 75 and oversold 25",
	} {
		cfg := b.Build(nl.Request{Text: text}).Config
		raw, _ := json.Marshal(cfg)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		res := v.Validate(m, pro)
		for _, e := range res.Errors {
			if strings.HasPrefix(e.Field, "timezone") || strings.HasPrefix(e.Field, "studies") || strings.HasPrefix(e.Field, "range") {
				t.Errorf("%q → %s: %s %s: %s", text, raw, e.Severity, e.Field, e.Message)
			}
		}
	}
}

// FuzzValidateLayout: any Shared Layout body is answered, valid only
// without errors.
func FuzzValidateLayout(f *testing.F) {
	f.Add(`{"symbol":"OTC:GBTC","zoomIn":3,"moveLeft":51,"resetZoom":"yes"}`)
	f.Add(`{"shiftLeft":1,"studies":[],"width":1e308,"watermarkOpacity":null}`)
	v := newValidator()
	plan, _ := v.Plan("PRO")
	f.Fuzz(func(t *testing.T, raw string) {
		var cfg map[string]any
		if json.Unmarshal([]byte(raw), &cfg) != nil {
			return
		}
		res := v.ValidateLayout(cfg, plan)
		for _, e := range res.Errors {
			if e.Severity == "error" && res.Valid {
				t.Fatal("valid with errors")
			}
		}
	})
}

func TestValidateLayout(t *testing.T) {
	v := newValidator()
	pro, _ := v.Plan("PRO")
	basic, _ := v.Plan("BASIC")
	ultra, _ := v.Plan("ULTRA")
	for _, c := range []struct {
		name  string
		cfg   string
		plan  chart.Plan
		valid bool
		field string
	}{
		{"the docs' example", `{"symbol":"OTC:GBTC"}`, pro, true, ""},
		{"empty body: the layout's own", `{}`, pro, true, ""},
		{"all documented fields", `{"symbol":"NASDAQ:AAPL","interval":"4h","width":1280,"height":720,"format":"jpeg","resetZoom":true,"zoomOut":2,"moveRight":10}`, pro, true, ""},
		{"shiftLeft renamed", `{"shiftLeft":5}`, pro, false, "shiftLeft"},
		{"zoom 26", `{"zoomIn":26}`, pro, false, "zoomIn"},
		{"move 0", `{"moveLeft":0}`, pro, false, "moveLeft"},
		{"interval", `{"interval":"7m"}`, pro, false, "interval"},
		{"resolution over BASIC", `{"width":1280,"height":720}`, basic, false, "width"},
		{"width below minimum", `{"width":300}`, pro, false, "width"},
		{"watermark below ULTRA", `{"watermark":"x"}`, pro, false, "watermark"},
		{"watermark on ULTRA", `{"watermark":"x","watermarkSize":32}`, ultra, true, ""},
		{"studies are the layout's", `{"studies":[]}`, pro, false, "studies"},
		{"unknown field", `{"foo":1}`, pro, false, "foo"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var cfg map[string]any
			if err := json.Unmarshal([]byte(c.cfg), &cfg); err != nil {
				t.Fatal(err)
			}
			res := v.ValidateLayout(cfg, c.plan)
			if res.Valid != c.valid {
				t.Fatalf("valid %v, want %v: %+v", res.Valid, c.valid, res.Errors)
			}
			if c.field != "" && (len(res.Errors) == 0 || res.Errors[0].Field != c.field) {
				t.Fatalf("errors %+v, want field %s first", res.Errors, c.field)
			}
		})
	}
}
