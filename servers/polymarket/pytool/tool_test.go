package pytool_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/pytool"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/sandbox"
)

// statisticsExample is the seed's documented statistics example.
const statisticsExample = `import statistics
prices = [0.42, 0.45, 0.47, 0.44, 0.51, 0.49]
print("mean", round(statistics.mean(prices), 4))
print("median", round(statistics.median(prices), 4))
print("stdev", round(statistics.stdev(prices), 4))`

// TestOrdinaryCode: the seed's examples and everyday analysis code work.
func TestOrdinaryCode(t *testing.T) {
	c := connect(t, testConfig())
	cases := []struct {
		name, code string
		input      map[string]any
		want       string
	}{
		{"statistics", statisticsExample, nil, "mean 0.4633\nmedian 0.46\nstdev 0.0333\n"},
		{"json processing", "import json\nd = json.loads(raw)\nprint(json.dumps(sorted(m['q'] for m in d), separators=(',', ':')))",
			map[string]any{"raw": `[{"q":"b"},{"q":"a"}]`}, "[\"a\",\"b\"]\n"},
		{"date arithmetic", "from datetime import datetime, timedelta\nd = datetime(2026, 11, 3) + timedelta(days=30)\nprint(d.strftime('%Y-%m-%d %A'))", nil, "2026-12-03 Thursday\n"},
		{"now works", "from datetime import datetime, timedelta\nprint(type(datetime.now() + timedelta(hours=1)).__name__)", nil, "datetime\n"},
		{"strptime", "from datetime import datetime\nprint(datetime.strptime('2026-03-04 05:06', '%Y-%m-%d %H:%M').isoformat())", nil, "2026-03-04T05:06:00\n"},
		{"input_data globals", "print(sum(m['volume'] for m in markets), threshold)", map[string]any{"markets": []any{map[string]any{"volume": 1.5}, map[string]any{"volume": 2}}, "threshold": 3}, "3.5 3\n"},
		{"classes and try/except", "class Acc:\n    def __init__(self):\n        self.n = 0\n    def add(self, x):\n        self.n += x\n        return self\ntry:\n    Acc().add(1).add('x')\nexcept TypeError as e:\n    print('caught', type(e).__name__)", nil, "caught TypeError\n"},
		{"comprehensions", "print({k: [i*i for i in range(k)] for k in (1, 2, 3)})", nil, "{1: [0], 2: [0, 1], 3: [0, 1, 4]}\n"},
		{"Counter.most_common", "from collections import Counter\nprint(Counter('abracadabra').most_common(2))", nil, "[('a', 5), ('b', 2)]\n"},
		{"namedtuple", "from collections import namedtuple\nP = namedtuple('P', 'x y')\nprint(P(1, 2))", nil, "P(x=1, y=2)\n"},
		{"random.seed", "import random\nrandom.seed('abc')\na = random.random()\nrandom.seed('abc')\nprint(a == random.random())", nil, "True\n"},
		{"linear_regression", "import statistics\nr = statistics.linear_regression([1, 2, 3, 4], [2, 4, 6, 8])\nprint(r.slope, r.intercept)", nil, "2.0 0.0\n"},
		{"itertools functools re string math", "import itertools, functools, re, string, math\nprint(list(itertools.accumulate([1,2,3])), functools.reduce(lambda a, b: a*b, [1,2,3,4]), re.findall(r'\\d+', 'a1b22'), string.ascii_lowercase[:3], math.isqrt(17))", nil, "[1, 3, 6] 24 ['1', '22'] abc 4\n"},
		{"sorted with key and lambda", "rows = [('a', 3), ('b', 1)]\nprint(sorted(rows, key=lambda r: r[1]))", nil, "[('b', 1), ('a', 3)]\n"},
		{"getcwd-free unicode output", "print('prix €', 'ok')", nil, "prix € ok\n"},
		{"json indent and sort_keys", "import json\nprint(json.dumps({'b': [1, {'y': 2, 'x': 1}], 'a': None}, indent=2, sort_keys=True))", nil, "{\n  \"a\": null,\n  \"b\": [\n    1,\n    {\n      \"x\": 1,\n      \"y\": 2\n    }\n  ]\n}\n"},
		{"json ensure_ascii and default", "import json, datetime\nprint(json.dumps({'p': 'é', 'd': datetime.date(2026, 1, 2)}, ensure_ascii=False, default=str))", nil, "{\"p\": \"é\", \"d\": \"2026-01-02\"}\n"},
		{"json loads bytes with a BOM", "import json\nprint(json.loads(b'\\xef\\xbb\\xbf[1]'), json.loads('[2]'.encode('utf-16')))", nil, "[1] [2]\n"},
		{"statistics at large", "import statistics as s\nd = [1, 2, 2, 3, 9]\nprint(s.mode(d), s.pstdev(d) > 0, s.quantiles(d, n=4), round(s.correlation([1, 2, 3], [2, 4, 7]), 4), s.fmean(d), s.harmonic_mean([1, 2]))", nil, "2 True [1.5, 2.0, 6.0] 0.9934 3.4 1.3333333333333333\n"},
		{"fractions and decimal", "from statistics import mean\nfrom fractions import Fraction\nimport decimal\nprint(mean([Fraction(1, 3), Fraction(2, 3)]), decimal.Decimal('0.1') + decimal.Decimal('0.2'))", nil, "1/2 0.3\n"},
		{"datetime timezone and isoformat", "from datetime import datetime, timezone, timedelta\nd = datetime.fromisoformat('2026-11-27T10:00:00+00:00')\nprint((d.astimezone(timezone(timedelta(hours=2)))).isoformat(), d.timestamp())", nil, "2026-11-27T12:00:00+02:00 1795773600.0\n"},
		{"collections at large", "from collections import defaultdict, OrderedDict, deque, ChainMap\nimport collections.abc\nd = defaultdict(list); d['a'].append(1)\nq = deque([1, 2], maxlen=2); q.append(3)\nprint(dict(d), list(q), OrderedDict(b=1), ChainMap({'x': 1})['x'], isinstance({}, collections.abc.Mapping))", nil, "{'a': [1]} [2, 3] OrderedDict([('b', 1)]) 1 True\n"},
		{"random at large", "import random\nr = random.Random(7)\nprint(len(r.sample(range(100), 5)), 0 <= r.random() < 1, r.choice('ab') in 'ab', len(random.choices([1, 2], k=3)))\nrandom.shuffle([1, 2])", nil, "5 True True 3\n"},
		{"re, string, itertools, functools, math at large", "import re, string, itertools, functools, math\nprint(re.sub(r'(\\w+)@', r'<\\1>', 'a@b'), string.Template('$x').substitute(x=1), list(itertools.pairwise([1, 2, 3])), functools.lru_cache()(abs)(-2), math.comb(5, 2), math.fsum([0.1] * 10))", nil, "<a>b 1 [(1, 2), (2, 3)] 2 10 1.0\n"},
		{"enum and dataclass-free classes", "import enum\nclass Side(enum.Enum):\n    BUY = 'buy'\nprint(Side('buy').name, list(enum.Enum('S', 'A B').__members__))", nil, "BUY ['A', 'B']\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := run(t, c, tc.code, tc.input)
			if !out.Success || out.Output != tc.want || errOf(out) != "" {
				t.Fatalf("got %+v, want output %q\n%s", out, tc.want, c.Logs())
			}
		})
	}
}

// TestUserErrors: a Python error is a successful call with success:false,
// its type and message, and a traceback of the user's lines only.
func TestUserErrors(t *testing.T) {
	c := connect(t, testConfig())
	res := c.Call(t, pytool.Name, map[string]any{"code": "print('partial')\nx = {}\nx['missing']"})
	if res.IsError {
		t.Fatalf("a Python error must not be a tool error: %s", servetest.Text(res))
	}
	out := servetest.Decode[pytool.Out](t, res)
	if out.Success || errOf(out) != "KeyError: 'missing'" || out.Output != "partial\n" {
		t.Fatalf("got %+v", out)
	}
	if !strings.Contains(out.Stderr, "line 3, in <module>") || strings.Contains(out.Stderr, "/usr/lib") {
		t.Fatalf("traceback: %q", out.Stderr)
	}
	out = run(t, c, "def f(:\n  pass", nil)
	if out.Success || !strings.HasPrefix(errOf(out), "SyntaxError") {
		t.Fatalf("syntax error: %+v", out)
	}
	out = run(t, c, "from json import nope", nil)
	if out.Success || !strings.Contains(errOf(out), "cannot import name 'nope'") || strings.Contains(errOf(out)+out.Stderr, "/usr/lib") {
		t.Fatalf("a library path in an error: %+v", out)
	}
	out = run(t, c, "import numpy", nil)
	if out.Success || !strings.Contains(errOf(out), "allowed modules: collections, datetime") {
		t.Fatalf("import error: %+v", out)
	}
}

// TestBadArguments: request-layer refusals are invalid_argument errors
// and run nothing.
func TestBadArguments(t *testing.T) {
	c := connect(t, testConfig())
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"no code", map[string]any{}, ""},
		{"blank code", map[string]any{"code": "   \n"}, "code is empty"},
		{"code too big", map[string]any{"code": "#" + strings.Repeat("é", 40000)}, "64 KiB"},
		{"key not identifier", map[string]any{"code": "pass", "input_data": map[string]any{"a-b": 1}}, "not a Python identifier"},
		{"key dunder", map[string]any{"code": "pass", "input_data": map[string]any{"__builtins__": map[string]any{}}}, "reserved"},
		{"key keyword", map[string]any{"code": "pass", "input_data": map[string]any{"class": 1}}, "keyword"},
		{"input too big", map[string]any{"code": "pass", "input_data": map[string]any{"x": strings.Repeat("a", 1<<20)}}, "1 MiB"},
		{"input not object", map[string]any{"code": "pass", "input_data": []any{1}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := c.Call(t, pytool.Name, tc.args)
			if tc.want == "" { // refused by the schema itself
				if !res.IsError {
					t.Fatalf("accepted: %s", servetest.Text(res))
				}
				return
			}
			b := servetest.ErrorBody(t, res)
			if b.Code != envelope.InvalidArgument || !strings.Contains(b.Message, tc.want) {
				t.Fatalf("got %+v", b)
			}
		})
	}
}

// TestRateLimit: the 11th run within an hour for one user is refused
// without running; another user is unaffected; the window slides.
func TestRateLimit(t *testing.T) {
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			clk := clock.NewFake(time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC))
			cfg := testConfig()
			cfg.RunsPerHour = 0 // from the environment
			t.Setenv(pytool.EnvRunsPerHour, "3")
			cfg.Clock = clk
			if backend == "redis" {
				cfg.Redis = redistest.Start(t)
			}
			c := connect(t, cfg)
			call := func(user string) *envelope.Body {
				ctx, cancel := context.WithTimeout(serve.WithUser(context.Background(), user), 30*time.Second)
				defer cancel()
				res, err := c.CallCtx(ctx, pytool.Name, map[string]any{"code": "print(1)"})
				if err != nil {
					t.Fatal(err)
				}
				if res.IsError {
					b := servetest.ErrorBody(t, res)
					return &b
				}
				return nil
			}
			for i := 0; i < 3; i++ {
				if b := call("alice"); b != nil {
					t.Fatalf("run %d refused: %+v", i+1, b)
				}
				clk.Advance(time.Minute)
			}
			b := call("alice")
			if b == nil || b.Code != envelope.RateLimited || !strings.Contains(b.Message, "3 Python runs per hour") || b.RetryAfterS == nil {
				t.Fatalf("4th run: %+v", b)
			}
			if b := call("bob"); b != nil {
				t.Fatalf("bob refused: %+v", b)
			}
			clk.Advance(57*time.Minute + time.Second) // the first run leaves the window
			if b := call("alice"); b != nil {
				t.Fatalf("after the window: %+v", b)
			}
		})
	}
}

// TestBusy: with every slot taken, a run is refused as rate_limited (busy)
// after the queue wait, and nothing is counted.
func TestBusy(t *testing.T) {
	cfg := testConfig()
	cfg.Sandbox.Concurrency = 1
	cfg.Sandbox.QueueWait = 200 * time.Millisecond
	cfg.Sandbox.Timeout = 2 * time.Second
	c := connect(t, cfg)
	done := make(chan pytool.Out)
	go func() {
		ctx, cancel := context.WithTimeout(serve.WithUser(context.Background(), "looper"), 20*time.Second)
		defer cancel()
		// On a loaded machine a probe below may hold the slot first: try again
		// until the loop itself runs.
		for {
			res, err := c.CallCtx(ctx, pytool.Name, map[string]any{"code": "while True: pass"})
			if err != nil {
				done <- failedOut(err.Error())
				return
			}
			if res.IsError && ctx.Err() == nil {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			if res.IsError {
				done <- failedOut(servetest.Text(res))
				return
			}
			done <- servetest.Decode[pytool.Out](t, res)
			return
		}
	}()
	var body envelope.Body
	for i := 0; i < 400; i++ { // until the loop holds the slot
		res, err := c.CallCtx(serve.WithUser(context.Background(), "prober"), pytool.Name, map[string]any{"code": "print(1)"})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			body = servetest.ErrorBody(t, res)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if body.Code != envelope.RateLimited || !strings.Contains(body.Message, "busy") {
		t.Fatalf("want busy, got %+v", body)
	}
	if out := <-done; out.Success || !strings.HasPrefix(errOf(out), "timeout") {
		t.Fatalf("the loop: %+v", out)
	}
}

// TestCanary: a secret in the server's environment reaches no run.
func TestCanary(t *testing.T) {
	c := connect(t, testConfig())
	var hay []string
	for _, code := range []string{
		"import random\nprint(dict(random._os.environ))",
		"import datetime\nprint(datetime.sys.argv, datetime.sys.flags)",
		"print(globals().keys())",
	} {
		out := run(t, c, code, nil)
		hay = append(hay, out.Output, errOf(out), out.Stderr)
	}
	hay = append(hay, c.Logs())
	servetest.NoSecrets(t, hay, canary)
	kc := testConfig()
	kc.Sandbox.KernelOnly = true
	k := connect(t, kc)
	out := run(t, k, "import os\nprint(dict(os.environ), open('/proc/self/environ').read() if False else '')", nil)
	servetest.NoSecrets(t, []string{out.Output, errOf(out)}, canary)
	if !out.Success || out.Output != "{} \n" {
		t.Fatalf("environment of the code: %+v", out)
	}
}

// TestSchema: golden snapshot and lint of the tool.
func TestSchema(t *testing.T) {
	c := connect(t, testConfig())
	tools := c.Built.Registry.Tools()
	if len(tools) != 1 || tools[0].Name() != "execute-python-code" {
		t.Fatalf("tools: %v", tools)
	}
	servetest.Lint(t, []toolkit.Tool{tools[0]})
	servetest.Snapshot(t, tools, "testdata/toolsnaps")
	run(t, c, "print(1)", nil) // the probe runs a second after start; a run starts it sooner and waits for it
	if !strings.Contains(c.Logs(), "python sandbox probe") || !strings.Contains(c.Logs(), "landlock_abi=") {
		t.Fatalf("no probe log line:\n%s", c.Logs())
	}
}

var _ = sandbox.MaxCodeBytes

// TestUnavailableThroughMCP: a sandbox missing a layer answers every call
// success:false, "sandbox unavailable: <layer>", and runs nothing.
func TestUnavailableThroughMCP(t *testing.T) {
	cfg := testConfig()
	cfg.Sandbox.Python = "/nonexistent/python3"
	c := connect(t, cfg)
	out := run(t, c, "print('ran')", nil)
	if out.Success || errOf(out) != "sandbox unavailable: python" || out.Output != "" {
		t.Fatalf("got %+v", out)
	}
	if !strings.Contains(c.Logs(), `"unavailable":"python"`) {
		t.Fatalf("the probe did not log the missing layer:\n%s", c.Logs())
	}
}
