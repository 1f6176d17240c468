package main

// Replicas behind a load balancer (issue 18): two real server binaries share
// a real redis-server (MCPFLEET_REDIS_URL) behind a round-robin reverse proxy
// written here. Legacy (2025-11-25) sessions must work on either replica,
// terminate for both, and count against the caps in total; modern
// (2026-07-28) clients are stateless; killing a replica loses no call the
// client retries.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

const (
	replicaTokenA = "replica-alice-0123456789abcdef"
	replicaTokenB = "replica-bob-0123456789abcdef01"
	modernMeta    = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"r","version":"1"}}`
)

var buildZiweiOnce struct {
	sync.Once
	bin string
	err error
}

// buildZiwei builds only ziwei (the fleet's dependency-free server): this test
// needs one binary, not the fleet.
func buildZiwei(t *testing.T) string {
	t.Helper()
	buildZiweiOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpfleet-replicas-bin")
		if err != nil {
			buildZiweiOnce.err = err
			return
		}
		bin := filepath.Join(dir, "ziwei")
		cmd := exec.Command("go", "build", "-o", bin, "./servers/ziwei")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildZiweiOnce.err = fmt.Errorf("build ziwei: %v: %s", err, out)
			return
		}
		buildZiweiOnce.bin = bin
	})
	if buildZiweiOnce.err != nil {
		t.Fatal(buildZiweiOnce.err)
	}
	return buildZiweiOnce.bin
}

type replica struct {
	url    *url.URL
	cmd    *exec.Cmd
	stderr *servetest.Buffer
}

func startReplica(t *testing.T, bin string, env ...string) *replica {
	t.Helper()
	addr := freePort(t)
	cmd := exec.Command(bin, "--transport", "http", "--addr", addr)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "MCPFLEET_LOG_LEVEL=warn",
		"ZIWEI_RULES_FILE=" + filepath.Join(t.TempDir(), "rules.json")}, env...)
	r := &replica{url: &url.URL{Scheme: "http", Host: addr}, cmd: cmd, stderr: &servetest.Buffer{}}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for i := 0; i < 400; i++ {
		if resp, err := http.Get(r.url.String() + "/healthz"); err == nil {
			resp.Body.Close()
			return r
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("%s did not serve HTTP: %s", bin, r.stderr.String())
	return nil
}

// roundRobin sends request n to backend n mod len(backends) and names the
// backend in the X-Replica response header. Like a load balancer's passive
// health check, a backend that failed a request answers 502 for it and then
// leaves the rotation, so the client's retry reaches a live one.
func roundRobin(t *testing.T, backends []*replica) *httptest.Server {
	var n atomic.Int64
	down := make([]atomic.Bool, len(backends))
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			i := int((n.Add(1) - 1) % int64(len(backends)))
			for k := 0; k < len(backends) && down[i].Load(); k++ {
				i = (i + 1) % len(backends)
			}
			pr.SetURL(backends[i].url)
			pr.Out.Host = backends[i].url.Host // mcp-go checks Host against loopback
			pr.Out.Header.Set("X-Replica", strconv.Itoa(i))
		},
		ModifyResponse: func(resp *http.Response) error {
			resp.Header.Set("X-Replica", resp.Request.Header.Get("X-Replica"))
			return nil
		},
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if i, err := strconv.Atoi(r.Header.Get("X-Replica")); err == nil {
				down[i].Store(true)
			}
			w.Header().Set("X-Replica", r.Header.Get("X-Replica"))
			http.Error(w, "backend down", http.StatusBadGateway)
		},
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv
}

type answer struct {
	code    int
	replica string
	sid     string
	body    string
}

func mcpDo(t *testing.T, base, method, token, sid, body string, modern bool) answer {
	t.Helper()
	a, err := mcpTry(base, method, token, sid, body, modern)
	if err != nil && method == http.MethodPost && !strings.Contains(body, `"initialize"`) {
		// A connection the proxy pooled can be closed under it by a backend
		// that just refused a request (refusals close the connection); every
		// request sent here is a read, so a client may send it again.
		a, err = mcpTry(base, method, token, sid, body, modern)
	}
	if err != nil {
		t.Fatalf("%s %s: %v", method, body, err)
	}
	return a
}

// mcpTry is one request through the proxy; safe to call from any goroutine.
func mcpTry(base, method, token, sid, body string, modern bool) (answer, error) {
	req, _ := http.NewRequest(method, base+"/mcp", strings.NewReader(body))
	hdr := map[string]string{"Authorization": "Bearer " + token}
	if modern {
		hdr["Mcp-Protocol-Version"] = "2026-07-28"
		var head struct{ Method string }
		_ = json.Unmarshal([]byte(body), &head)
		hdr["Mcp-Method"] = head.Method
		if head.Method == "tools/call" {
			hdr["Mcp-Name"] = "query_star_combination_meaning"
		}
	} else if sid != "" {
		hdr["Mcp-Session-Id"] = sid
		hdr["Mcp-Protocol-Version"] = "2025-11-25"
	}
	setHeaders(req, hdr)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return answer{}, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return answer{resp.StatusCode, resp.Header.Get("X-Replica"), resp.Header.Get("Mcp-Session-Id"), string(b)}, err
}

const (
	legacyList = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	legacyCall = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"query_star_combination_meaning","arguments":{}}}`
	modernList = `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{` + modernMeta + `}}`
	modernCall = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"query_star_combination_meaning","arguments":{},` + modernMeta + `}}`
)

func legacyInit(t *testing.T, base, token string) answer {
	t.Helper()
	a := mcpDo(t, base, http.MethodPost, token, "", httpInit, false)
	if a.code == 200 && a.sid == "" {
		t.Fatalf("initialize on replica %s answered no session id: %.300s", a.replica, a.body)
	}
	return a
}

func wantOK(t *testing.T, what string, a answer, mustContain string) {
	t.Helper()
	if a.code != 200 || !strings.Contains(a.body, mustContain) || strings.Contains(a.body, `"isError":true`) {
		t.Fatalf("%s on replica %s: %d %.400s", what, a.replica, a.code, a.body)
	}
}

func TestReplicasShareSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("replicas: e2e (builds ziwei, starts redis-server and two replicas)")
	}
	rs := redistest.StartServer(t)
	bin := buildZiwei(t)
	env := []string{"MCPFLEET_REDIS_URL=redis://" + rs.Addr(),
		"MCPFLEET_AUTH_TOKENS=alice=" + replicaTokenA + ",bob=" + replicaTokenB,
		"MCPFLEET_HTTP_MAX_SESSIONS=6", "MCPFLEET_HTTP_MAX_SESSIONS_PER_USER=4"}
	backends := []*replica{startReplica(t, bin, env...), startReplica(t, bin, env...)}
	proxy := roundRobin(t, backends)
	base := proxy.URL

	// A legacy session initialized on one replica works on both.
	init := legacyInit(t, base, replicaTokenA)
	wantOK(t, "initialize", init, `"protocolVersion"`)
	sid := init.sid
	if a := mcpDo(t, base, http.MethodPost, replicaTokenA, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false); a.code != 202 {
		t.Fatalf("notifications/initialized on replica %s: %d %.300s", a.replica, a.code, a.body)
	}
	served := map[string]bool{}
	for _, c := range []struct{ name, body string }{{"list", legacyList}, {"list", legacyList}, {"call", legacyCall}, {"call", legacyCall}} {
		a := mcpDo(t, base, http.MethodPost, replicaTokenA, sid, c.body, false)
		wantOK(t, "legacy "+c.name, a, `"result"`)
		served[c.name+"@"+a.replica] = true
	}
	if len(served) != 4 {
		t.Fatalf("legacy calls did not reach both replicas: %v", served)
	}

	// Another user's bearer cannot use the session on any replica.
	for i := 0; i < 2; i++ {
		if a := mcpDo(t, base, http.MethodPost, replicaTokenB, sid, legacyList, false); a.code != 404 {
			t.Fatalf("bob used alice's session on replica %s: %d %.200s", a.replica, a.code, a.body)
		}
	}

	// DELETE on one replica: 404 on both afterwards.
	if a := mcpDo(t, base, http.MethodDelete, replicaTokenA, sid, "", false); a.code != 200 {
		t.Fatalf("DELETE on replica %s: %d %.200s", a.replica, a.code, a.body)
	}
	gone := map[string]bool{}
	for i := 0; i < 2; i++ {
		a := mcpDo(t, base, http.MethodPost, replicaTokenA, sid, legacyList, false)
		if a.code != 404 {
			t.Fatalf("terminated session on replica %s: %d %.200s", a.replica, a.code, a.body)
		}
		gone[a.replica] = true
	}
	if len(gone) != 2 {
		t.Fatalf("terminated session not checked on both replicas: %v", gone)
	}

	// A modern client is stateless: its calls alternate replicas and work.
	modern := map[string]bool{}
	for _, body := range []string{modernList, modernList, modernCall, modernCall} {
		a := mcpDo(t, base, http.MethodPost, replicaTokenA, "", body, true)
		wantOK(t, "modern call", a, `"result"`)
		if a.sid != "" {
			t.Fatalf("modern call minted a session id on replica %s", a.replica)
		}
		modern[a.replica] = true
	}
	if len(modern) != 2 {
		t.Fatalf("modern calls did not alternate replicas: %v", modern)
	}

	// Caps hold in total: 4 per user, 6 in all, whichever replica is asked.
	var alice []answer
	for i := 0; i < 4; i++ {
		a := legacyInit(t, base, replicaTokenA)
		wantOK(t, fmt.Sprintf("alice session %d", i+1), a, `"protocolVersion"`)
		alice = append(alice, a)
	}
	for i := 0; i < 2; i++ { // refused by both replicas
		if a := legacyInit(t, base, replicaTokenA); a.code != 429 {
			t.Fatalf("alice's 5th session on replica %s: %d, want 429 (4 per user in total)", a.replica, a.code)
		}
	}
	for i := 0; i < 2; i++ {
		wantOK(t, fmt.Sprintf("bob session %d", i+1), legacyInit(t, base, replicaTokenB), `"protocolVersion"`)
	}
	for i := 0; i < 2; i++ {
		if a := legacyInit(t, base, replicaTokenB); a.code != 503 {
			t.Fatalf("7th session on replica %s: %d, want 503 (6 in total)", a.replica, a.code)
		}
	}
	if a := mcpDo(t, base, http.MethodDelete, replicaTokenA, alice[0].sid, "", false); a.code != 200 {
		t.Fatalf("DELETE: %d", a.code)
	}
	wantOK(t, "a session after one ended", legacyInit(t, base, replicaTokenB), `"protocolVersion"`)

	// Kill the replica that initialized a live session while calls are in
	// flight: every call is answered, the client retrying a failed one on the
	// next replica (both calls are reads, safe to repeat).
	live := alice[1].sid
	kill, _ := strconv.Atoi(alice[1].replica)
	const workers, perWorker, killAfter = 4, 10, 8
	var done, retries atomic.Int64
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		for done.Load() < killAfter {
			time.Sleep(2 * time.Millisecond)
		}
		_ = backends[kill].cmd.Process.Kill()
	}()
	var wg sync.WaitGroup
	errs := make(chan string, workers*perWorker)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				if i == perWorker/2 {
					<-killed // half of each worker's calls come after the kill
				}
				body, sess, isModern := legacyCall, live, false
				if (w+i)%2 == 1 {
					body, sess, isModern = modernCall, "", true
				}
				var a answer
				var err error
				for try := 0; try < 4; try++ {
					if a, err = mcpTry(base, http.MethodPost, replicaTokenA, sess, body, isModern); err == nil && a.code == 200 {
						break
					}
					retries.Add(1)
				}
				if err != nil || a.code != 200 || !strings.Contains(a.body, `"result"`) || strings.Contains(a.body, `"isError":true`) {
					errs <- fmt.Sprintf("worker %d call %d (modern %v): %v %d %.200s", w, i, isModern, err, a.code, a.body)
				}
				done.Add(1)
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if retries.Load() == 0 {
		t.Fatalf("no call met the dead replica: the kill did not happen mid-run")
	}
	t.Logf("%d calls answered across a replica kill, %d attempts retried on the surviving replica", workers*perWorker, retries.Load())
}
