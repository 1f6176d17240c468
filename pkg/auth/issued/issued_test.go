package issued_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/auth/issued"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

// backends are the two implementations, each opened twice on one shared
// file or Redis (what one process writes, the other reads), and a store of
// another server on the same file or Redis.
func backends(t *testing.T) map[string]func(t *testing.T, server string) (writer, reader issued.Store, other func(server string) issued.Store) {
	return map[string]func(t *testing.T, server string) (issued.Store, issued.Store, func(string) issued.Store){
		"store": func(t *testing.T, server string) (issued.Store, issued.Store, func(string) issued.Store) {
			path := store.File(t.TempDir(), server)
			open := func() issued.Store {
				db := storetest.Open(t, path)
				s, err := issued.NewStore(context.Background(), db)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			return open(), open(), func(string) issued.Store { return open() }
		},
		"redis": func(t *testing.T, server string) (issued.Store, issued.Store, func(string) issued.Store) {
			srv := redistest.StartServer(t)
			return issued.NewRedis(srv.NewClient(t), server), issued.NewRedis(srv.NewClient(t), server),
				func(other string) issued.Store { return issued.NewRedis(srv.NewClient(t), other) }
		},
	}
}

func TestCheck(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			w, r, otherStore := open(t, "ziwei")
			valid, tok, err := issued.Issue(ctx, w, "ziwei", "alice", nil, 0, now)
			if err != nil {
				t.Fatal(err)
			}
			short, _, err := issued.Issue(ctx, w, "ziwei", "alice", []string{"read"}, time.Hour, now)
			if err != nil {
				t.Fatal(err)
			}
			revoked, rt, err := issued.Issue(ctx, w, "ziwei", "bob", nil, 0, now)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := w.Revoke(ctx, rt.ID, now.Add(time.Minute)); !ok || err != nil {
				t.Fatalf("revoke: %v %v", ok, err)
			}
			// A token of another server in the same Redis database or file.
			other, _, err := issued.Issue(ctx, otherStore("chartimg"), "chartimg", "alice", nil, 0, now)
			if err != nil {
				t.Fatal(err)
			}
			unknown := issued.Prefix + strings.Repeat("A", len(valid)-len(issued.Prefix))
			cases := []struct {
				name   string
				secret string
				at     time.Time
				want   error
				scopes []string
			}{
				{"valid", valid, now, nil, []string{"ziwei:read", "ziwei:write"}},
				{"valid much later", valid, now.Add(100 * 24 * time.Hour), nil, []string{"ziwei:read", "ziwei:write"}},
				{"read-only before expiry", short, now.Add(59 * time.Minute), nil, []string{"ziwei:read"}},
				{"expired at its expiry", short, now.Add(time.Hour), issued.ErrExpired, nil},
				{"expired", short, now.Add(2 * time.Hour), issued.ErrExpired, nil},
				{"revoked", revoked, now.Add(2 * time.Minute), issued.ErrRevoked, nil},
				{"revoked, replayed later", revoked, now.Add(48 * time.Hour), issued.ErrRevoked, nil},
				{"wrong server", other, now, wrongServer(name), nil},
				{"unknown", unknown, now, issued.ErrUnknown, nil},
				{"malformed: empty", "", now, issued.ErrMalformed, nil},
				{"malformed: no prefix", strings.TrimPrefix(valid, issued.Prefix) + "xxxxx", now, issued.ErrMalformed, nil},
				{"malformed: short", valid[:len(valid)-1], now, issued.ErrMalformed, nil},
				{"malformed: long", valid + "A", now, issued.ErrMalformed, nil},
				{"malformed: bad character", valid[:len(valid)-1] + "=", now, issued.ErrMalformed, nil},
				{"malformed: static token", "replica-alice-0123456789abcdef", now, issued.ErrMalformed, nil},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					got, err := issued.Check(ctx, r, "ziwei", c.secret, c.at)
					if !errors.Is(err, c.want) {
						t.Fatalf("Check: %v, want %v", err, c.want)
					}
					if err != nil {
						if c.secret != "" && strings.Contains(err.Error(), c.secret) || strings.Contains(err.Error(), issued.Hash(c.secret)) {
							t.Fatalf("the error quotes the secret or its hash: %v", err)
						}
						return
					}
					if got.User != "alice" || !slices.Equal(got.Scopes, c.scopes) || got.ID != tok.ID && c.name != "read-only before expiry" {
						t.Fatalf("Check: %+v", got)
					}
					if p := got.Principal(); p.UserID() != "issued#alice" {
						t.Fatalf("UserID %q", p.UserID())
					}
				})
			}
		})
	}
}

// wrongServer: in a file, a token of another server is stored in that file
// and found with the wrong server; in Redis its key is another server's, so
// it is not found at all. Both are refused alike.
func wrongServer(backend string) error {
	if backend == "redis" {
		return issued.ErrUnknown
	}
	return issued.ErrWrongServer
}

func TestListAndRevoke(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			w, r, _ := open(t, "web-search")
			var secrets []string
			for i, u := range []string{"alice", "bob", "alice"} {
				s, _, err := issued.Issue(ctx, w, "web-search", u, nil, time.Duration(i)*time.Hour, now.Add(time.Duration(i)*time.Second))
				if err != nil {
					t.Fatal(err)
				}
				secrets = append(secrets, s)
			}
			ts, err := r.List(ctx)
			if err != nil || len(ts) != 3 {
				t.Fatalf("List: %v %v", ts, err)
			}
			for i, tk := range ts {
				if len(tk.ID) != 8 || tk.Status(now) != "active" {
					t.Fatalf("token %d: %+v", i, tk)
				}
				for _, s := range secrets { // the id says nothing of a secret
					if strings.Contains(s, tk.ID) || strings.HasPrefix(issued.Hash(s), tk.ID) {
						t.Fatalf("id %s is part of a secret or its hash", tk.ID)
					}
				}
			}
			if ts[0].User != "alice" || ts[1].User != "bob" || !ts[1].Expires.Equal(now.Add(time.Second+time.Hour)) {
				t.Fatalf("List order or fields: %+v", ts)
			}
			if ok, err := r.Revoke(ctx, "00000000", now); ok || err != nil {
				t.Fatalf("revoking an unknown id: %v %v", ok, err)
			}
			ids, err := issued.RevokeUser(ctx, w, "alice", now.Add(time.Minute))
			if err != nil || len(ids) != 2 {
				t.Fatalf("RevokeUser: %v %v", ids, err)
			}
			// Revoking again keeps the first time.
			if ok, err := w.Revoke(ctx, ids[0], now.Add(time.Hour)); !ok || err != nil {
				t.Fatal(ok, err)
			}
			ts, _ = r.List(ctx)
			want := []string{"revoked", "active", "revoked"}
			for i, tk := range ts {
				if tk.Status(now.Add(2*time.Minute)) != want[i] {
					t.Fatalf("token %d status %s, want %s", i, tk.Status(now), want[i])
				}
				if want[i] == "revoked" && !tk.Revoked.Equal(now.Add(time.Minute)) {
					t.Fatalf("token %d revoked at %v", i, tk.Revoked)
				}
			}
			if _, err := issued.Check(ctx, r, "web-search", secrets[1], now.Add(time.Hour)); err != nil {
				t.Fatalf("bob's token: %v", err)
			}
			if _, err := issued.Check(ctx, r, "web-search", secrets[1], now.Add(time.Hour+time.Second)); !errors.Is(err, issued.ErrExpired) {
				t.Fatalf("bob's token after its hour: %v", err)
			}
		})
	}
}

// Many tokens issued at once from two stores on one backend: every id and
// secret distinct, all listed.
func TestIssueConcurrently(t *testing.T) {
	ctx := context.Background()
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			a, b, _ := open(t, "ktrdr")
			var wg sync.WaitGroup
			var mu sync.Mutex
			seen := map[string]bool{}
			for i := range 20 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s := a
					if i%2 == 1 {
						s = b
					}
					sec, _, err := issued.Issue(ctx, s, "ktrdr", "u", nil, 0, time.Now())
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					seen[sec] = true
					mu.Unlock()
				}()
			}
			wg.Wait()
			ts, err := a.List(ctx)
			if err != nil || len(ts) != 20 || len(seen) != 20 {
				t.Fatalf("%d listed, %d distinct secrets: %v", len(ts), len(seen), err)
			}
		})
	}
}

func TestIssueRefuses(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t, filepath.Join(t.TempDir(), "x.db"))
	s, err := issued.NewStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, user string
		scopes     []string
		ttl        time.Duration
		wantErr    string
	}{
		{"another server's scope", "a", []string{"chartimg:read"}, 0, "not one of ziwei's"},
		{"unknown scope", "a", []string{"admin"}, 0, "ziwei:read"},
		{"empty user", "", nil, 0, "--user"},
		{"user with a space", "a b", nil, 0, "no spaces"},
		{"negative lifetime", "a", nil, -time.Second, "future"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := issued.Issue(ctx, s, "ziwei", c.user, c.scopes, c.ttl, time.Now())
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("Issue: %v, want an error with %q", err, c.wantErr)
			}
		})
	}
	sc, err := issued.Scopes("ziwei", []string{"read", "ziwei:read", "write"})
	if err != nil || !slices.Equal(sc, []string{"ziwei:read", "ziwei:write"}) {
		t.Fatalf("Scopes: %v %v", sc, err)
	}
}

func TestParseExpires(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, true},
		{"30d", 30 * 24 * time.Hour, true},
		{"12h", 12 * time.Hour, true},
		{"90m", 90 * time.Minute, true},
		{"2w", 14 * 24 * time.Hour, true},
		{"45s", 45 * time.Second, true},
		{"3650d", issued.MaxTTL, true},
		{"3651d", 0, false},
		{"0d", 0, false},
		{"-1d", 0, false},
		{"1.5h", 0, false},
		{"d", 0, false},
		{"30", 0, false},
		{"30y", 0, false},
		{"1h30m", 0, false},
		{"99999999999d", 0, false},
	} {
		got, err := issued.ParseExpires(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseExpires(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func FuzzParseExpires(f *testing.F) {
	for _, s := range []string{"30d", "12h", "0s", "-1d", "9223372036854775807s", "1e9h", "w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := issued.ParseExpires(s)
		if err != nil {
			if d != 0 {
				t.Fatalf("error with a lifetime %v", d)
			}
			return
		}
		if s != "" && (d <= 0 || d > issued.MaxTTL) {
			t.Fatalf("ParseExpires(%q) = %v, out of range", s, d)
		}
	})
}

func FuzzLooksIssued(f *testing.F) {
	f.Add(issued.Prefix + strings.Repeat("A", 43))
	f.Add("mcpf_")
	f.Add("Bearer x")
	f.Fuzz(func(t *testing.T, s string) {
		if issued.LooksIssued(s) && (!strings.HasPrefix(s, issued.Prefix) || len(s) != len(issued.Prefix)+43) {
			t.Fatalf("LooksIssued(%q) but it has not the form", s)
		}
	})
}

// Redis away: Check says the store cannot be read (the server answers 503
// and logs it), never "invalid", and the error names no token or hash.
func TestCheckWhenRedisIsAway(t *testing.T) {
	ctx := context.Background()
	srv := redistest.StartServer(t)
	w := issued.NewRedis(srv.NewClient(t), "ziwei")
	secret, _, err := issued.Issue(ctx, w, "ziwei", "alice", nil, 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	rdb := srv.NewClient(t)
	r := issued.NewRedis(rdb, "ziwei")
	if _, err := issued.Check(ctx, r, "ziwei", secret, time.Now()); err != nil {
		t.Fatal(err)
	}
	_ = rdb.Close()
	_, err = issued.Check(ctx, r, "ziwei", secret, time.Now())
	if !errors.Is(err, issued.ErrUnavailable) || strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), issued.Hash(secret)) {
		t.Fatalf("Check with Redis away: %v", err)
	}
	if e := issued.Refusal(err); e == nil || e.Status != 503 {
		t.Fatalf("Refusal: %+v", e)
	}
	if e := issued.Refusal(issued.ErrRevoked); e == nil || e.Status != 401 || e.Code != "invalid_token" || *e != *issued.Refusal(issued.ErrUnknown) {
		t.Fatalf("a revoked token must be refused as an unknown one: %+v", e)
	}
}

// BenchmarkCheck is the cost each request pays for an issued token: one
// lookup in the state file or Redis.
func BenchmarkCheck(b *testing.B) {
	ctx := context.Background()
	for name, open := range map[string]func(b *testing.B) issued.Store{
		"store": func(b *testing.B) issued.Store {
			db := storetest.Open(b, store.File(b.TempDir(), "ziwei"))
			s, err := issued.NewStore(ctx, db)
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
		"redis": func(b *testing.B) issued.Store { return issued.NewRedis(redistest.Start(b), "ziwei") },
	} {
		b.Run(name, func(b *testing.B) {
			s := open(b)
			secret, _, err := issued.Issue(ctx, s, "ziwei", "alice", nil, 0, time.Now())
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := issued.Check(ctx, s, "ziwei", secret, time.Now()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
