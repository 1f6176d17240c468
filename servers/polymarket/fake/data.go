package fake

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"time"
)

// FixtureMarket is a live market row captured 2025-12-31 (published in a
// public repository's docs whose name was not recorded; keys as in
// rs-clob-client src/gamma/types/response.rs), served verbatim: JSON-string outcomes, outcomePrices and clobTokenIds,
// volume/liquidity as strings, the *Num fields as numbers.
const FixtureMarket = `{"id":"1066851","question":"Bitcoin Up or Down - December 31, 12:00PM-12:15PM ET",
 "conditionId":"0x2e6af11e4b853b05ba7135239b21d77e808889b6ce1e735de856c94c4e5b5fce",
 "slug":"btc-updown-15m-1767200400","resolutionSource":"https://data.chain.link/streams/btc-usd",
 "endDate":"2025-12-31T17:15:00Z","startDate":"2025-12-30T17:10:15.861305Z","liquidity":"20579.7452",
 "description":"This market will resolve to \"Up\" if ...","outcomes":"[\"Up\", \"Down\"]",
 "outcomePrices":"[\"0.585\", \"0.415\"]","volume":"92509.470055","active":true,"closed":false,"archived":false,
 "restricted":true,"questionID":"0xf69e...8424","enableOrderBook":true,"orderPriceMinTickSize":0.01,"orderMinSize":5,
 "volumeNum":92509.470055,"liquidityNum":20579.7452,"endDateIso":"2025-12-31","startDateIso":"2025-12-30",
 "volume24hr":815.115085,"clobTokenIds":"[\"8851848546962572193739008211889046036776198486765606333032192644001246174440\", \"10181859819235412241349111952383458602722012323104397550162049365057126390549\"]",
 "acceptingOrders":true,"negRisk":false,"spread":0.01,"lastTradePrice":0.58,"bestBid":0.58,"bestAsk":0.59,
 "umaResolutionStatuses":"[]","feesEnabled":false}`

// Counts of the generated data set.
const (
	NumMarkets = 260 // 250 open + 10 closed, so paging covers 250 open markets
	NumOpen    = 250
	PerEvent   = 10
)

// market is one market as the fake holds it; raw is its Gamma JSON.
type market struct {
	id, slug, question, condition, category string
	tokens                                  [2]string
	price                                   float64 // outcome 0's price
	volume, liquidity, volume24h, change    float64
	start                                   time.Time // startDate: trading began
	end                                     time.Time // endDate; closedTime too when closed
	closed                                  bool
	event                                   int
	raw                                     map[string]any
}

// ClosedLifeDays is how long each resolved market traded.
const ClosedLifeDays = 300

// KnownUser holds positions and activity in the fake; any other valid address has none.
const KnownUser = "0x56687bf447db6ffa42ffe2204a05edaa20f55839"

func tokenOf(i, o int) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("token-%d-%d", i, o)))
	n := new(big.Int).SetBytes(h[:])
	s := n.String()
	if len(s) > 77 {
		s = s[:77]
	}
	return s
}

func conditionOf(i int) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("condition-%d", i)))
	return "0x" + hex.EncodeToString(h[:])
}

var categories = []string{"Crypto", "Politics", "Sports"}

// genMarkets builds the deterministic data set around now.
func genMarkets(now time.Time) []*market {
	ms := make([]*market, 0, NumMarkets+1)
	for i := 0; i < NumMarkets; i++ {
		m := &market{
			id:        strconv.Itoa(2000000 + i),
			slug:      fmt.Sprintf("fake-market-%d", i),
			question:  fmt.Sprintf("Will fake outcome %d happen?", i),
			condition: conditionOf(i),
			category:  categories[i%3],
			tokens:    [2]string{tokenOf(i, 0), tokenOf(i, 1)},
			price:     float64((i*13)%97+2) / 100,
			volume:    float64(1000 + (i*7919)%100000),
			liquidity: float64(500 + (i*104729)%20000),
			volume24h: float64((i * 3571) % 9000),
			change:    float64((i*37)%21-10) / 100,
			end:       now.Add(time.Duration(i+1) * 3 * time.Hour).UTC().Truncate(time.Second),
			closed:    i >= NumOpen,
			event:     i / PerEvent,
		}
		if m.closed {
			// resolved 20+ days ago: its history lies before closedTime,
			// outside every interval window ending now
			m.end = now.Add(-time.Duration(20+i-NumOpen) * 24 * time.Hour).UTC().Truncate(time.Second)
		}
		// open markets began 30 days before their end; resolved ones traded
		// ClosedLifeDays, like a season-long market, so their whole life is
		// far longer than any interval window
		m.start = m.end.Add(-30 * 24 * time.Hour)
		if m.closed {
			m.start = m.end.Add(-ClosedLifeDays * 24 * time.Hour)
		}
		if m.price > 0.98 {
			m.price = 0.98
		}
		m.raw = marketJSON(m)
		ms = append(ms, m)
	}
	return ms
}

func f2(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// marketJSON renders the Gamma market row: the same key set and types as the
// fixture (FixtureMarket).
func marketJSON(m *market) map[string]any {
	p0 := m.price
	p1 := 1 - p0
	r := map[string]any{
		"id": m.id, "question": m.question, "conditionId": m.condition, "slug": m.slug,
		"description": "This market resolves to \"Yes\" if fake outcome happens before the end date. " +
			"Otherwise it resolves to \"No\". The resolution source is the fake oracle.",
		"startDate": m.start.Format(time.RFC3339),
		"endDate":   m.end.Format(time.RFC3339), "endDateIso": m.end.Format("2006-01-02"),
		"outcomes":      `["Yes", "No"]`,
		"outcomePrices": jsonString([]string{f2(p0), f2(round(p1))}),
		"clobTokenIds":  jsonString([]string{m.tokens[0], m.tokens[1]}),
		"volume":        f2(m.volume), "liquidity": f2(m.liquidity), "volumeNum": m.volume, "liquidityNum": m.liquidity,
		"volume24hr": m.volume24h, "active": true, "closed": m.closed, "archived": false, "restricted": true,
		"enableOrderBook": true, "orderPriceMinTickSize": 0.01, "orderMinSize": 5, "acceptingOrders": !m.closed,
		"negRisk": false, "spread": 0.01, "lastTradePrice": p0, "bestBid": round(p0 - 0.01), "bestAsk": p0,
		"oneDayPriceChange": m.change, "umaResolutionStatuses": "[]", "feesEnabled": false,
		"image": "https://example.invalid/img.png", "icon": "https://example.invalid/icon.png",
		// a market names its event (/markets/slug/{slug} | .events[] {id, slug, title}:
		// public shell samples querying Gamma, e.g. howard-xie-dev/discussion)
		"events": []map[string]any{{"id": strconv.Itoa(900000 + m.event), "slug": fmt.Sprintf("fake-event-%d", m.event),
			"title": fmt.Sprintf("Fake event %d (%s)", m.event, m.category)}},
	}
	if m.closed {
		// closedTime is space-separated with a short offset, not RFC 3339
		// (a public historical-data cookbook; polyoxide spec-deviations)
		r["closedTime"] = m.end.Format("2006-01-02 15:04:05") + "+00"
	}
	return r
}

func round(v float64) float64 {
	return float64(int64(v*1000+0.5)) / 1000
}
