package session

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/identity"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

func newKey(t *testing.T) []byte {
	t.Helper()
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}

func TestParseStateKey(t *testing.T) {
	k := bytes.Repeat([]byte{7}, 32)
	tests := []struct {
		in      string
		wantErr string
	}{
		{base64.StdEncoding.EncodeToString(k), ""},
		{" " + base64.URLEncoding.EncodeToString(k) + "\n", ""},
		{base64.RawStdEncoding.EncodeToString(k), ""},
		{"", "empty"},
		{base64.StdEncoding.EncodeToString(k[:16]), "not 16 bytes"},
		{"not base64 at all!", "not base64"},
	}
	for _, tt := range tests {
		got, err := ParseStateKey(tt.in)
		if tt.wantErr == "" {
			if err != nil || !bytes.Equal(got, k) {
				t.Errorf("ParseStateKey(%q) = %x, %v", tt.in, got, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ParseStateKey(%q) error %v, want %q", tt.in, err, tt.wantErr)
		}
		if err != nil && tt.in != "" && strings.Contains(err.Error(), tt.in) {
			t.Errorf("the error repeats the key: %v", err)
		}
	}
}

// Records are sealed: Redis holds no token, secret or user name in clear; a
// record opens only under its key and only at its own user's Redis key.
func TestRedisStoreEncryptsAtRest(t *testing.T) {
	srv := redistest.StartServer(t)
	rdb := srv.NewClient(t)
	ctx := context.Background()
	st, err := NewRedisStore(rdb, newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	cr := noren.Credentials{UID: "FA12345", Password: "canary-password", TOTPSecret: "CANARYTOTPSECRET", APISecret: "canary-api", VendorCode: "FA12345_U"}
	rec := recordOf(noren.Auth{Era: noren.Legacy, UID: "FA12345", ActID: "FA12345", Token: "canary-token-123"}, cr, time.Unix(1700000000, 0).UTC())
	if err := st.Save(ctx, "alice", rec); err != nil {
		t.Fatal(err)
	}
	keys, err := rdb.Keys(ctx, "*").Result()
	if err != nil || len(keys) != 1 || strings.Contains(keys[0], "alice") {
		t.Fatalf("keys %v %v", keys, err)
	}
	raw, _ := rdb.Get(ctx, keys[0]).Bytes()
	for _, canary := range []string{"canary", "FA12345", "alice", "CANARY"} {
		if bytes.Contains(raw, []byte(canary)) {
			t.Errorf("Redis holds %q in clear", canary)
		}
	}
	if ttl := rdb.TTL(ctx, keys[0]).Val(); ttl <= 0 || ttl > sessionTTL {
		t.Errorf("ttl %v", ttl)
	}
	got, err := st.Load(ctx, "alice")
	if err != nil || got == nil || got.Auth != rec.Auth || got.UID != "FA12345" || !got.At.Equal(rec.At) {
		t.Fatalf("load %+v %v", got, err)
	}
	// Secrets were never stored; the environment supplies them for the same broker user only.
	if c := got.credentials(noren.Credentials{}); c.Password != "" || c.TOTPSecret != "" || c.APISecret != "" {
		t.Errorf("stored credentials carry secrets: %+v", c)
	}
	if c := got.credentials(cr); c.Password != cr.Password || c.VendorCode != "FA12345_U" {
		t.Errorf("credentials with env %+v", c)
	}
	if c := got.credentials(noren.Credentials{UID: "OTHER", Password: "x"}); c.Password != "" {
		t.Error("another broker user's secrets were used")
	}

	if none, err := st.Load(ctx, "bob"); none != nil || err != nil {
		t.Errorf("bob: %+v %v", none, err)
	}
	// Copied to bob's key, alice's record does not open (the key is bound in).
	rdb.Set(ctx, redisKey("bob"), raw, time.Minute)
	if _, err := st.Load(ctx, "bob"); !errors.Is(err, errUnreadable) {
		t.Errorf("moved record: %v", err)
	}
	// Another replica with another key cannot read it.
	other, _ := NewRedisStore(rdb, newKey(t))
	if _, err := other.Load(ctx, "alice"); !errors.Is(err, errUnreadable) {
		t.Errorf("other key: %v", err)
	}
	// Tampered or truncated values do not open.
	for _, bad := range [][]byte{raw[:5], append(append([]byte{}, raw[:len(raw)-1]...), raw[len(raw)-1]^1)} {
		rdb.Set(ctx, redisKey("alice"), bad, time.Minute)
		if _, err := st.Load(ctx, "alice"); !errors.Is(err, errUnreadable) {
			t.Errorf("tampered: %v", err)
		}
	}
	if err := st.Delete(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Load(ctx, "alice"); got != nil || err != nil {
		t.Errorf("after delete %+v %v", got, err)
	}
}

// Two managers on one Redis act as two replicas: a login through A is the
// session on B; a logout on B ends it on A; Redis down is a retryable error.
func TestManagersShareLogins(t *testing.T) {
	srv := redistest.StartServer(t)
	key := newKey(t)
	mk := func() *Manager {
		st, err := NewRedisStore(srv.NewClient(t), key)
		if err != nil {
			t.Fatal(err)
		}
		m := NewManager(noren.New(noren.Config{Era: noren.OAuth, RESTURL: "http://127.0.0.1:9/"}), noren.Credentials{})
		m.Store = st
		return m
	}
	a, b := mk(), mk()
	ctx := identity.WithUser(context.Background(), "alice")
	if _, err := b.Auth(ctx); err == nil {
		t.Fatal("logged in before any login")
	}
	var told []string
	a.OnLogin = func(user string, _ noren.Auth) { told = append(told, user) }
	if err := a.set(ctx, "alice", &noren.Auth{Era: noren.OAuth, UID: "U1", Token: "tok-1"}, noren.Credentials{UID: "U1"}); err != nil {
		t.Fatal(err)
	}
	got, err := b.Auth(ctx)
	if err != nil || got.Token != "tok-1" {
		t.Fatalf("replica B: %+v %v", got, err)
	}
	if fa, ok := b.AuthFor("alice"); !ok || fa.Token != "tok-1" {
		t.Errorf("feed lookup on B: %+v %v", fa, ok)
	}
	if _, err := b.Auth(identity.WithUser(context.Background(), "bob")); err == nil {
		t.Error("bob sees alice's login")
	}
	if len(told) != 1 {
		t.Errorf("OnLogin %v", told)
	}
	b.Logout(ctx)
	if _, err := a.Auth(ctx); err == nil {
		t.Error("logout on B did not end the session on A")
	}
	srv2 := redistest.StartServer(t)
	st, _ := NewRedisStore(srv2.NewClient(t), key)
	c := NewManager(a.Client, noren.Credentials{})
	c.Store = st
	_ = st.rdb.Close() // Redis gone
	_, err = c.Auth(ctx)
	if err == nil || !strings.Contains(err.Error(), "retry") {
		t.Errorf("Redis down: %v", err)
	}
}

// A replica remembers the record it opened, never past a change in Redis: a
// new login on another replica, then a logout there, are what the next Load
// sees.
func TestRedisStoreOpenedRecordFollowsRedis(t *testing.T) {
	srv := redistest.StartServer(t)
	key := newKey(t)
	a, _ := NewRedisStore(srv.NewClient(t), key)
	b, _ := NewRedisStore(srv.NewClient(t), key)
	ctx := context.Background()
	for _, tok := range []string{"tok-1", "tok-1", "tok-2"} {
		if err := a.Save(ctx, "alice", Record{Auth: noren.Auth{UID: "U1", Token: tok}, UID: "U1"}); err != nil {
			t.Fatal(err)
		}
		for range 2 { // the second Load answers from the opened record
			got, err := b.Load(ctx, "alice")
			if err != nil || got == nil || got.Auth.Token != tok {
				t.Fatalf("after a login with %s: %+v %v", tok, got, err)
			}
			got.Auth.Token = "changed by a caller" // a copy: the remembered record is not changed
		}
	}
	if err := a.Delete(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Load(ctx, "alice"); got != nil || err != nil {
		t.Fatalf("after logout on the other replica: %+v %v", got, err)
	}
}

// BenchmarkRedisStoreLoad: the per-call read of a login (one GET; the same
// sealed bytes are not opened again).
func BenchmarkRedisStoreLoad(b *testing.B) {
	srv := redistest.StartServer(b)
	st, _ := NewRedisStore(srv.NewClient(b), make([]byte, 32))
	ctx := context.Background()
	if err := st.Save(ctx, "alice", Record{Auth: noren.Auth{UID: "U1", ActID: "U1", Token: strings.Repeat("t", 64)}, UID: "U1", VendorCode: "U1_U", IMEI: "abc1234", At: time.Now()}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if r, err := st.Load(ctx, "alice"); err != nil || r == nil {
			b.Fatal(err)
		}
	}
}
