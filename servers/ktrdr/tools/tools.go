// Package tools defines the ktrdr MCP tools over the KTRDR client. Descriptions
// follow one pattern, kept dense because every client pays for tools/list:
// summary; when to use; arguments beyond the schema; what comes back; errors;
// an example; related tools.
package tools

import (
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

// Options tune the tools; the zero value is production.
type Options struct {
	// PollMin and PollMax bound wait_for_operation's backoff (default 0.5 s → 5 s).
	PollMin, PollMax time.Duration
	// APIURL is reported by health_check.
	APIURL string
	// Redis, when set (MCPFLEET_REDIS_URL), holds get_data_summary's cache
	// so every replica shares it; nil keeps it in this process.
	Redis redis.Cmdable
	// SummaryTTL overrides SummaryTTL (tests); 0 is the default.
	SummaryTTL time.Duration
	// CacheOptions apply to the summary cache (tests: a fake clock; the
	// server: a handler logging Redis failures).
	CacheOptions []cache.Option
}

// Toolsets.
const (
	setOperations = "operations"
	setData       = "data"
	setTraining   = "training"
	setSystem     = "system"
)

// Writers are the tools whose readOnlyHint is false: read-only mode (serve)
// drops them.
var Writers = []string{"cancel_operation", "resume_operation", "retry_operation", "trigger_data_loading", "start_training", "start_backtest", "trigger_research", "cancel_research"}

// ToolCount is how many tools All returns.
const ToolCount = 29

// All returns every ktrdr tool.
func All(c *client.Client, o Options) []toolkit.Tool {
	if o.PollMin <= 0 {
		o.PollMin = 500 * time.Millisecond
	}
	if o.PollMax <= 0 {
		o.PollMax = 5 * time.Second
	}
	p := newPoller(c, o.PollMin, o.PollMax)
	sc := newSummaryCache(o.SummaryTTL, o.Redis, o.CacheOptions...)
	return []toolkit.Tool{
		listOperations(c), getOperationStatus(c), cancelOperation(c), getOperationResults(c), waitForOperation(p),
		resumeOperation(c), retryOperation(c), listCheckpoints(c),
		triggerDataLoading(c, sc), getMarketData(c), getDataSummary(c, sc), getSymbols(c), getIndicators(c),
		startTraining(c), startBacktest(c), getBacktestResults(c), getStrategies(c), getStrategy(c), validateStrategy(c), getStrategyFeatures(c),
		triggerResearch(c), getAgentStatus(c), cancelResearch(c), getAgentBudget(c), listChildOperations(c), listTrainedModels(c), getModelPerformance(c), predict(c),
		healthCheck(c, o.APIURL),
	}
}
