package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

// dailyLimitAnswer reports chart-img's answer to a key whose daily maximum is
// used up: 429 {"message":"Limit Exceeded"}. chart-img's docs (Errors, API v2 /
// v3: "429 Too Many Request — Exceed the usage limit or the rate limit";
// source: johnpaul-aquino/charttalk .docs/chart-img-raw-documentation, a copy
// of doc.chart-img.com) give two 429 bodies, "Too Many Requests" and "Limit
// Exceeded"; assumed: "Limit Exceeded" is the daily ("usage") limit and "Too
// Many Requests" the per-second one, as the words say. It is final: a retry
// before the day's reset only spends time (and requests), so pkg/upstream
// does not repeat it (Config.Final).
func dailyLimitAnswer(status int, body []byte) bool {
	if status != http.StatusTooManyRequests {
		return false
	}
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	return strings.EqualFold(strings.TrimSpace(m.Message), "Limit Exceeded")
}

// DailyReset is when chart-img's daily limit starts again after now.
// assumed: the next 00:00 UTC. chart-img documents a "Daily max" per plan
// (Request Limit › Rate Limit) but neither the day's boundary nor a
// Retry-After or rate-limit header; UTC is the docs' own default timezone
// (advanced-chart `timezone` default Etc/UTC).
func DailyReset(now time.Time) time.Time {
	y, m, d := now.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}

// dailyLimitError is the daily limit's 429 as the model sees it: rate_limited,
// not retryable before the reset (retry_after_s and details.resets_at say
// when), with the plan's daily maximum and the way past it.
func (c *Client) dailyLimitError() *envelope.Error {
	now := c.now()
	reset := DailyReset(now)
	wait := reset.Sub(now)
	msg := "chart-img answered 429 Limit Exceeded: this API key's daily request maximum is used up"
	if p := c.Plan(); p.Name != "" {
		msg += fmt.Sprintf(" (%s plan: %d a day)", p.Name, p.DailyMax)
	}
	msg += fmt.Sprintf("; it resets at %s (in %s; chart-img does not state its reset time, 00:00 UTC is assumed). Retrying sooner fails the same way: wait until then",
		reset.Format(time.RFC3339), wait.Round(time.Minute))
	var larger []string
	for _, p := range chart.Plans {
		if p.DailyMax > c.Plan().DailyMax && p.Name != "ENTERPRISE" {
			larger = append(larger, fmt.Sprintf("%s %d", p.Name, p.DailyMax))
		}
	}
	if len(larger) > 0 {
		msg += ", or use a key on a plan with a larger daily maximum (" + strings.Join(larger, ", ") + " a day)"
	}
	e := envelope.New(envelope.RateLimited, "%s", msg).WithRetryable(false).
		WithDetail("limit", "daily").WithDetail("resets_at", reset.Format(time.RFC3339))
	e.RetryAfter = wait // when it may work again; Retryable stays false: not before then
	return e
}
