package main

// The hostile-client suite: the real server binaries, attacked on
// loopback as an adversary would, with numbers asserted. Every attack is
// bounded in count and time (the whole suite takes a few minutes on 2 cores);
// -short skips it (building the fleet is the heavy part; pkg/serve's unit tests
// cover each fix in-process).
//
// Bounds (stated here, checked below):
//   - RSS: through each attack, at most baseline + rssBudgetMB (attack-specific
//     budget), and within 30 s after it, at most baseline + rssSettleMB;
//   - abusive connections: closed within the limit that governs them
//     (refusal: at once; body: MCPFLEET_HTTP_BODY_TIMEOUT; headers:
//     MCPFLEET_HTTP_READ_HEADER_TIMEOUT) plus closeSlack;
//   - afterwards the server answers a normal call.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

const (
	hostileToken = "hostile-token-0123456789abcdef"
	closeSlack   = 3 * time.Second // scheduling on a shared 2-core machine
	rssSettleMB  = 40
)

// victim is a server binary under attack over HTTP.
type victim struct {
	url, addr string
	pid       int
	stderr    *servetest.Buffer
}

func startVictim(t *testing.T, bin string, env ...string) *victim {
	t.Helper()
	addr := freePort(t)
	cmd := exec.Command(bin, "--transport", "http", "--addr", addr)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "MCPFLEET_LOG_LEVEL=warn",
		"ZIWEI_RULES_FILE=" + filepath.Join(t.TempDir(), "rules.json")}, env...)
	v := &victim{addr: addr, url: "http://" + addr, stderr: &servetest.Buffer{}}
	cmd.Stderr = v.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	v.pid = cmd.Process.Pid
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for i := 0; i < 400; i++ {
		if r, err := http.Get(v.url + "/healthz"); err == nil {
			r.Body.Close()
			return v
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("%s did not serve HTTP: %s", bin, v.stderr.String())
	return nil
}

// rssMB reads VmRSS of pid from /proc.
func rssMB(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("server process gone: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// cpuTime is the user+system CPU the process has used (/proc/<pid>/stat).
func cpuTime(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return time.Duration(ut+st) * 10 * time.Millisecond // USER_HZ = 100 on Linux
}

// rssWatch samples RSS while an attack runs and keeps the peak.
type rssWatch struct {
	peak atomic.Int64 // KB
	stop chan struct{}
	done chan struct{}
}

func watchRSS(t *testing.T, pid int) *rssWatch {
	w := &rssWatch{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for {
			if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
				for _, line := range strings.Split(string(b), "\n") {
					if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
						kb, _ := strconv.ParseInt(f[1], 10, 64)
						if kb > w.peak.Load() {
							w.peak.Store(kb)
						}
					}
				}
			}
			select {
			case <-w.stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return w
}

func (w *rssWatch) end() float64 {
	close(w.stop)
	<-w.done
	return float64(w.peak.Load()) / 1024
}

// attack runs fn against v and checks the RSS bounds and a normal call after.
func attack(t *testing.T, v *victim, name string, budgetMB float64, fn func(t *testing.T)) {
	t.Run(name, func(t *testing.T) {
		base := rssMB(t, v.pid)
		w := watchRSS(t, v.pid)
		fn(t)
		peak := w.end()
		settled := base
		deadline := time.Now().Add(30 * time.Second)
		for {
			settled = rssMB(t, v.pid)
			if settled <= base+rssSettleMB || time.Now().After(deadline) {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		t.Logf("RSS MB: baseline %.1f, peak %.1f (bound %.0f), after %.1f (bound %.0f)", base, peak, base+budgetMB, settled, base+rssSettleMB)
		if peak > base+budgetMB {
			t.Errorf("RSS peaked at %.1f MB, over baseline %.1f + %.0f MB", peak, base, budgetMB)
		}
		if settled > base+rssSettleMB {
			t.Errorf("RSS stayed at %.1f MB, over baseline %.1f + %d MB", settled, base, rssSettleMB)
		}
		normalCall(t, v)
	})
}

// normalCall: a legitimate client still gets served (modern protocol, one tool list).
func normalCall(t *testing.T, v *victim) {
	t.Helper()
	c := &http.Client{Timeout: 30 * time.Second}
	req, _ := http.NewRequest(http.MethodPost, v.url+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"h","version":"1"}}}}`))
	setHeaders(req, map[string]string{"Authorization": "Bearer " + hostileToken, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"})
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("normal call after the attack: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"tools"`)) {
		t.Fatalf("normal call after the attack: %d %.300s", resp.StatusCode, b)
	}
}

// callTool calls a tool over HTTP (2026-07-28, no session) and returns the result.
func callToolHTTP(t *testing.T, v *victim, name string, args map[string]any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"name": name, "arguments": args, "_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{}, "io.modelcontextprotocol/clientInfo": map[string]any{"name": "h", "version": "1"}}}})
	code, _, resp := postJSON(t, v.url, string(body), map[string]string{"Authorization": "Bearer " + hostileToken,
		"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name})
	var out struct {
		Result map[string]any `json:"result"`
	}
	if err := json.Unmarshal([]byte(resp), &out); err != nil || code != 200 || out.Result == nil {
		t.Fatalf("%s: %d %.300s", name, code, resp)
	}
	return out.Result
}

func setHeaders(req *http.Request, hdr map[string]string) {
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
}

// abusive opens n connections at once, writes head and then drips (drip
// bytes every every, up to dripMax), and reports for each the status line
// and how long until the server closed it (-1: still open at give-up).
func abusive(t *testing.T, addr string, n int, head string, drip string, every time.Duration, giveUp time.Duration) (statuses []string, closedAfter []time.Duration) {
	t.Helper()
	statuses = make([]string, n)
	closedAfter = make([]time.Duration, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			closedAfter[i] = -1
			c, err := net.DialTimeout("tcp", addr, 10*time.Second)
			if err != nil {
				statuses[i] = "dial: " + err.Error()
				return
			}
			defer c.Close()
			start := time.Now()
			_, _ = io.WriteString(c, head)
			stop := make(chan struct{})
			defer close(stop)
			if drip != "" {
				go func() {
					for {
						select {
						case <-stop:
							return
						case <-time.After(every):
						}
						if _, err := io.WriteString(c, drip); err != nil {
							return
						}
					}
				}()
			}
			_ = c.SetReadDeadline(start.Add(giveUp))
			br := bufio.NewReader(c)
			line, err := br.ReadString('\n')
			statuses[i] = strings.TrimSpace(line)
			for err == nil {
				_, err = br.ReadByte()
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				return // still open
			}
			closedAfter[i] = time.Since(start)
		}(i)
	}
	wg.Wait()
	return statuses, closedAfter
}

func checkClosed(t *testing.T, what string, statuses []string, closedAfter []time.Duration, wantStatus string, within time.Duration) {
	t.Helper()
	var worst time.Duration
	bad := 0
	for i := range statuses {
		if closedAfter[i] < 0 || closedAfter[i] > within || (wantStatus != "" && !strings.Contains(statuses[i], " "+wantStatus+" ")) {
			if bad < 3 {
				t.Errorf("%s #%d: status %q, closed after %v (want %s within %v)", what, i, statuses[i], closedAfter[i], wantStatus, within)
			}
			bad++
		}
		worst = max(worst, closedAfter[i])
	}
	t.Logf("%s: %d connections, %d bad, slowest closed after %v (bound %v)", what, len(statuses), bad, worst.Round(time.Millisecond), within)
}

func postHead(addr, extra string, length int) string {
	return fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%sContent-Length: %d\r\n\r\n", addr, extra, length)
}

func postJSON(t *testing.T, url, body string, hdr map[string]string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(body))
	setHeaders(req, hdr)
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		return 0, nil, err.Error()
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header, string(b)
}

// TestHostileHTTP attacks ziwei (the server the attacks were first measured on) over HTTP.
func TestHostileHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile suite: e2e")
	}
	bins := buildFleet(t)
	bin := filepath.Join(bins, "ziwei")
	auth := "Authorization: Bearer " + hostileToken + "\r\n"
	v := startVictim(t, bin, "MCPFLEET_AUTH_TOKENS=h="+hostileToken,
		"MCPFLEET_HTTP_BODY_TIMEOUT=2s", "MCPFLEET_HTTP_READ_HEADER_TIMEOUT=3s")

	// No accepted write is lost: a rule stored before the attacks is read back after them.
	stored := callToolHTTP(t, v, "store_star_combination_meaning", map[string]any{"name": "hostile-keep", "meaning": "kept through the attacks",
		"rule": map[string]any{"stars": []any{"紫微"}, "in": "命宫"}})
	if stored["isError"] == true {
		t.Fatalf("store: %v", stored)
	}
	defer func() {
		got := callToolHTTP(t, v, "query_star_combination_meaning", map[string]any{})
		if b, _ := json.Marshal(got); !strings.Contains(string(b), "hostile-keep") {
			t.Errorf("the rule stored before the attacks is gone after them: %.500s", b)
		}
	}()

	// Once, 60 unauthenticated 4 MiB bodies sent slowly took ziwei to 358 MB.
	attack(t, v, "unauthenticated slow 4 MiB bodies", 25, func(t *testing.T) {
		st, ca := abusive(t, v.addr, 60, postHead(v.addr, "", 4<<20-1), strings.Repeat("x", 1024), 100*time.Millisecond, 20*time.Second)
		checkClosed(t, "no token", st, ca, "401", closeSlack)
	})
	attack(t, v, "foreign origin with a body", 25, func(t *testing.T) {
		st, ca := abusive(t, v.addr, 30, postHead(v.addr, auth+"Origin: http://evil.example\r\n", 4<<20-1), strings.Repeat("x", 1024), 100*time.Millisecond, 20*time.Second)
		checkClosed(t, "foreign origin", st, ca, "403", closeSlack)
	})
	attack(t, v, "authenticated slow bodies", 80, func(t *testing.T) {
		st, ca := abusive(t, v.addr, 60, postHead(v.addr, auth, 4<<20-1), strings.Repeat("x", 1024), 200*time.Millisecond, 30*time.Second)
		// 408 once the 2 s body deadline passes; 503 for those that found the body budget full.
		for i := range st {
			st[i] = strings.Replace(st[i], " 503 ", " 408 ", 1)
		}
		checkClosed(t, "slow body", st, ca, "408", 2*time.Second+closeSlack)
	})
	attack(t, v, "declared oversized bodies", 25, func(t *testing.T) {
		st, ca := abusive(t, v.addr, 30, postHead(v.addr, auth, 5<<20), "", 0, 20*time.Second)
		checkClosed(t, "over 4 MiB", st, ca, "413", closeSlack)
	})
	attack(t, v, "chunked oversized bodies", 60, func(t *testing.T) {
		var wg sync.WaitGroup
		var bad atomic.Int32
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest(http.MethodPost, v.url+"/mcp", io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"`), strings.NewReader(strings.Repeat("y", 6<<20))))
				req.ContentLength = -1
				setHeaders(req, map[string]string{"Authorization": "Bearer " + hostileToken})
				resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
				if err == nil {
					resp.Body.Close()
					if resp.StatusCode != 413 {
						bad.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		if bad.Load() > 0 {
			t.Errorf("%d chunked bodies over 4 MiB were not refused with 413", bad.Load())
		}
	})
	attack(t, v, "burst of maximal bodies", 150, func(t *testing.T) {
		big := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"initialize_chart","arguments":{"birthDate":"` + strings.Repeat("9", 4<<20-400) + `"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"h","version":"1"}}}}`
		var wg sync.WaitGroup
		codes := make([]int, 32)
		for i := range codes {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				codes[i], _, _ = postJSON(t, v.url, big, map[string]string{"Authorization": "Bearer " + hostileToken,
					"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "initialize_chart"})
			}(i)
		}
		wg.Wait()
		t.Logf("statuses: %v", codes)
		for _, c := range codes {
			if c >= 500 && c != 503 || c == 0 {
				t.Errorf("status %d for a maximal body", c)
			}
		}
	})
	// Once, 200 connections dripping a header byte every 2 s were all open at 40 s.
	attack(t, v, "slowloris headers", 40, func(t *testing.T) {
		st, ca := abusive(t, v.addr, 200, "POST /mcp HTTP/1.1\r\nHost: "+v.addr+"\r\n", "X", time.Second, 30*time.Second)
		checkClosed(t, "slowloris", st, ca, "", 3*time.Second+closeSlack)
	})

	// Once, 6,500 sessions took ziwei from 18 MB to 156 MB; 60
	// initialize calls with ~4 MB of clientInfo to 526 MB.
	attack(t, v, "session flood", 30, func(t *testing.T) {
		ok, refused := 0, 0
		for i := 0; i < 1500; i++ {
			code, _, body := postJSON(t, v.url, httpInit, map[string]string{"Authorization": "Bearer " + hostileToken})
			switch {
			case code == 200:
				ok++
			case code == 429 && strings.Contains(body, "too many open sessions"):
				refused++
			default:
				t.Fatalf("initialize #%d: %d %.200s", i, code, body)
			}
		}
		t.Logf("1500 initialize calls: %d sessions, %d refused (cap per user 100)", ok, refused)
		if ok != 100 {
			t.Errorf("%d sessions for one user, want the cap of 100", ok)
		}
	})
	attack(t, v, "huge clientInfo", 100, func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"x":"` +
			strings.Repeat("c", 1<<20) + `"}},"clientInfo":{"name":"` + strings.Repeat("n", 2<<20) + `","version":"1"}}}`
		var wg sync.WaitGroup
		codes := make([]int, 60)
		for i := range codes {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				code, _, resp := postJSON(t, v.url, body, map[string]string{"Authorization": "Bearer " + hostileToken})
				if code == 400 && !strings.Contains(resp, "initialize params are") {
					code = -code
				}
				codes[i] = code
			}(i)
		}
		wg.Wait()
		t.Logf("statuses: %v", codes)
		for _, c := range codes {
			// 400: params over the cap; 503/408: the body budget was full for the body deadline.
			if c != 400 && c != 503 && c != 408 {
				t.Errorf("an oversized initialize got %d", c)
			}
		}
	})
}

// TestHostileHTTPProtocol: auth variants, Origin and Host tricks, session
// reuse after DELETE, deep JSON, invalid UTF-8 and JSON-RPC ids and batches, each
// against every server.
func TestHostileHTTPProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile suite: e2e")
	}
	bins := buildFleet(t)
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			v := startVictim(t, filepath.Join(bins, s.Name), append(isolatedEnv(), "MCPFLEET_AUTH_TOKENS=h="+hostileToken)...)
			bearer := map[string]string{"Authorization": "Bearer " + hostileToken}
			with := func(kv ...string) map[string]string {
				m := map[string]string{"Authorization": "Bearer " + hostileToken}
				for i := 0; i+1 < len(kv); i += 2 {
					m[kv[i]] = kv[i+1]
				}
				return m
			}
			_, h, _ := postJSON(t, v.url, httpInit, bearer)
			sid := h.Get("Mcp-Session-Id")
			dead := func() string {
				_, h, _ := postJSON(t, v.url, httpInit, bearer)
				d := h.Get("Mcp-Session-Id")
				req, _ := http.NewRequest(http.MethodDelete, v.url+"/mcp", nil)
				setHeaders(req, with("Mcp-Session-Id", d, "Mcp-Protocol-Version", "2025-11-25"))
				if resp, err := http.DefaultClient.Do(req); err == nil {
					resp.Body.Close()
				}
				return d
			}()
			list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
			deep := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}}`
			cases := []struct {
				name, body string
				hdr        map[string]string
				want       int
				contains   string
			}{
				{"bearer", httpInit, bearer, 200, ""},
				{"scheme in lower case", httpInit, map[string]string{"Authorization": "bearer " + hostileToken}, 200, ""},
				{"no token", httpInit, nil, 401, ""},
				{"empty bearer", httpInit, map[string]string{"Authorization": "Bearer "}, 401, ""},
				{"token prefix", httpInit, map[string]string{"Authorization": "Bearer " + hostileToken[:20]}, 401, ""},
				{"token plus a byte", httpInit, map[string]string{"Authorization": "Bearer " + hostileToken + "x"}, 401, ""},
				{"basic scheme", httpInit, map[string]string{"Authorization": "Basic " + hostileToken}, 401, ""},
				{"token in another header", httpInit, map[string]string{"X-Token": hostileToken}, 401, ""},
				{"foreign origin", httpInit, with("Origin", "http://evil.example"), 403, ""},
				{"null origin", httpInit, with("Origin", "null"), 403, ""},
				{"look-alike origin", httpInit, with("Origin", "http://localhost.evil.example"), 403, ""},
				{"upper-case loopback origin", httpInit, with("Origin", "HTTP://LOCALHOST"), 200, ""},
				{"foreign host", httpInit, with("Host", "evil.example"), 403, ""},
				{"batch", "[" + list + "]", with("Mcp-Session-Id", sid, "Mcp-Protocol-Version", "2025-11-25"), 400, "batches are not supported"},
				{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, with("Mcp-Session-Id", sid, "Mcp-Protocol-Version", "2025-11-25"), 400, `"id":null`},
				{"no session id", list, with("Mcp-Protocol-Version", "2025-11-25"), 400, "Mcp-Session-Id"},
				{"session after DELETE", list, with("Mcp-Session-Id", dead, "Mcp-Protocol-Version", "2025-11-25"), 404, ""},
				{"deep JSON", deep, with("Mcp-Session-Id", sid, "Mcp-Protocol-Version", "2025-11-25"), 400, "not valid json"},
				{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"\xff\xfe\",\"arguments\":{\"a\":\"\xc3\x28\"}}}", with("Mcp-Session-Id", sid, "Mcp-Protocol-Version", "2025-11-25"), 200, `"error"`},
			}
			for _, tc := range cases {
				req, _ := http.NewRequest(http.MethodPost, v.url+"/mcp", strings.NewReader(tc.body))
				setHeaders(req, tc.hdr)
				if hst := tc.hdr["Host"]; hst != "" {
					req.Host = hst
				}
				resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
				if err != nil {
					t.Errorf("%s: %v", tc.name, err)
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.want || !strings.Contains(string(b), tc.contains) {
					t.Errorf("%s: %d %.200q, want %d with %q", tc.name, resp.StatusCode, b, tc.want, tc.contains)
				}
			}
			// GET with Accept: application/json only is not an SSE stream.
			req, _ := http.NewRequest(http.MethodGet, v.url+"/mcp", nil)
			req.Header.Set("Accept", "application/json")
			req.Header.Set("Authorization", "Bearer "+hostileToken)
			req.Header.Set("Mcp-Session-Id", sid)
			if resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req); err != nil || resp.StatusCode != 406 {
				t.Errorf("GET Accept: application/json: %v %v", resp, err)
			} else {
				resp.Body.Close()
			}
			normalCall(t, v)
			if out := v.stderr.String(); strings.Contains(out, "panic") || strings.Contains(out, hostileToken) {
				t.Errorf("server stderr has a panic or the token:\n%.2000s", out)
			}
		})
	}
}

// TestHostileHTTPCaps: the connection cap and session idle expiry, each on a
// server with small limits so the attack stays short.
func TestHostileHTTPCaps(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile suite: e2e")
	}
	bin := filepath.Join(buildFleet(t), "ziwei")
	v := startVictim(t, bin, "MCPFLEET_AUTH_TOKENS=h="+hostileToken, "MCPFLEET_HTTP_MAX_CONNS=16", "MCPFLEET_HTTP_READ_HEADER_TIMEOUT=2s",
		"MCPFLEET_HTTP_MAX_SESSIONS_PER_USER=20", "MCPFLEET_HTTP_SESSION_IDLE_TTL=2s", "MCPFLEET_HTTP_WRITE_TIMEOUT=2s")
	// Slow read: 600 pipelined tools/list on one connection that never reads.
	// Once the socket buffers are full, a write waits 2 s and the connection ends.
	attack(t, v, "client that stops reading", 40, func(t *testing.T) {
		c, err := net.Dial("tcp", v.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.(*net.TCPConn).SetReadBuffer(4096)
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"h","version":"1"}}}}`
		req := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer %s\r\nMcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: %d\r\n\r\n%s", v.addr, hostileToken, len(body), body)
		const n = 600
		go func() {
			for i := 0; i < n; i++ {
				if _, err := io.WriteString(c, req); err != nil {
					return
				}
			}
		}()
		time.Sleep(8 * time.Second) // 2 s write timeout + filling the buffers, with slack
		_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
		data, err := io.ReadAll(c)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("the connection was still open after a stalled write: %d bytes read", len(data))
		}
		got := strings.Count(string(data), "HTTP/1.1 200")
		t.Logf("answers received before the server cut the connection: %d of %d (%d bytes)", got, n, len(data))
		if got >= n {
			t.Errorf("all %d answers were delivered: the write deadline never fired", n)
		}
	})
	// 64 silent connections, 16 accepted at a time, each cut after 2 s: all
	// gone within 64/16 + 1 rounds of the header timeout (the last round may
	// start just after a tick).
	attack(t, v, "idle connections past the cap", 20, func(t *testing.T) {
		st, ca := abusive(t, v.addr, 64, "", "", 0, 30*time.Second)
		checkClosed(t, "idle", st, ca, "", 5*2*time.Second+closeSlack)
	})
	attack(t, v, "abandoned sessions expire", 20, func(t *testing.T) {
		bearer := map[string]string{"Authorization": "Bearer " + hostileToken}
		for i := 0; i < 20; i++ {
			if code, _, body := postJSON(t, v.url, httpInit, bearer); code != 200 {
				t.Fatalf("session %d: %d %.200s", i, code, body)
			}
		}
		if code, _, _ := postJSON(t, v.url, httpInit, bearer); code != 429 {
			t.Fatalf("session 21: %d, want 429", code)
		}
		start := time.Now()
		for {
			code, _, _ := postJSON(t, v.url, httpInit, bearer)
			if code == 200 {
				break
			}
			if time.Since(start) > 10*time.Second {
				t.Fatalf("abandoned sessions still held after %v (TTL 2s)", time.Since(start))
			}
			time.Sleep(250 * time.Millisecond)
		}
		t.Logf("abandoned sessions expired %v after the cap was hit (TTL 2s, swept every 1s)", time.Since(start).Round(100*time.Millisecond))
	})
}
