package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

var now = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// ruleOfSize builds a valid rule whose compact JSON, as json.Marshal writes it
// (the way the MCP tool encodes its argument), is exactly n bytes: nested
// any-lists of 16 English star names, trimmed, then tuned a byte at a time by
// turning "min":1 into "min":10…16.
func ruleOfSize(t testing.TB, n int) json.RawMessage {
	t.Helper()
	var names []string
	for id := 0; id < astro.NumStars && len(names) < 16; id++ {
		if nm := astro.StarID(id).Name(astro.EnUS); nm != "" {
			names = append(names, nm)
		}
	}
	type sub struct {
		Stars []string `json:"stars"`
		In    string   `json:"in"`
		Scope string   `json:"scope"`
		Min   int      `json:"min"`
	}
	groups := make([][]*sub, 3)
	var subs []*sub
	for g := range groups {
		for i := 0; i < 16; i++ {
			s := &sub{Stars: append([]string(nil), names...), In: "命宫", Scope: "sanfang", Min: 1}
			groups[g] = append(groups[g], s)
			subs = append(subs, s)
		}
	}
	encode := func() []byte {
		var all []map[string]any
		for _, g := range groups {
			var anyOf []*sub
			for _, s := range g {
				if len(s.Stars) > 0 {
					anyOf = append(anyOf, s)
				}
			}
			if len(anyOf) > 0 {
				all = append(all, map[string]any{"any": anyOf})
			}
		}
		b, err := json.Marshal(map[string]any{"all": all})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if len(encode()) < n {
		t.Fatalf("cannot build a rule of %d bytes (max %d)", n, len(encode()))
	}
	// Trim names from the end until the rule is at most n bytes.
	for i := len(subs) - 1; i >= 0 && len(encode()) > n; i-- {
		for len(subs[i].Stars) > 0 && len(encode()) > n {
			subs[i].Stars = subs[i].Stars[:len(subs[i].Stars)-1]
		}
	}
	for _, s := range subs {
		for d := 10; d <= 16 && len(s.Stars) >= d && len(encode()) < n; d++ {
			if s.Min == 1 {
				s.Min = 10 // "1" -> "10": one byte more
			} else {
				break
			}
		}
	}
	b := encode()
	if len(b) != n {
		t.Fatalf("built %d bytes, want %d", len(b), n)
	}
	return b
}

func TestStoreRoundTripAtTheSizeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	s := NewStore(path)
	for _, tc := range []struct {
		size int
		ok   bool
	}{{MaxBytes - 1, true}, {MaxBytes, true}, {MaxBytes + 1, false}, {4700, true}, {6300, true}} {
		rule := ruleOfSize(t, tc.size)
		name := "r" + string(rune('a'+tc.size%26)) + time.Duration(tc.size).String()
		st, _, err := s.Put("u", name, strings.Repeat("意", MaxMeaningRunes), rule, now)
		if !tc.ok {
			var re *Error
			if !errors.As(err, &re) || !strings.Contains(err.Error(), "8192") {
				t.Errorf("%d bytes: %v, want a size error naming the limit", tc.size, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%d bytes: %v", tc.size, err)
		}
		if !bytes.Equal(st.Rule, rule) {
			t.Errorf("%d bytes: stored a different rule", tc.size)
		}
		// A fresh reader of the file, and the writer, see it as given.
		for _, r := range []*Store{s, NewStore(path)} {
			l, err := r.List("u")
			if err != nil || len(l.Corrupt) != 0 {
				t.Fatalf("%d bytes: list %v, corrupt %+v", tc.size, err, l.Corrupt)
			}
			found := false
			for _, c := range l.Rules {
				found = found || c.ID == st.ID && bytes.Equal(c.Rule, rule)
			}
			if !found {
				t.Errorf("%d bytes: accepted, then gone on the next read", tc.size)
			}
		}
	}
	// The next write keeps every one of them.
	if _, _, err := s.Put("u", "small", "m", json.RawMessage(`{"stars":["紫微"]}`), now); err != nil {
		t.Fatal(err)
	}
	if l, _ := NewStore(path).List("u"); len(l.Rules) != 5 {
		t.Errorf("%d rules after one more write, want 5", len(l.Rules))
	}
}

// TestStoreReadsIndentedFiles: files written indented (as this store once did)
// keep rules whose indented form is over the limit: size is measured compact.
func TestStoreReadsIndentedFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	rule := ruleOfSize(t, 6300)
	old := map[string]any{"version": 1, "rules": []Stored{{ID: RuleID("u", "big"), Owner: "u", Name: "big", Meaning: "m", Rule: rule, Updated: now}}}
	data, _ := json.MarshalIndent(old, "", " ")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Rules []struct{ Rule json.RawMessage }
	}
	if err := json.Unmarshal(data, &back); err != nil || len(back.Rules[0].Rule) <= MaxBytes {
		t.Fatalf("the indented rule is %d bytes; the test needs it over %d", len(back.Rules[0].Rule), MaxBytes)
	}
	s := NewStore(path)
	if l, err := s.List("u"); err != nil || len(l.Rules) != 1 || !bytes.Equal(l.Rules[0].Rule, rule) {
		t.Fatalf("indented file: %+v %v", l, err)
	}
	if _, _, err := s.Put("u", "n2", "m", json.RawMessage(`{"stars":["紫微"]}`), now); err != nil {
		t.Fatal(err)
	}
	if l, _ := NewStore(path).List("u"); len(l.Rules) != 2 {
		t.Errorf("after a write: %d rules, want 2", len(l.Rules))
	}
}

func TestStoreReportsAndKeepsCorruptEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	file := `{"version":1,"rules":[
{"id":"r-good","owner":"u","name":"good","meaning":"m","rule":{"stars":["紫微"]},"updated":"2026-11-21T10:00:00Z"},
{"id":"r-star","owner":"u","name":"bad star","meaning":"m","rule":{"stars":["北极星"]},"updated":"2026-11-21T10:00:00Z"},
{"id":"r-type","owner":"u","name":"bad type","meaning":5,"rule":{},"updated":"x"},
{"id":"r-noowner","name":"n","meaning":"m","rule":{"stars":["紫微"]}},
{"id":"r-empty","owner":"u","name":"","meaning":"m","rule":{"stars":["紫微"]}},
{"id":"r-other","owner":"v","name":"good","meaning":"m","rule":{"stars":["紫微"]},"updated":"2026-11-21T10:00:00Z"}
]}`
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	s := NewStore(path).WithLogger(zerolog.New(&logs))
	l, err := s.List("u")
	if err != nil || len(l.Rules) != 1 || len(l.Corrupt) != 3 {
		t.Fatalf("list: %+v %v", l, err)
	}
	for i, want := range []string{"unknown star", "not a rule entry", "name must be"} {
		if !strings.Contains(l.Corrupt[i].Reason, want) {
			t.Errorf("corrupt[%d] %+v, want a reason with %q", i, l.Corrupt[i], want)
		}
	}
	if l.Usage.Rules != 4 {
		t.Errorf("corrupt entries count against the quota: usage %+v", l.Usage)
	}
	if n := strings.Count(logs.String(), "cannot be read"); n != 4 {
		t.Errorf("%d corrupt entries logged, want 4: %s", n, logs.String())
	}
	// A write keeps every entry, the corrupt ones too.
	if _, _, err := s.Put("u", "new", "m", json.RawMessage(`{"stars":["天府"]}`), now); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, id := range []string{"r-good", "r-star", "r-type", "r-noowner", "r-empty", "r-other"} {
		if !bytes.Contains(data, []byte(`"`+id+`"`)) {
			t.Errorf("%s dropped by a write", id)
		}
	}
	// The owner removes a corrupt entry by its id.
	gone, err := s.Delete("u", "r-star")
	if err != nil || len(gone) != 1 {
		t.Fatalf("delete corrupt: %v %v", gone, err)
	}
	if l, _ := NewStore(path).List("u"); len(l.Corrupt) != 2 || len(l.Rules) != 2 {
		t.Errorf("after delete: %+v", l)
	}
}

func TestStoreRefusesToOverwriteAnUnreadableFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	if err := os.WriteFile(path, []byte(`{"version":1,"rules":[{"id":`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewStore(path)
	if _, err := s.List("u"); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("list: %v", err)
	}
	if _, _, err := s.Put("u", "n", "m", json.RawMessage(`{"stars":["紫微"]}`), now); err == nil {
		t.Errorf("put over an unreadable file succeeded")
	}
	if data, _ := os.ReadFile(path); string(data) != `{"version":1,"rules":[{"id":` {
		t.Errorf("file changed: %s", data)
	}
}

func TestStoreQuotas(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	s := NewStore(path).WithLimits(Limits{UserBytes: 2000, UserRules: 3, FileBytes: 1 << 20})
	rule := json.RawMessage(`{"stars":["紫微"],"in":"命宫"}`)
	meaning := strings.Repeat("m", 400)
	// One user fills her quota of rules, then of bytes.
	for i := 0; i < 3; i++ {
		if _, _, err := s.Put("a", "n"+string(rune('0'+i)), meaning, rule, now); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := s.Put("a", "n3", "m", rule, now)
	var qe *QuotaError
	if !errors.As(err, &qe) || qe.Env != EnvUserRules || !strings.Contains(err.Error(), "delete_star_combination_meaning") {
		t.Fatalf("4th rule: %v", err)
	}
	// Replacing under a known name is still allowed.
	if _, replaced, err := s.Put("a", "n0", "shorter", rule, now); err != nil || !replaced {
		t.Fatalf("replace: %v %v", replaced, err)
	}
	_, _, err = s.Put("a", "n1", strings.Repeat("长", 600), rule, now)
	if !errors.As(err, &qe) || qe.Env != EnvUserBytes || qe.Limit != 2000 || !strings.Contains(err.Error(), "2000 bytes") {
		t.Fatalf("over the byte quota: %v", err)
	}
	// Another user is not affected.
	if _, _, err := s.Put("b", "n0", meaning, rule, now); err != nil {
		t.Fatalf("second user: %v", err)
	}
	// Deleting frees room; deleting again is not an error.
	if gone, err := s.Delete("a", "n1"); err != nil || len(gone) != 1 || gone[0].Name != "n1" {
		t.Fatalf("delete: %v %v", gone, err)
	}
	if gone, err := s.Delete("a", "n1"); err != nil || len(gone) != 0 {
		t.Fatalf("delete again: %v %v", gone, err)
	}
	if _, _, err := s.Put("a", "n3", "m", rule, now); err != nil {
		t.Fatalf("after delete: %v", err)
	}
	l, _ := s.List("a")
	if l.Usage.Rules != 3 || l.Usage.Bytes <= 0 || l.Usage.Bytes > 2000 || l.Usage.QuotaBytes != 2000 {
		t.Errorf("usage %+v", l.Usage)
	}
	// A lowered quota: what is stored stays readable, a shrinking replacement is allowed.
	low := NewStore(path).WithLimits(Limits{UserBytes: 1000, UserRules: 3, FileBytes: 1 << 20})
	if l, _ := low.List("a"); len(l.Rules) != 3 {
		t.Fatalf("lowered quota hides rules: %+v", l)
	}
	if _, _, err := low.Put("a", "n2", "m", rule, now); err != nil {
		t.Errorf("shrinking replacement over quota: %v", err)
	}
	// The shared file's limit: a growing write is refused, a delete is not.
	tiny := NewStore(path).WithLimits(Limits{FileBytes: 1 << 10})
	_, _, err = tiny.Put("c", "n", "m", rule, now)
	if !errors.As(err, &qe) || qe.Env != EnvFileBytes {
		t.Fatalf("file limit: %v", err)
	}
	if _, err := tiny.Delete("b", "n0"); err != nil {
		t.Errorf("delete over the file limit: %v", err)
	}
}

func TestDeleteOnMissingFileWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	if gone, err := NewStore(path).Delete("u", "x"); err != nil || gone != nil {
		t.Fatalf("%v %v", gone, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("delete of nothing created the file: %v", err)
	}
}

func TestLimitsFromEnv(t *testing.T) {
	t.Setenv(EnvUserBytes, "65536")
	t.Setenv(EnvUserRules, "50")
	t.Setenv(EnvFileBytes, "")
	l, err := LimitsFromEnv()
	if err != nil || l.UserBytes != 65536 || l.UserRules != 50 || l.FileBytes != DefaultLimits().FileBytes {
		t.Fatalf("%+v %v", l, err)
	}
	for _, bad := range []string{"0", "-1", "lots", "1e9", "999999999999"} {
		t.Setenv(EnvUserBytes, bad)
		if _, err := LimitsFromEnv(); err == nil || !strings.Contains(err.Error(), EnvUserBytes) {
			t.Errorf("%s=%s: %v", EnvUserBytes, bad, err)
		}
	}
}

// FuzzDecodeFile: the rules file is outside input (replicas, hand edits). It
// decodes without panicking, and what decodes is written back and read again
// unchanged: the good stay good with the same rule bytes, the corrupt stay.
func FuzzDecodeFile(f *testing.F) {
	for _, s := range []string{
		`{"version":1,"rules":[]}`,
		`{"version":1,"rules":[{"id":"r-1","owner":"u","name":"n","meaning":"m","rule":{"stars":["紫微"]},"updated":"2026-11-21T10:00:00Z"}]}`,
		`{"version":1,"rules":[{"id":"r-1","owner":"u","name":"n","meaning":5,"rule":{}},{"id":2},7,null]}`,
		`{"version":1,"rules":[{"id":"r-1","owner":"u","name":"n","meaning":"m","rule":  { "all" : [ {"stars":["紫微"]} ] }}]}`,
		`{"version":2}`, `[]`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := decodeFile(data)
		if err != nil {
			return
		}
		again, err := decodeFile(encodeFile(entries))
		if err != nil || len(again) != len(entries) {
			t.Fatalf("re-encoded file: %v, %d of %d entries", err, len(again), len(entries))
		}
		for i := range entries {
			a, b := entries[i], again[i]
			if (a.good == nil) != (b.good == nil) || a.id != b.id || a.owner != b.owner || !bytes.Equal(a.line, b.line) {
				t.Fatalf("entry %d changed: %s -> %s", i, a.line, b.line)
			}
			if a.good != nil && !bytes.Equal(a.good.Rule, b.good.Rule) {
				t.Fatalf("entry %d rule changed", i)
			}
		}
	})
}

// TestReplicasSharingTheFileLoseNoWrite: two stores on one file (two server
// replicas) writing at once keep every accepted rule.
func TestReplicasSharingTheFileLoseNoWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	replicas := []*Store{NewStore(path), NewStore(path)}
	const perReplica = 12
	errs := make(chan error, 2*perReplica)
	done := make(chan struct{})
	for r, s := range replicas {
		go func(r int, s *Store) {
			defer func() { done <- struct{}{} }()
			for i := 0; i < perReplica; i++ {
				_, _, err := s.Put("u", "r"+string(rune('a'+r))+string(rune('a'+i)), "m", json.RawMessage(`{"stars":["紫微"]}`), now)
				errs <- err
			}
		}(r, s)
	}
	<-done
	<-done
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if l, _ := NewStore(path).List("u"); len(l.Rules) != 2*perReplica {
		t.Errorf("%d of %d accepted rules in the file", len(l.Rules), 2*perReplica)
	}
}

// TestListSeesAnotherReplicasWrites: a store that has listed (and cached) the
// file sees what another store on the same file wrote, removed, and a file
// that appears or disappears, on its next List.
func TestListSeesAnotherReplicasWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	a, b := NewStore(path), NewStore(path)
	count := func() int {
		t.Helper()
		l, err := a.List("u")
		if err != nil {
			t.Fatal(err)
		}
		return len(l.Rules)
	}
	if n := count(); n != 0 {
		t.Fatalf("no file: %d rules", n)
	}
	steps := []struct {
		do   func() error
		want int
	}{
		{func() error {
			_, _, err := b.Put("u", "one", "m", json.RawMessage(`{"stars":["紫微"]}`), now)
			return err
		}, 1},
		{func() error {
			_, _, err := b.Put("u", "two", "m", json.RawMessage(`{"stars":["天机"]}`), now)
			return err
		}, 2},
		{func() error { _, err := b.Delete("u", "one"); return err }, 1},
		{func() error { return os.Remove(path) }, 0},
		{func() error {
			_, _, err := b.Put("u", "three", "m", json.RawMessage(`{"stars":["太阳"]}`), now)
			return err
		}, 1},
	}
	for i, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if n := count(); n != st.want {
			t.Fatalf("step %d: a lists %d rules, want %d", i, n, st.want)
		}
		if n := count(); n != st.want { // and again, from its cache
			t.Fatalf("step %d again: a lists %d rules, want %d", i, n, st.want)
		}
	}
}
