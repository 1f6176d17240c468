package client

import (
	"context"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Spot is a BTC spot price with where and when it was read.
type Spot struct {
	Price    float64
	Quote    string
	Source   string
	AsOf     time.Time
	Fallback bool
	Src      Source
	// PrimaryErr is why the primary source was not used (fallback only).
	PrimaryErr string
}

// BTCSpot reads Coinbase's spot price (GET /v2/prices/BTC-USD/spot →
// {"data":{"amount":"…","base":"BTC","currency":"USD"}}, Coinbase Data API
// "Get Spot Price", keyless), falling back to Kraken's public ticker (GET
// /0/public/Ticker?pair=XBTUSD → {"error":[],"result":{"XXBTZUSD":{"c":["last","vol"],…}}},
// Kraken REST "Get Ticker Information"; c[0] is the last trade price).
func (c *Client) BTCSpot(ctx context.Context) (Spot, error) {
	b, src, err := c.get(ctx, c.btc, "btc spot", "/v2/prices/BTC-USD/spot", nil)
	if err == nil {
		var v coinbaseSpot
		v, err = decode[coinbaseSpot]("btc spot", b)
		if err == nil && v.Data.Amount <= 0 {
			err = envelope.New(envelope.UpstreamError, "Coinbase's answer has no BTC price")
		}
		if err == nil {
			return Spot{Price: float64(v.Data.Amount), Quote: "USD", Source: "coinbase", AsOf: asOf(src), Src: src}, nil
		}
	}
	primary := envelope.From(err).Message
	b, src, err2 := c.get(ctx, c.btcFallback, "btc spot (fallback)", "/0/public/Ticker", map[string][]string{"pair": {"XBTUSD"}})
	if err2 != nil {
		return Spot{}, envelope.New(envelope.UpstreamUnavailable, "no BTC price: Coinbase failed (%s) and Kraken failed (%s); try again shortly", primary, envelope.From(err2).Message).WithRetryable(true)
	}
	v, err2 := decode[struct {
		Error  []string `json:"error"`
		Result map[string]struct {
			C []extract.Num `json:"c"`
		} `json:"result"`
	}]("btc spot (fallback)", b)
	if err2 == nil {
		for _, t := range v.Result {
			if len(t.C) > 0 && t.C[0] > 0 {
				return Spot{Price: float64(t.C[0]), Quote: "USD", Source: "kraken", AsOf: asOf(src), Src: src, Fallback: true, PrimaryErr: primary}, nil
			}
		}
		err2 = envelope.New(envelope.UpstreamError, "Kraken's answer has no BTC price (errors: %v)", v.Error)
	}
	return Spot{}, envelope.New(envelope.UpstreamUnavailable, "no BTC price: Coinbase failed (%s) and Kraken failed (%s); try again shortly", primary, envelope.From(err2).Message).WithRetryable(true)
}

// coinbaseSpot is Coinbase's spot answer.
type coinbaseSpot struct {
	Data struct {
		Amount   extract.Num `json:"amount"`
		Currency string      `json:"currency"`
	} `json:"data"`
}

func asOf(src Source) time.Time {
	return time.Now().UTC().Add(-time.Duration(src.AgeS) * time.Second).Truncate(time.Second)
}
