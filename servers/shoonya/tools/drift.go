package tools

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/session"
)

// Settings of the drift probe (`mcpfleet doctor --live shoonya`).
const (
	// EnvProbeLogin=1 lets the probe log in (legacy QuickAuth, with the
	// server's credentials) when no stored session exists. Off by default:
	// a new login may end the session the server or another client holds.
	EnvProbeLogin = "SHOONYA_PROBE_LOGIN"
	// EnvProbeUser is whose stored login the probe reads with: the MCP
	// user the server keys sessions by (default "local", the stdio user).
	EnvProbeUser = "SHOONYA_PROBE_USER"
)

// DriftSetup builds the probe from the server's environment. It reads with
// the session the server stored (Redis, or the state file with
// MCPFLEET_STATE_KEY), never replacing it; without one it logs in only
// when EnvProbeLogin allows it, else every route is skipped: no session.
func DriftSetup(ctx context.Context) ([]drift.Probe, []drift.Shape, error) {
	rdb, db, err := probeState(ctx)
	if err != nil {
		return nil, nil, err
	}
	cfg, _, _, err := ConfigOn(rdb, db)
	if err != nil {
		return nil, nil, err
	}
	client := noren.New(cfg)
	s := &noren.ProbeSession{}
	user := env.Or(EnvProbeUser, serve.LocalUser)
	auth, why, err := storedSession(ctx, rdb, db, user, cfg.Era)
	if err != nil {
		return nil, nil, err
	}
	login, _ := strconv.ParseBool(env.Or(EnvProbeLogin, ""))
	cr := session.CredentialsFromEnv()
	var probes []drift.Probe
	skip := ""
	switch {
	case auth != nil:
		redact.Register(auth.Token)
		s.Auth = auth
	case login && cfg.Era == noren.Legacy && cr.UID != "" && cr.Password != "" && cr.TOTPSecret != "" && cr.APISecret != "":
		probes = append(probes, client.LoginProbe(s, cr, time.Now))
	case login && cfg.Era == noren.Legacy:
		skip = fmt.Sprintf("no session: %s; %s=1 needs %s, %s, %s and %s to log in", why, EnvProbeLogin,
			session.EnvUserID, session.EnvPassword, session.EnvTOTPSecret, session.EnvAPISecret)
	case login:
		skip = "no session: " + why + "; an OAuth login needs the user's browser: log in with connect_shoonya_broker (with " +
			session.EnvStateKey + " set, so the session is stored) and probe again"
	default:
		skip = "no session: " + why + "; log in with connect_shoonya_broker (with " + session.EnvStateKey +
			" set, the probe reads with that session), or set " + EnvProbeLogin + "=1 to let the probe log in (it may end the session the server holds)"
	}
	return append(probes, client.Probes(s, time.Now(), skip)...), noren.Shapes, nil
}

// probeState opens where the server keeps its sessions and request
// budget, as the server does: Redis with MCPFLEET_REDIS_URL, else the
// state file when it exists (the probe never creates one), else nothing.
func probeState(ctx context.Context) (*redis.Client, *store.DB, error) {
	if u := env.Or("MCPFLEET_REDIS_URL", ""); u != "" {
		rdb, err := serve.ConnectRedis(ctx, u, zerolog.Nop())
		if err != nil {
			return nil, nil, err
		}
		context.AfterFunc(ctx, func() { _ = rdb.Close() })
		return rdb, nil, nil
	}
	if mode, err := serve.StateMode(); err == nil && mode == serve.StateMemory {
		return nil, nil, nil
	}
	path, err := serve.StatePath(os.Getenv, "shoonya", "")
	if err != nil {
		return nil, nil, nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil, nil, nil
	}
	db, err := store.Open(ctx, path, store.WithBusyTimeout(2*time.Second))
	if err != nil {
		return nil, nil, fmt.Errorf("the state file %s: %w", path, err)
	}
	context.AfterFunc(ctx, func() { _ = db.Close() })
	if err := ratelimit.PrepareStore(ctx, db); err != nil {
		return nil, nil, fmt.Errorf("the state file %s: %w", path, err)
	}
	return nil, db, nil
}

// storedSession is user's login as the server stored it, or why there is
// none.
func storedSession(ctx context.Context, rdb *redis.Client, db *store.DB, user string, era noren.Era) (*noren.Auth, string, error) {
	raw := env.Or(session.EnvStateKey, "")
	if raw == "" || (rdb == nil && db == nil) {
		return nil, "the server keeps its broker session in its process only (no " + session.EnvStateKey + ", or no state file)", nil
	}
	key, err := session.ParseStateKey(raw)
	if err != nil {
		return nil, "", err
	}
	var st session.Store
	if rdb != nil {
		st, err = session.NewRedisStore(rdb, key)
	} else {
		st, err = session.NewFileStore(ctx, db, key)
	}
	if err != nil {
		return nil, "", err
	}
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	rec, err := st.Load(lctx, user)
	switch {
	case err != nil:
		return nil, "the stored session of " + user + " cannot be read (the store did not answer, or another " + session.EnvStateKey + ")", nil
	case rec == nil:
		return nil, "no stored session of user " + user + " (" + EnvProbeUser + ")", nil
	case rec.Auth.Era != era:
		return nil, "the stored session is an " + string(rec.Auth.Era) + " login, but " + EnvAuth + " is " + string(era), nil
	}
	a := rec.Auth
	return &a, "", nil
}
