package session

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// EnvStateKey is the key that encrypts broker sessions at rest in Redis.
const EnvStateKey = "MCPFLEET_STATE_KEY"

// Store keeps each user's login where every replica sees it. With a Store
// the Manager reads logins from it on every call, so a login on one replica
// serves calls on another and a logout anywhere ends it everywhere.
type Store interface {
	Load(ctx context.Context, user string) (*Record, error) // nil, nil when the user has none
	Save(ctx context.Context, user string, r Record) error
	Delete(ctx context.Context, user string) error
}

// Record is one user's stored login. Only the non-secret parts of the
// credentials are kept (to re-login with the environment's secrets on any
// replica); passwords, TOTP and API secrets never leave the process.
type Record struct {
	Auth noren.Auth `json:"auth"`
	// UID, VendorCode, IMEI and ClientID of the credentials the login used.
	UID        string    `json:"uid"`
	VendorCode string    `json:"vc,omitempty"`
	IMEI       string    `json:"imei,omitempty"`
	ClientID   string    `json:"client_id,omitempty"`
	At         time.Time `json:"at"`
}

func recordOf(a noren.Auth, cr noren.Credentials, at time.Time) Record {
	return Record{Auth: a, UID: cr.UID, VendorCode: cr.VendorCode, IMEI: cr.IMEI, ClientID: cr.ClientID, At: at}
}

// credentials rebuilds re-login credentials: the stored identifiers plus the
// environment's secrets when the environment is for the same broker user.
func (r Record) credentials(env noren.Credentials) noren.Credentials {
	cr := noren.Credentials{UID: r.UID, VendorCode: r.VendorCode, IMEI: r.IMEI, ClientID: r.ClientID}
	if env.UID != "" && env.UID == r.UID {
		cr.Password, cr.TOTPSecret, cr.APISecret, cr.ClientSecret = env.Password, env.TOTPSecret, env.APISecret, env.ClientSecret
	}
	return cr
}

// sessionTTL bounds a stored login: Noren sessions last a trading day.
const sessionTTL = 24 * time.Hour

// RedisStore is a Store in Redis, each record sealed with AES-256-GCM under
// MCPFLEET_STATE_KEY; the Redis key is bound in as additional data, so a
// record copied to another user's key does not open.
type RedisStore struct {
	rdb  *redis.Client
	aead cipher.AEAD
	TTL  time.Duration
	// opened remembers, per Redis key, the last sealed value this process
	// opened and its record: every broker call reads the login from Redis
	// (so a logout or new login on another replica counts at once), but the
	// same bytes are not decrypted and decoded again. Any new login is new
	// bytes (a fresh nonce), so a stale record is never served.
	opened cache.Bounded[string, openedRecord]
}

type openedRecord struct {
	sealed string
	rec    Record
}

// ParseStateKey reads MCPFLEET_STATE_KEY: 32 bytes, standard or URL base64.
func ParseStateKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("%s is empty", EnvStateKey)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(s); err == nil {
			if len(k) != 32 {
				return nil, fmt.Errorf("%s must be 32 random bytes in base64 (openssl rand -base64 32), not %d bytes", EnvStateKey, len(k))
			}
			return k, nil
		}
	}
	return nil, fmt.Errorf("%s is not base64; make one with: openssl rand -base64 32", EnvStateKey)
}

// NewRedisStore seals records with key (32 bytes, from ParseStateKey).
func NewRedisStore(rdb *redis.Client, key []byte) (*RedisStore, error) {
	if rdb == nil {
		return nil, errors.New("session store: no Redis client")
	}
	aead, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	return &RedisStore{rdb: rdb, aead: aead, TTL: sessionTTL}, nil
}

// newAEAD is AES-256-GCM (crypto/aes, crypto/cipher) under key.
func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvStateKey, err)
	}
	return cipher.NewGCM(block)
}

// seal encrypts r under a fresh random nonce with where (the record's key)
// bound in as additional data: nonce || ciphertext.
func seal(aead cipher.AEAD, where string, r Record) ([]byte, error) {
	plain, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(nonce, nonce, plain, []byte(where)), nil
}

// openSealed reverses seal; any failure (another key, tampering, another
// record's place) is errUnreadable.
func openSealed(aead cipher.AEAD, where string, sealed []byte) (*Record, error) {
	n := aead.NonceSize()
	if len(sealed) < n+aead.Overhead() {
		return nil, errUnreadable
	}
	plain, err := aead.Open(nil, sealed[:n], sealed[n:], []byte(where))
	if err != nil {
		// Another key (rotated MCPFLEET_STATE_KEY) or a tampered value: the user logs in again.
		return nil, errUnreadable
	}
	var r Record
	if err := json.Unmarshal(plain, &r); err != nil {
		return nil, errUnreadable
	}
	return &r, nil
}

// redisKey hashes the user id so bearer user names are not readable in Redis.
func redisKey(user string) string {
	h := sha256.Sum256([]byte(user))
	return "mcpfleet:shoonya:session:" + hex.EncodeToString(h[:])
}

func (s *RedisStore) Save(ctx context.Context, user string, r Record) error {
	key := redisKey(user)
	sealed, err := seal(s.aead, key, r)
	if err != nil {
		return err
	}
	return s.rdb.Set(ctx, key, sealed, s.TTL).Err()
}

func (s *RedisStore) Load(ctx context.Context, user string) (*Record, error) {
	key := redisKey(user)
	sealed, err := s.rdb.Get(ctx, key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if o, ok := s.opened.Get(key); ok && o.sealed == string(sealed) {
		r := o.rec
		return &r, nil
	}
	r, err := s.open(key, sealed)
	if err != nil {
		return nil, err
	}
	s.opened.Put(key, openedRecord{sealed: string(sealed), rec: *r})
	return r, nil
}

// open decrypts and decodes one stored value of key.
func (s *RedisStore) open(key string, sealed []byte) (*Record, error) {
	return openSealed(s.aead, key, sealed)
}

func (s *RedisStore) Delete(ctx context.Context, user string) error {
	return s.rdb.Del(ctx, redisKey(user)).Err()
}

// errUnreadable is a stored login this replica cannot open (key differs).
var errUnreadable = errors.New("stored Shoonya session cannot be decrypted with this MCPFLEET_STATE_KEY")
