package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestIsSecretName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"SHOONYA_PASSWORD", true}, {"SHOONYA_TOTP_SECRET", true}, {"SHOONYA_API_SECRET", true},
		{"SHOONYA_CLIENT_SECRET", true}, {"CHART_IMG_API_KEY", true}, {"KTRDR_API_KEY", true},
		{"KTRDR_PASSWORD", true}, {"MCPFLEET_AUTH_TOKENS", true}, {"GITHUB_TOKEN", true},
		{"X_APIKEY", true}, {"AWS_ACCESS_KEY", true}, {"PASSWORD", true}, {"db_passwd", true},
		{"SHOONYA_AUTH", false}, {"SHOONYA_AUTHORIZE_URL", false}, {"SHOONYA_USER_ID", false},
		{"SHOONYA_VENDOR_CODE", false}, {"SHOONYA_IMEI", false}, {"SHOONYA_CLIENT_ID", false},
		{"SHOONYA_OAUTH_REDIRECT_URL", false}, {"CHART_IMG_PLAN", false}, {"KTRDR_API_URL", false},
		{"MCPFLEET_REDIS_URL", false}, {"SECRETARY_NAME", false}, {"TOKEN_URL", false}, {"PASSWORDLESS", false},
		{"REDIS_PASS", true}, {"BYPASS", false}, {"PWD", false}, {"OLDPWD", false}, {"SHOONYA_AUTH_MODE", false},
	} {
		if got := IsSecretName(tc.name); got != tc.want {
			t.Errorf("IsSecretName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRegisterEnvByVariable: values are scrubbed because of the variable that
// holds them, never because of a word; "legacy" (SHOONYA_AUTH) survives.
func TestRegisterEnvByVariable(t *testing.T) {
	t.Setenv("SHOONYA_AUTH", "legacy")
	t.Setenv("SHOONYA_AUTHORIZE_URL", "https://auth.example/authorize")
	t.Setenv("SHOONYA_PASSWORD", "canary-pw-3141")
	t.Setenv("MCPFLEET_AUTH_TOKENS", "alice=canary-tok-aaaa,bob=canary-tok-bbbb")
	t.Setenv("MCPFLEET_REDIS_URL", "redis://:canary-redis-pw@127.0.0.1:6379/0")
	t.Setenv("KTRDR_API_URL", "http://researcher:canary-url-pw@127.0.0.1:8000/api/v1")
	t.Setenv("ODD_NAME_HOLDING_A_KEY", "canary-declared-77")
	SecretEnv("ODD_NAME_HOLDING_A_KEY")
	RegisterEnv()
	line := `{"level":"info","auth":"legacy","era":"legacy","authorize":"https://auth.example/authorize","redis":"127.0.0.1:6379",` +
		`"msg":"pw canary-pw-3141 tokens canary-tok-aaaa canary-tok-bbbb redis canary-redis-pw url researcher:canary-url-pw odd canary-declared-77"}`
	out := string(Scrub([]byte(line)))
	for _, secret := range []string{"canary-pw-3141", "canary-tok-aaaa", "canary-tok-bbbb", "alice=canary", "canary-redis-pw", "canary-url-pw", "canary-declared-77"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q kept in %s", secret, out)
		}
	}
	for _, keep := range []string{`"auth":"legacy"`, `"era":"legacy"`, "https://auth.example/authorize", "researcher", "127.0.0.1:6379"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%q scrubbed from %s", keep, out)
		}
	}
	if !IsSecretName("ODD_NAME_HOLDING_A_KEY") {
		t.Errorf("a declared variable is not secret")
	}
}

func TestScrubFields(t *testing.T) {
	for _, tc := range []struct {
		field  string
		secret bool
	}{
		{"password", true}, {"pwd", true}, {"client_secret", true}, {"totp_secret", true}, {"access_token", true},
		{"refreshToken", true}, {"token", true}, {"auth_tokens", true}, {"X-Api-Key", true}, {"apikey", true},
		{"appkey", true}, {"Authorization", true}, {"Set-Cookie", true}, {"jKey", true}, {"susertoken", true}, {"factor2", true},
		{"auth", false}, {"era", false}, {"token_url", false}, {"secret_set", false}, {"totp_configured", false},
		{"api_key_set", false}, {"user", false}, {"cwd", false}, {"authorize_url", false}, {"session", false},
	} {
		line := fmt.Sprintf(`{"%s":"v-1234567","n":1}`, tc.field)
		out := string(Scrub([]byte(line)))
		if got := !strings.Contains(out, "v-1234567"); got != tc.secret {
			t.Errorf("field %q: scrubbed %v, want %v (%s)", tc.field, got, tc.secret, out)
		}
	}
}

func TestSecretNeverPrints(t *testing.T) {
	s := Secret("canary-secret-type")
	var buf bytes.Buffer
	zl := zerolog.New(&buf)
	zl.Info().Object("s", s).Str("f", fmt.Sprintf("%v %s %#v", s, s, s)).Send()
	if strings.Contains(buf.String(), "canary") || !s.IsSet() || s.Reveal() != "canary-secret-type" {
		t.Errorf("Secret leaked or lost: %s", buf.String())
	}
}

func TestWriterScrubs(t *testing.T) {
	Register("canary-writer-value")
	var buf bytes.Buffer
	log := zerolog.New(Writer{W: &buf})
	log.Info().Str("password", "hunter2-long").Str("note", "has canary-writer-value inside").Str("auth", "legacy").Send()
	out := buf.String()
	if strings.Contains(out, "hunter2-long") || strings.Contains(out, "canary-writer-value") || !strings.Contains(out, `"auth":"legacy"`) {
		t.Errorf("writer output %s", out)
	}
}

// FuzzScrub: a registered secret never survives a line, whatever surrounds it,
// and a field rule match never breaks the JSON around it.
func FuzzScrub(f *testing.F) {
	const secret = "fuzz-canary-5f2e"
	Register(secret)
	for _, s := range []string{`{"msg":"x"}`, `{"password":"a\"b","x":1}`, `{"client_secret":"`, `"token":"\\"`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line := []byte(s + secret + s)
		out := Scrub(line)
		if bytes.Contains(out, []byte(secret)) {
			t.Fatalf("secret kept: %q", out)
		}
		if json.Valid([]byte(s)) && !json.Valid(Scrub([]byte(s))) {
			t.Fatalf("scrubbing broke valid JSON: %q -> %q", s, Scrub([]byte(s)))
		}
	})
}
