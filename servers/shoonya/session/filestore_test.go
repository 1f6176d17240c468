package session

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/identity"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

func openFileStore(t *testing.T, path string, key []byte) *FileStore {
	t.Helper()
	db := storetest.Open(t, path)
	fs, err := NewFileStore(context.Background(), db, key)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// The state file holds the day's login sealed: no token, secret or user name
// in clear anywhere in the file; it opens only under the same key, only at
// its own user's row, and not after the trading day.
func TestFileStoreSealsAtRest(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shoonya.db")
	key := newKey(t)
	st := openFileStore(t, path, key)
	cr := noren.Credentials{UID: "FA12345", Password: "canary-password", TOTPSecret: "CANARYTOTPSECRET", VendorCode: "FA12345_U"}
	rec := recordOf(noren.Auth{Era: noren.Legacy, UID: "FA12345", ActID: "FA12345", Token: "canary-token-123"}, cr, time.Unix(1700000000, 0).UTC())
	if err := st.Save(ctx, "alice", rec); err != nil {
		t.Fatal(err)
	}
	// Another process (a new handle) with the same key finds it.
	got, err := openFileStore(t, path, key).Load(ctx, "alice")
	if err != nil || got == nil || got.Auth != rec.Auth {
		t.Fatalf("load in another handle: %+v %v", got, err)
	}
	var raw []byte
	if err := st.db.SQL().QueryRow(`SELECT sealed FROM shoonya_sessions`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	for _, canary := range []string{"canary", "FA12345", "alice", "CANARY"} {
		if bytes.Contains(raw, []byte(canary)) {
			t.Errorf("the state file holds %q in clear", canary)
		}
	}
	if _, err := openFileStore(t, path, newKey(t)).Load(ctx, "alice"); !errors.Is(err, errUnreadable) {
		t.Errorf("another key: %v", err)
	}
	if _, err := st.db.SQL().Exec(`INSERT INTO shoonya_sessions (key, sealed, expires) VALUES (?, ?, ?)`, redisKey("bob"), raw, time.Now().Add(time.Hour).UnixNano()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(ctx, "bob"); !errors.Is(err, errUnreadable) {
		t.Errorf("alice's record at bob's row: %v", err)
	}
	st.now = func() time.Time { return time.Now().Add(sessionTTL + time.Minute) }
	if got, err := st.Load(ctx, "alice"); got != nil || err != nil {
		t.Errorf("after the trading day: %+v %v", got, err)
	}
	st.now = time.Now
	if err := st.Delete(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Load(ctx, "alice"); got != nil || err != nil {
		t.Errorf("after delete: %+v %v", got, err)
	}
}

// Two managers on one state file act as two processes: a login through one
// is the session of the next; a logout ends it for both.
func TestManagersShareLoginsThroughTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shoonya.db")
	key := newKey(t)
	mk := func() *Manager {
		m := NewManager(noren.New(noren.Config{Era: noren.OAuth, RESTURL: "http://127.0.0.1:9/"}), noren.Credentials{})
		m.Store = openFileStore(t, path, key)
		return m
	}
	a, b := mk(), mk()
	ctx := identity.WithUser(context.Background(), "alice")
	if err := a.set(ctx, "alice", &noren.Auth{Era: noren.OAuth, UID: "U1", Token: "tok-1"}, noren.Credentials{UID: "U1"}); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Auth(ctx); err != nil || got.Token != "tok-1" {
		t.Fatalf("second process: %+v %v", got, err)
	}
	b.Logout(ctx)
	if _, err := a.Auth(ctx); err == nil {
		t.Error("logout in one process did not end the session in the other")
	}
}
