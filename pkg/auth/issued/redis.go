package issued

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Keys, per server (one Redis may serve several servers):
//
//	mcpfleet:issued:<server>:h:<hash>  a hash: id, server, user, scopes, created, expires[, revoked]
//	mcpfleet:issued:<server>:ids       a hash: id -> token hash, for list and revoke
//
// Tokens carry no Redis TTL: an expired or revoked one stays listed with its
// status (Check refuses it by its fields, at the time of the request).
const redisPrefix = "mcpfleet:issued:"

type redisStore struct {
	rdb    redis.UniversalClient
	prefix string
}

// NewRedis keeps server's tokens in Redis, which every replica reads on
// every request.
func NewRedis(rdb redis.UniversalClient, server string) Store {
	return redisStore{rdb: rdb, prefix: redisPrefix + server + ":"}
}

// addScript records a token unless its id is taken (0). KEYS: ids, token
// hash. ARGV: id, token hash, then field/value pairs.
var addScript = redis.NewScript(`
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV, 3))
return 1`)

// revokeScript sets revoked once (the first time stays). KEYS: ids.
// ARGV: id, time, key prefix of token hashes. 0: no such id.
var revokeScript = redis.NewScript(`
local h = redis.call('HGET', KEYS[1], ARGV[1])
if not h then return 0 end
redis.call('HSETNX', ARGV[3] .. h, 'revoked', ARGV[2])
return 1`)

func (s redisStore) Add(ctx context.Context, hash string, t Token) error {
	args := []any{t.ID, hash, "id", t.ID, "server", t.Server, "user", t.User, "scopes", strings.Join(t.Scopes, " "),
		"created", unix(t.Created), "expires", unix(t.Expires)}
	n, err := addScript.Run(ctx, s.rdb, []string{s.prefix + "ids", s.prefix + "h:" + hash}, args...).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrDuplicate
	}
	return nil
}

func parseRedisToken(m map[string]string) Token {
	num := func(k string) time.Time {
		n, _ := strconv.ParseInt(m[k], 10, 64)
		return fromUnix(n)
	}
	return Token{ID: m["id"], Server: m["server"], User: m["user"], Scopes: strings.Fields(m["scopes"]),
		Created: num("created"), Expires: num("expires"), Revoked: num("revoked")}
}

func (s redisStore) Lookup(ctx context.Context, hash string) (Token, bool, error) {
	m, err := s.rdb.HGetAll(ctx, s.prefix+"h:"+hash).Result()
	if err != nil || len(m) == 0 {
		return Token{}, false, err
	}
	return parseRedisToken(m), true, nil
}

func (s redisStore) List(ctx context.Context) ([]Token, error) {
	ids, err := s.rdb.HGetAll(ctx, s.prefix+"ids").Result()
	if err != nil {
		return nil, err
	}
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, 0, len(ids))
	for _, h := range ids {
		cmds = append(cmds, pipe.HGetAll(ctx, s.prefix+"h:"+h))
	}
	if len(cmds) > 0 {
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, err
		}
	}
	out := make([]Token, 0, len(cmds))
	for _, c := range cmds {
		if m := c.Val(); len(m) > 0 {
			out = append(out, parseRedisToken(m))
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

func (s redisStore) Revoke(ctx context.Context, id string, now time.Time) (bool, error) {
	n, err := revokeScript.Run(ctx, s.rdb, []string{s.prefix + "ids"}, id, max(now.Unix(), 1), s.prefix+"h:").Int()
	return n == 1, err
}
