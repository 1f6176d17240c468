package drift

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

var testShape = Shape{Route: "list", Fields: []Field{
	Req("data[].id", String),
	Req("data[].status", String).OneOf("open", "closed"),
	Opt("data[].note", String),
	Req("total", Number),
}, Error: []Field{Req("error.message", String)}}

func kinds(fs []Finding) string {
	var k []string
	for _, f := range fs {
		k = append(k, f.Kind+"@"+f.Path)
	}
	return strings.Join(k, ",")
}

func TestShapeCheck(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"ok", `{"data":[{"id":"a","status":"open"},{"id":"b","status":"closed","note":null}],"total":2}`, ""},
		{"empty list checks nothing below it", `{"data":[],"total":0}`, ""},
		{"renamed", `{"data":[{"uid":"a","status":"open"}],"total":1}`, "missing_field@data[].id"},
		{"retyped", `{"data":[{"id":1,"status":"open"}],"total":1}`, "retyped_field@data[].id"},
		{"new enum", `{"data":[{"id":"a","status":"paused"}],"total":1}`, "unknown_enum@data[].status"},
		{"container retyped", `{"data":{"id":"a"},"total":1}`, "retyped_field@data[].id,retyped_field@data[].status,retyped_field@data[].note"},
		{"not json", `<html>`, "malformed@"},
		{"null list: no element to check", `{"data":null,"total":1}`, ""},
		{"null object on the way", `{"data":[{"id":"a","status":"open"}],"total":{"n":1}}`, "retyped_field@total"},
	}
	for _, c := range cases {
		if got := kinds(testShape.CheckBody([]byte(c.body))); got != c.want {
			t.Errorf("%s: got %q want %q", c.name, got, c.want)
		}
	}
	if fs := testShape.CheckError([]byte(`{"error":{"message":"bad"}}`)); len(fs) != 0 {
		t.Errorf("known error body: %v", fs)
	}
	if fs := testShape.CheckError([]byte(`{"detail":"bad"}`)); kinds(fs) != "new_error_body@" {
		t.Errorf("new error body: %v", fs)
	}
}

func TestDeprecationOf(t *testing.T) {
	h := http.Header{}
	if _, ok := DeprecationOf(h); ok {
		t.Fatal("no headers read as deprecated")
	}
	h.Add("Warning", `199 - "misc"`)
	if _, ok := DeprecationOf(h); ok {
		t.Fatal("a 199 warning read as deprecation")
	}
	for _, set := range []func(http.Header){
		func(h http.Header) { h.Set("Deprecation", "@1688169599") },
		func(h http.Header) { h.Set("Sunset", "Fri, 01 May 2026 00:00:00 GMT") },
		func(h http.Header) { h.Add("Warning", `299 - "use /markets/keyset"`) },
	} {
		h := http.Header{}
		set(h)
		if f, ok := DeprecationOf(h); !ok || f.Kind != Deprecated {
			t.Errorf("%v not read as deprecated", h)
		}
	}
}

func TestWatchLogsOncePerRoutePerDayAndCounts(t *testing.T) {
	var buf bytes.Buffer
	log := zerolog.New(&buf)
	dir := t.TempDir()
	w := NewWatch("srv", 0, dir)
	day := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	w.SetClock(func() time.Time { return day })
	w.Register(testShape)
	dep := http.Header{"Deprecation": {"true"}}
	bad := []byte(`{"data":[{"id":"a","status":"paused"}],"total":1}`)
	for range 3 {
		w.Observe(log, "Up", "list", 200, dep, bad)
	}
	w.Observe(log, "Up", "list", 500, nil, []byte(`{"oops":1}`))
	w.Observe(log, "Up", "unknown-route", 200, nil, []byte(`{}`)) // no shape: only headers
	if n := strings.Count(buf.String(), `"level":"warn"`); n != 3 {
		t.Fatalf("want 3 warn lines (deprecated, enum, error body), got %d:\n%s", n, buf.String())
	}
	sig := w.Signals()
	if len(sig) != 3 {
		t.Fatalf("signals %+v", sig)
	}
	for _, s := range sig {
		if s.Kind == NewEnum && s.Count != 3 {
			t.Errorf("enum counted %d, want 3", s.Count)
		}
	}
	day = day.Add(24 * time.Hour)
	w.Observe(log, "Up", "list", 200, dep, nil)
	if n := strings.Count(buf.String(), `"level":"warn"`); n != 4 {
		t.Fatalf("the next day logs again: %d warn lines", n)
	}
	saved, ok, err := Load(dir, "srv")
	if err != nil || !ok || len(saved.Signals) != 3 {
		t.Fatalf("saved %+v %v %v", saved, ok, err)
	}
	if _, ok, _ := Load(dir, "other"); ok {
		t.Fatal("another server's file found")
	}
}

func TestWatchSamplesBodies(t *testing.T) {
	w := NewWatch("srv", time.Hour, "")
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	w.SetClock(func() time.Time { return now })
	w.Register(testShape)
	good := []byte(`{"data":[{"id":"a","status":"open"}],"total":1}`)
	bad := []byte(`{"data":[{"id":"a","status":"paused"}],"total":1}`)
	w.Observe(zerolog.Nop(), "Up", "list", 200, nil, good)
	w.Observe(zerolog.Nop(), "Up", "list", 200, nil, bad) // within the hour: not checked
	if len(w.Signals()) != 0 {
		t.Fatal("checked within the sample interval")
	}
	now = now.Add(time.Hour)
	w.Observe(zerolog.Nop(), "Up", "list", 200, nil, bad)
	if len(w.Signals()) != 1 {
		t.Fatal("not checked after the interval")
	}
}

func TestCheckReadOnlyRefusesWrites(t *testing.T) {
	cases := []struct {
		p  Probe
		ok bool
	}{
		{Probe{Method: "GET"}, true}, {Probe{}, true}, {Probe{Method: "HEAD"}, true},
		{Probe{Method: "POST"}, false}, {Probe{Method: "POST", ReadOnly: "a search"}, true},
		{Probe{Method: "PUT", ReadOnly: "x"}, false}, {Probe{Method: "DELETE"}, false}, {Probe{Method: "PATCH"}, false},
	}
	for _, c := range cases {
		if err := CheckReadOnly(c.p); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.p, err)
		}
	}
}

func TestRunJudgesEachKind(t *testing.T) {
	var sent []string
	reply := func(r Reply, err error) Sender {
		return func(_ context.Context, c Call) (Reply, error) {
			sent = append(sent, c.Method+" "+c.Path)
			return r, err
		}
	}
	good := []byte(`{"data":[{"id":"a","status":"open"}],"total":1}`)
	probes := []Probe{
		{Route: "list", Path: "/ok", Send: reply(Reply{Status: 200, Body: good}, nil)},
		{Route: "list", Path: "/dep", Send: reply(Reply{Status: 200, Header: http.Header{"Sunset": {"x"}}, Body: good}, nil)},
		{Route: "list", Path: "/enum", Send: reply(Reply{Status: 200, Body: []byte(`{"data":[{"id":"a","status":"new"}],"total":1}`)}, nil)},
		{Route: "list", Path: "/err", Send: reply(Reply{Status: 400, Body: []byte(`{"error":{"message":"x"}}`)}, errString("bad request"))},
		{Route: "list", Path: "/newerr", Send: reply(Reply{Status: 400, Body: []byte(`{"detail":"x"}`)}, errString("bad request"))},
		{Route: "list", Path: "/write", Method: "DELETE", Send: reply(Reply{Status: 200, Body: good}, nil)},
		{Route: "list", Path: "/paid", Paid: true, Send: reply(Reply{Status: 200, Body: good}, nil)},
		{Route: "list", Path: "/needs", Needs: []string{"x"}, Prepare: func(map[string][]byte, *Call) error { return errString("no id") },
			Send: reply(Reply{Status: 200, Body: good}, nil)},
		{Route: "list", Path: "/nosession", Skip: "no session", Send: reply(Reply{Status: 200, Body: good}, nil)},
		{Route: "list", Path: "/expired", Send: reply(Reply{Status: 200, Body: []byte(`{"stat":"Not_Ok"}`)}, Unprobed("session expired"))},
	}
	want := []string{OK, StatusDepr, StatusDrift, StatusFailed, StatusDrift, StatusFailed, StatusSkip, StatusSkip, StatusSkip, StatusSkip}
	rs := Run(context.Background(), probes, []Shape{testShape}, Options{})
	for i, r := range rs {
		if r.Status != want[i] {
			t.Errorf("%s: %s, want %s (%+v)", r.Path, r.Status, want[i], r)
		}
	}
	if strings.Join(sent, ",") != "GET /ok,GET /dep,GET /enum,GET /err,GET /newerr,GET /expired" {
		t.Fatalf("sent %v: a refused, paid or unprepared probe went out", sent)
	}
	if Worst(rs) != StatusFailed || ExitCode(Worst(rs)) != ExitFailing {
		t.Fatal("worst")
	}
	if rs[7].Error != "needs x: no id" || rs[8].Error != "no session" || rs[9].Error != "session expired" {
		t.Errorf("skip reasons %q, %q, %q", rs[7].Error, rs[8].Error, rs[9].Error)
	}
	// Nothing sent is not ok: every route skipped reads skipped (exit 0).
	if w := Worst(rs[6:]); w != StatusSkip || ExitCode(w) != ExitOK {
		t.Errorf("all skipped: %s", w)
	}
	if w := Worst(append([]Result{rs[0]}, rs[6:]...)); w != OK {
		t.Errorf("ok and skipped: %s", w)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestCommandPrintsReport(t *testing.T) {
	var out, errb bytes.Buffer
	setup := func(context.Context) ([]Probe, []Shape, error) {
		return []Probe{{Upstream: "Up", Route: "list", Path: "/x", Send: func(context.Context, Call) (Reply, error) {
			return Reply{Status: 200, Header: http.Header{"Deprecation": {"true"}}, Body: []byte(`{"data":[],"total":0}`)}, nil
		}}}, []Shape{testShape}, nil
	}
	code := runCommand(context.Background(), "srv", setup, nil, &out, &errb)
	var rep Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err, out.String())
	}
	if code != ExitDeprecated || rep.Status != StatusDepr || rep.Server != "srv" || len(rep.Routes) != 1 || rep.Routes[0].HTTP != 200 {
		t.Fatalf("code %d report %+v", code, rep)
	}
	if code := runCommand(context.Background(), "srv", setup, []string{"--nope"}, &out, &errb); code != ExitUsage {
		t.Fatalf("bad flag: %d", code)
	}
	_ = os.Stderr
}

func TestDirFromEnv(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{EnvDir: "/d", "MCPFLEET_STATE": "memory"}, "/d"},
		{map[string]string{"MCPFLEET_STATE_DIR": "/s"}, "/s"},
		{map[string]string{"MCPFLEET_STATE_DIR": "/s", "MCPFLEET_STATE": "file"}, "/s"},
		{map[string]string{"MCPFLEET_STATE_DIR": "/s", "MCPFLEET_STATE": "memory"}, ""},
		{map[string]string{"HOME": "/home/u", "XDG_STATE_HOME": "/x"}, "/x/mcpfleet"},
	}
	for _, c := range cases {
		if got := DirFromEnv(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: %q, want %q", c.env, got, c.want)
		}
	}
}

// An answer on a route already checked within the interval costs no
// allocation: the watch runs on every upstream answer.
func TestObserveQuietAnswerDoesNotAllocate(t *testing.T) {
	w := NewWatch("srv", time.Hour, "")
	w.Register(testShape)
	h := http.Header{"Content-Type": {"application/json"}}
	body := []byte(`{"data":[],"total":0}`)
	nop := zerolog.Nop()
	w.Observe(nop, "Up", "list", 200, h, body)
	if n := testing.AllocsPerRun(100, func() { w.Observe(nop, "Up", "list", 200, h, body) }); n != 0 {
		t.Fatalf("%v allocations per quiet answer", n)
	}
}

// TestKeepNamesTheFile: the signals are saved under the server's name given
// to Keep (never the executable's), and a watch no server named keeps them
// in memory only; Keep reads back what that server saved before.
func TestKeepNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	f := Finding{Kind: Missing, Path: "id", Detail: "absent"}
	anon := NewWatch("", 0, dir)
	anon.Note(zerolog.Nop(), "Up", "list", f)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("an unnamed watch wrote %v", entries)
	}
	anon.Keep("ktrdr", dir)
	anon.Note(zerolog.Nop(), "Up", "get", f)
	saved, ok, err := Load(dir, "ktrdr")
	if err != nil || !ok || len(saved.Signals) != 2 || saved.Server != "ktrdr" {
		t.Fatalf("saved %+v ok=%v err=%v", saved, ok, err)
	}
	again := NewWatch("", 0, "")
	again.Keep("ktrdr", dir)
	if n := len(again.Signals()); n != 2 {
		t.Fatalf("restored %d signals, want 2", n)
	}
}
