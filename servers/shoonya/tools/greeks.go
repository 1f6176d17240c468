package tools

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// GreeksIn is get_option_greeks' input.
type GreeksIn struct {
	Exchange      string  `json:"exchange" mcp:"enum=NFO|BFO|CDS|BCD|MCX|NCX"`
	TradingSymbol string  `json:"trading_symbol" jsonschema:"an option, e.g. NIFTY30DEC25C26000" mcp:"minLength=1;maxLength=64"`
	Volatility    float64 `json:"volatility,omitempty" jsonschema:"% a year; omit: implied from the last price" mcp:"min=0;max=500"`
	InterestRate  float64 `json:"interest_rate,omitempty" jsonschema:"% a year, default 7" mcp:"min=0;max=50"`
}

// GreeksOut is one option's Greeks (Black-76 on the nearest future).
type GreeksOut struct {
	TradingSymbol   string         `json:"trading_symbol"`
	Strike          float64        `json:"strike"`
	Expiry          string         `json:"expiry"`
	DaysToExpiry    float64        `json:"days_to_expiry"`
	OptionPrice     float64        `json:"option_price"`
	Underlying      string         `json:"underlying"`
	UnderlyingPrice float64        `json:"underlying_price"`
	IV              float64        `json:"iv_percent"`
	IVSource        string         `json:"iv_source" mcp:"enum=implied|given"`
	Delta           float64        `json:"delta"`
	Gamma           float64        `json:"gamma"`
	ThetaPerDay     float64        `json:"theta_per_day"`
	VegaPer1Pct     float64        `json:"vega_per_1pct"`
	Broker          map[string]any `json:"broker,omitempty" jsonschema:"GetOptionGreek at this IV, Noren's units; or error" mcp:"type=object"`
}

// DefaultInterestRate is the rate (percent a year) used when none is given.
// assumed: close to India's policy and T-bill rates in 2026.
const DefaultInterestRate = 7.0

// black76 is the price and Greeks of a European option on a future:
// price, delta, gamma, theta a year, vega per 1.00 of volatility.
func black76(call bool, f, k, t, r, vol float64) (price, delta, gamma, theta, vega float64) {
	sq := vol * math.Sqrt(t)
	d1 := (math.Log(f/k) + vol*vol*t/2) / sq
	d2 := d1 - sq
	df := math.Exp(-r * t)
	pdf := math.Exp(-d1*d1/2) / math.Sqrt(2*math.Pi)
	gamma = df * pdf / (f * sq)
	vega = f * df * pdf * math.Sqrt(t)
	if call {
		price = df * (f*cdf(d1) - k*cdf(d2))
		delta = df * cdf(d1)
	} else {
		price = df * (k*cdf(-d2) - f*cdf(-d1))
		delta = -df * cdf(-d1)
	}
	theta = -f*df*pdf*vol/(2*math.Sqrt(t)) + r*price
	return
}

func cdf(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// impliedVol solves black76's price = target for volatility by bisection on
// 0.01%..500% (the price rises with volatility, so one root, if any). It
// fails when the target is outside what any volatility gives.
func impliedVol(call bool, f, k, t, r, target float64) (float64, error) {
	lo, hi := 1e-4, 5.0
	plo, _, _, _, _ := black76(call, f, k, t, r, lo)
	phi, _, _, _, _ := black76(call, f, k, t, r, hi)
	if !(target >= plo-1e-9 && target <= phi+1e-9) {
		return 0, envelope.Invalid("volatility", "no implied volatility fits the last price %.2f: with the underlying at %.2f any volatility gives %.2f to %.2f; pass volatility", target, f, plo, phi)
	}
	for range 200 {
		mid := (lo + hi) / 2
		p, _, _, _, _ := black76(call, f, k, t, r, mid)
		if p < target {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-9 {
			break
		}
	}
	return (lo + hi) / 2, nil
}

// optionContract reads an option's underlying, expiry, type and strike
// from its symbol (NIFTY30DEC25C26000: ShoonyaApi-py README symbol grammar).
func optionContract(tsym string) (name string, exp time.Time, call bool, strike float64, ok bool) {
	m := contractExpiry.FindStringSubmatch(tsym)
	if m == nil || (m[3] != "C" && m[3] != "P") {
		return "", time.Time{}, false, 0, false
	}
	e, err := time.ParseInLocation("02Jan06", m[2][:3]+strings.ToLower(m[2][3:5])+m[2][5:], IST)
	s, serr := strconv.ParseFloat(tsym[len(m[0]):], 64)
	if err != nil || serr != nil || s <= 0 {
		return "", time.Time{}, false, 0, false
	}
	return m[1], e.Add(15*time.Hour + 30*time.Minute), m[3] == "C", s, true
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

func optionGreeksTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "get_option_greeks", Title: "Option Greeks", Toolset: "options",
		Description: "One option's delta, gamma, theta/day, vega/1%, IV (implied from the last price, or yours) and days to expiry; Black-76 on the nearest future, Noren's GetOptionGreek beside.",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, in GreeksIn) (GreeksOut, error) {
		exch, tsym := strings.ToUpper(in.Exchange), strings.ToUpper(strings.TrimSpace(in.TradingSymbol))
		name, exp, call, strike, ok := optionContract(tsym)
		if !ok {
			return GreeksOut{}, envelope.Invalid("trading_symbol", "%s is not an option symbol (NAME + DDMMMYY + C|P + strike, e.g. NIFTY30DEC25C26000); get_option_chain lists them", tsym)
		}
		t := exp.Sub(d.now()).Hours() / 24
		if t <= 0 {
			return GreeksOut{}, envelope.Invalid("trading_symbol", "%s expired on %s", tsym, exp.Format("2006-01-02"))
		}
		r := in.InterestRate
		if r == 0 {
			r = DefaultInterestRate
		}
		return do(ctx, d, func(a *noren.Auth) (GreeksOut, error) {
			px, err := d.lastPriceOf(ctx, a, exch, tsym)
			if err != nil {
				return GreeksOut{}, reword(err, "trading_symbol", "no last price for "+tsym+" on "+exch+"; get_option_chain lists the options")
			}
			fut, err := d.nearestContractOf(ctx, a, exch, name, isFuture)
			if err != nil {
				return GreeksOut{}, err
			}
			if fut == "" {
				return GreeksOut{}, envelope.Invalid("trading_symbol", "no future of %s on %s to price %s on", name, exch, tsym)
			}
			f, err := d.lastPriceOf(ctx, a, exch, fut)
			if err != nil {
				return GreeksOut{}, reword(err, "trading_symbol", "no last price for the future "+fut)
			}
			years := t / 365
			out := GreeksOut{TradingSymbol: tsym, Strike: strike, Expiry: exp.Format("2006-01-02"), DaysToExpiry: round(t, 2),
				OptionPrice: px, Underlying: fut, UnderlyingPrice: f, IVSource: "given"}
			vol := in.Volatility / 100
			if vol <= 0 {
				out.IVSource = "implied"
				if vol, err = impliedVol(call, f, strike, years, r/100, px); err != nil {
					return GreeksOut{}, err
				}
			}
			_, delta, gamma, theta, vega := black76(call, f, strike, years, r/100, vol)
			out.IV, out.Delta, out.Gamma = round(vol*100, 2), round(delta, 4), round(gamma, 6)
			out.ThetaPerDay, out.VegaPer1Pct = round(theta/365, 2), round(vega/100, 2)
			g, err := d.client().GetOptionGreek(ctx, a, noren.OptionGreekRequest{Expiry: strings.ToUpper(exp.Format("02-Jan-2006")),
				Strike: strike, Spot: f, Rate: r, Volatility: round(vol*100, 4), OptType: map[bool]string{true: "CE", false: "PE"}[call]})
			switch {
			case noren.IsSessionExpired(err):
				return GreeksOut{}, err
			case err != nil:
				out.Broker = map[string]any{"error": envelope.From(err).Message}
			case call:
				out.Broker = map[string]any{"price": float64(g.CallPrice), "delta": float64(g.CallDelta), "gamma": float64(g.CallGamma), "theta": float64(g.CallTheta), "vega": float64(g.CallVega)}
			default:
				out.Broker = map[string]any{"price": float64(g.PutPrice), "delta": float64(g.PutDelta), "gamma": float64(g.PutGamma), "theta": float64(g.PutTheta), "vega": float64(g.PutVega)}
			}
			return out, nil
		})
	})
}

// reword keeps err's code unless it is lastPriceOf's own "no last price"
// refusal, which speaks of the option chain's strike_price.
func reword(err error, field, msg string) error {
	if e := envelope.From(err); e.Code == envelope.InvalidArgument && e.Details["field"] == "strike_price" {
		return envelope.Invalid(field, "%s", msg)
	}
	return err
}
