// Package pytool is polymarket's execute-python-code tool: the seed's
// {code, input_data?} → {success, output, error, execution_time_ms} over the
// layered sandbox (package sandbox), limited per bearer user.
package pytool

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/metrics"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/sandbox"
)

// Name is the seed's tool name; agents built for the original call it so.
const Name = "execute-python-code"

// EnvRunsPerHour changes the per-user limit (default 10, the seed's).
const EnvRunsPerHour = "POLYMARKET_PYTHON_RUNS_PER_HOUR"

// DefaultRunsPerHour is the seed's limit (its python-functions/README.md, "Rate Limiting").
const DefaultRunsPerHour = 10

// RedisPrefix starts the Redis keys of the shared per-user limit.
const RedisPrefix = "rl:polymarket:python:"

// Config configures the tool.
type Config struct {
	Sandbox sandbox.Config
	// RunsPerHour per bearer user; 0 reads POLYMARKET_PYTHON_RUNS_PER_HOUR
	// (default 10).
	RunsPerHour int
	// Redis shares the limit between replicas (serve's r.Redis); it wins
	// over Store.
	Redis *redis.Client
	// Store keeps the limit in the server's state file (serve's r.Store()),
	// shared by every process on the host; neither keeps it in this process.
	Store *store.DB
	// Clock replaces time for the limiter (tests).
	Clock clock.Clock
}

// In is the seed's input.
type In struct {
	Code      string         `json:"code" jsonschema:"Python 3 source; print() what you want back" mcp:"minLength=1;maxLength=65536"`
	InputData map[string]any `json:"input_data,omitempty" jsonschema:"JSON object; each key (a Python identifier) becomes a global"`
}

// Out is the seed's output plus stderr. Error is null on success, as the
// seed's own example response shows ("error": null; the seed's
// python-functions/README.md, "Test Request").
type Out struct {
	Success         bool   `json:"success" jsonschema:"false if the code raised, timed out, hit a limit or the sandbox is unavailable"`
	Output          string `json:"output" jsonschema:"stdout (64 KiB max)"`
	Error           any    `json:"error" jsonschema:"exception 'Type: message', timeout, memory limit, output truncated, sandbox unavailable; null on success" mcp:"type=string|null"`
	ExecutionTimeMs int64  `json:"execution_time_ms"`
	Stderr          string `json:"stderr,omitempty" jsonschema:"stderr and the traceback of the code (16 KiB max)"`
}

// failed is a run that did not succeed, with its error text.
func failed(msg string) Out { return Out{Error: msg} }

const description = `Run Python 3 in an isolated sandbox to analyse data you fetched (pass it as input_data); no state between runs.
Imports: json math datetime statistics itertools functools collections re string random. No files, network, processes, eval/exec/open. Limits: 30 s, 512 MiB, 64 KiB output, input_data 1 MiB and 100 levels deep, 10 runs/hour/user, one at a time.
A Python error is success:false + error + stderr: fix and rerun. Errors: rate_limited (limit, busy or a run of yours in progress; retry_after_s), invalid_argument.`

// Tool is the tool over a running sandbox.
type Tool struct {
	sb      *sandbox.Sandbox
	limiter ratelimit.Limiter
	perHour int
	log     zerolog.Logger
	// running holds the users with a run in progress and when it began:
	// one run at a time per user, so that several tokens of one user
	// cannot hold every slot.
	mu      sync.Mutex
	running map[string]time.Time
	timeout time.Duration
}

// New probes the sandbox (logging which layers are active) and returns the
// tool. A sandbox missing a layer still gives a tool: every call then answers
// success:false, "sandbox unavailable: <layer>", and runs nothing.
func New(ctx context.Context, cfg Config, log zerolog.Logger) (*Tool, error) {
	n := cfg.RunsPerHour
	if n == 0 {
		n = DefaultRunsPerHour
		if v := env.Or(EnvRunsPerHour, ""); v != "" {
			p, err := strconv.Atoi(v)
			if err != nil || p < 1 || p > 100000 {
				return nil, fmt.Errorf("%s=%q: want a whole number 1..100000", EnvRunsPerHour, v)
			}
			n = p
		}
	}
	var opts []ratelimit.Option
	switch {
	case cfg.Redis != nil:
		opts = append(opts, ratelimit.WithRedis(cfg.Redis, RedisPrefix))
	case cfg.Store != nil:
		opts = append(opts, ratelimit.WithStore(cfg.Store, RedisPrefix))
	}
	if cfg.Clock != nil {
		opts = append(opts, ratelimit.WithClock(cfg.Clock))
	}
	t := &Tool{
		sb:      sandbox.New(ctx, cfg.Sandbox, log.With().Str("component", "python-sandbox").Logger()),
		limiter: ratelimit.NewSlidingWindow(n, time.Hour, opts...),
		perHour: n,
		log:     log,
		running: map[string]time.Time{},
		timeout: cmp.Or(cfg.Sandbox.Timeout, sandbox.DefaultTimeout),
	}
	return t, nil
}

// Sandbox is the sandbox the tool runs code in (its Probe says which layers
// are active).
func (t *Tool) Sandbox() *sandbox.Sandbox { return t.sb }

// Toolkit is the MCP tool definition.
func (t *Tool) Toolkit() toolkit.Tool {
	tk := toolkit.New(toolkit.Def{
		Name: Name, Title: "Execute Python code", Toolset: "analysis",
		Description: description,
		// Runs code that reads nothing and changes nothing outside itself.
		Hints: toolkit.Hints{ReadOnly: true},
	}, t.handle)
	// Running code is a privilege all the same: under OAuth it needs the
	// write scope.
	tk.NeedsWrite = true
	return tk
}

// Register adds execute-python-code to a polymarket server: the limit is
// shared through r.Redis when MCPFLEET_REDIS_URL is set.
func Register(ctx context.Context, r *serve.Registry, cfg Config) error {
	if cfg.Redis == nil {
		cfg.Redis = r.Redis
	}
	if cfg.Redis == nil && cfg.Store == nil {
		db, err := r.Store() // runs per hour count across processes (stdio: one per session)
		if err != nil {
			return err
		}
		cfg.Store = db
	}
	t, err := New(ctx, cfg, r.Log)
	if err != nil {
		return err
	}
	r.AddTools(t.Toolkit())
	return nil
}

func (t *Tool) handle(ctx context.Context, in In) (Out, error) {
	var raw json.RawMessage
	if in.InputData != nil {
		b, err := json.Marshal(in.InputData)
		if err != nil {
			return Out{}, envelope.Invalid("input_data", "input_data is not valid JSON")
		}
		raw = b
	}
	input, err := sandbox.Validate(sandbox.Request{Code: in.Code, InputData: raw})
	var refused *sandbox.RefusedError
	if errors.As(err, &refused) {
		return failed(refused.Message), nil
	}
	if err != nil {
		var ie *sandbox.InvalidError
		if errors.As(err, &ie) {
			return Out{}, envelope.Invalid(ie.Field, "%s", ie.Message)
		}
		return Out{}, err
	}
	if layer := t.sb.Unavailable(); layer != "" {
		// Fail closed before counting: nothing would run.
		metrics.SandboxRun("unavailable")
		return failed("sandbox unavailable: " + layer), nil
	}
	user := serve.UserID(ctx)
	done, wait := t.begin(user)
	if done == nil {
		return Out{}, envelope.New(envelope.RateLimited,
			"a Python run of yours is still in progress (one run at a time per user); retry when it has ended").WithRetryAfter(wait)
	}
	defer done()
	release, err := t.sb.Acquire(ctx)
	if errors.Is(err, sandbox.ErrBusy) {
		wait := t.sb.QueueWait()
		metrics.SandboxRun("queue_full")
		return Out{}, envelope.New(envelope.RateLimited,
			"the Python sandbox is busy (all run slots taken for %s); retry shortly", wait).WithRetryAfter(wait)
	}
	if err != nil {
		return Out{}, err
	}
	defer release()
	// Counted only once a slot is held: a busy refusal costs no run.
	d, err := t.limiter.Allow(ctx, user)
	if err != nil {
		return Out{}, envelope.New(envelope.UpstreamUnavailable, "the shared rate-limit store (Redis) did not answer; retry shortly").
			WithRetryAfter(5 * time.Second).WithCause(err)
	}
	if !d.Allowed {
		return Out{}, envelope.New(envelope.RateLimited, "%d Python runs per hour per user are used up; the next run is possible in %s",
			t.perHour, d.RetryAfter.Round(time.Second)).WithRetryAfter(d.RetryAfter)
	}
	res, err := t.sb.RunAcquired(ctx, in.Code, input)
	if err != nil {
		metrics.SandboxRun("error")
		return Out{}, err
	}
	metrics.SandboxRun(runOutcome(res))
	out := Out{
		Success:         res.Success,
		Output:          res.Output,
		ExecutionTimeMs: res.Duration.Milliseconds(),
		Stderr:          res.Stderr,
	}
	if !res.Success {
		out.Error = res.Error
	}
	return out, nil
}

// begin marks user as running and returns the function that ends it, or
// nil and how long the run in progress may still take.
func (t *Tool) begin(user string) (done func(), wait time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if since, busy := t.running[user]; busy {
		return nil, max(time.Second, t.timeout-time.Since(since)).Round(time.Second)
	}
	t.running[user] = time.Now()
	return func() {
		t.mu.Lock()
		delete(t.running, user)
		t.mu.Unlock()
	}, 0
}

// runOutcome is a run's label for mcpfleet_sandbox_runs_total: the
// sandbox's own verdict, never read from the text of the error (an
// exception class named timeout is an error, not a timeout).
func runOutcome(r sandbox.Result) string {
	if r.Outcome == "" {
		return sandbox.OutcomeError
	}
	return r.Outcome
}
