package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"run","Package":"p/a","Test":"TestOK"}`,
		`{"Action":"pass","Package":"p/a","Test":"TestOK","Elapsed":0.1}`,
		`{"Action":"output","Package":"p/a","Test":"TestRedis","Output":"    redistest.go:30: redis-server not found on PATH\n"}`,
		`{"Action":"skip","Package":"p/a","Test":"TestRedis"}`,
		`{"Action":"output","Package":"p/a","Test":"TestBad","Output":"    x_test.go:9: want 2, got 3\n"}`,
		`{"Action":"fail","Package":"p/a","Test":"TestBad"}`,
		`{"Action":"fail","Package":"p/a","Elapsed":1.5}`,
		`{"Action":"output","Package":"p/b","Test":"TestE2E","Output":"    e2e_test.go:80: MCP Inspector not installed (make tools-node)\n"}`,
		`{"Action":"skip","Package":"p/b","Test":"TestE2E"}`,
		`{"Action":"pass","Package":"p/b","Elapsed":0.2}`,
		`not json: a build error`,
	}, "\n")
	var out bytes.Buffer
	code := report(strings.NewReader(in), &out)
	s := out.String()
	for _, want := range []string{
		"FAIL  p/a (1.5s)", "--- FAIL p/a TestBad", "want 2, got 3", "ok    p/b (0.2s)", "not json: a build error",
		"packages: 2 (1 failed), tests: 1 passed, 1 failed, 2 skipped",
		"skipped 1 test(s): redis-server missing — install with: apt-get install redis-server",
		"skipped 1 test(s): MCP Inspector / node 22 missing — install with: make tools-node",
		"1 passed, 1 failed, 2 skipped\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in\n%s", want, s)
		}
	}
	if code != 1 {
		t.Fatalf("exit %d with a failure", code)
	}
	if code := report(strings.NewReader(`{"Action":"pass","Package":"p","Test":"T"}`+"\n"+`{"Action":"pass","Package":"p"}`), &out); code != 0 {
		t.Fatalf("exit %d when all passed", code)
	}
}
