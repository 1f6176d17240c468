package fake

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
)

// The fake answers as the real APIs do (each rule's source is cited where it
// is implemented): status, body and, for the sunset routes, headers.
func TestRealRules(t *testing.T) {
	s := New(Options{})
	base, stop := s.Start()
	defer stop()
	_, _, _, tok := s.Market(4)
	_, _, cond, closedTok := s.Market(NumOpen)
	now := clock.MustFromEnv().Now().Unix() // the fake's clock: MCPFLEET_FAKE_NOW moves both
	ts := func(n int64) string { return strconv.FormatInt(n, 10) }
	for _, tc := range []struct {
		name, path string
		status     int
		body       string
		header     string
	}{
		{"comments refuse market", "/comments?parent_entity_type=market&parent_entity_id=559651", 422, `expected value to be one of \"Event, Series, PerpsAsset\"`, ""},
		{"comments need both params", "/comments?parent_entity_type=Event", 422, "required query parameter is missing", ""},
		{"1m needs fidelity 10", "/prices-history?market=" + tok[0] + "&interval=1m", 400, "minimum 'fidelity' for '1m' range is 10", ""},
		{"1w needs fidelity 5", "/prices-history?market=" + tok[0] + "&interval=1w&fidelity=1", 400, "minimum 'fidelity' for '1w' range is 5", ""},
		{"1m at fidelity 10", "/prices-history?market=" + tok[0] + "&interval=1m&fidelity=10", 200, `"history":[{`, ""},
		{"a window over 15 days", "/prices-history?market=" + tok[0] + "&startTs=" + ts(now-1300000) + "&endTs=" + ts(now), 400, "'startTs' and 'endTs' interval is too long", ""},
		{"interval with timestamps accepted", "/prices-history?market=" + tok[0] + "&interval=1d&startTs=" + ts(now-7200), 200, `"history":[{`, ""},
		{"resolved market: empty interval", "/prices-history?market=" + closedTok[0] + "&interval=1d", 200, `{"history":[]}`, ""},
		{"resolved market: window before close", "/prices-history?market=" + closedTok[0] + "&startTs=" + ts(now-30*86400) + "&endTs=" + ts(now-20*86400), 200, `"history":[{`, ""},
		{"offset past 2000", "/markets?offset=3000", 422, "offset too large, use /markets/keyset for deeper pagination", "Deprecation"},
		{"offset 2000 served, with the sunset headers", "/markets?offset=2000", 200, `[]`, "Sunset"},
		{"events too", "/events?offset=2001", 422, "offset too large", "Deprecation"},
		{"closed absent means open only", "/markets?condition_ids=" + cond, 200, `[]`, ""},
		{"closed=true finds it", "/markets/keyset?condition_ids=" + cond + "&closed=true", 200, `"closedTime":"`, ""},
		{"no category, tags only on request", "/markets/keyset?limit=1&include_tag=true", 200, `"tags":[{`, ""},
		{"holders of an unknown market: null", "/holders?market=0x" + strings.Repeat("ab", 32), 200, "null", ""},
		{"holders limit 0: null", "/holders?limit=0&market=" + cond, 200, "null", ""},
		{"holders of a malformed id", "/holders?market=0x1234", 400, "required query param 'market' not provided", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := http.Get(base + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.status || !strings.Contains(string(b), tc.body) {
				t.Fatalf("%d %s", res.StatusCode, b)
			}
			if tc.header != "" && res.Header.Get(tc.header) == "" {
				t.Fatalf("no %s header: %v", tc.header, res.Header)
			}
		})
	}
	t.Run("markets carry no category, and tags only with include_tag", func(t *testing.T) {
		res, err := http.Get(base + "/markets/keyset?limit=5")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if strings.Contains(string(b), `"category"`) || strings.Contains(string(b), `"tags"`) {
			t.Fatalf("%s", b)
		}
	})
}
