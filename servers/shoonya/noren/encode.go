package noren

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strings"
)

// SHA256Hex is the hex SHA-256 Noren uses for pwd, appkey and the OAuth checksum.
func SHA256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// PasswordHash is QuickAuth's pwd: sha256_hex(password).
func PasswordHash(password string) string { return SHA256Hex(password) }

// AppKey is QuickAuth's appkey: sha256_hex(uid + "|" + api_secret).
func AppKey(uid, apiSecret string) string { return SHA256Hex(uid + "|" + apiSecret) }

// OAuthChecksum is GenAcsTok's checksum: sha256_hex(client_id + secret + code).
func OAuthChecksum(clientID, secret, code string) string { return SHA256Hex(clientID + secret + code) }

// Body renders a Noren request body: "jData=<raw JSON>" plus "&jKey=<token>"
// when a legacy token is given. The JSON is not URL-encoded (no official
// client does it); Go's encoder escapes '&' as \u0026, so a symbol like M&M
// cannot be mistaken for the start of &jKey.
func Body(jdata any, jkey string) (string, error) {
	b, err := json.Marshal(jdata)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.Grow(len(b) + len(jkey) + 12)
	sb.WriteString("jData=")
	sb.Write(b)
	if jkey != "" {
		sb.WriteString("&jKey=")
		sb.WriteString(jkey)
	}
	return sb.String(), nil
}

// QuoteSymbol URL-encodes a trading symbol the way the official clients do
// for order requests (quote_plus: "M&M-EQ" → "M%26M-EQ").
func QuoteSymbol(tsym string) string { return url.QueryEscape(tsym) }
