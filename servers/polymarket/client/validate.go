package client

import (
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Identifier shapes (source: docs.polymarket.com/market-data/overview;
// rs-clob-client src/gamma/types/response.rs): Gamma ids are numeric strings,
// conditionIds 0x + 64 hex, CLOB token ids long decimal strings (~77 digits),
// wallets 0x + 40 hex; slugs are lowercase words joined by hyphens.
//
// The shapes are checked by hand, not by regexp: compiling the five patterns
// (their counted repeats expand to hundreds of states) was ~0.7 ms of every
// start; FuzzShapesMatchPatterns holds them equal.
func isNumericID(s string) bool   { return isDigits(s, 20) }
func isTokenID(s string) bool     { return isDigits(s, 80) }
func isConditionID(s string) bool { return isHex0x(s, 64) }
func isAddress(s string) bool     { return isHex0x(s, 40) }

// isDigits: 1 to max ASCII digits.
func isDigits(s string, max int) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isHex0x: "0x" then exactly n hex digits.
func isHex0x(s string, n int) bool {
	if len(s) != 2+n || s[0] != '0' || s[1] != 'x' {
		return false
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// isSlug: a lowercase letter or digit, then up to 199 of those or '-'.
func isSlug(s string) bool {
	if len(s) == 0 || len(s) > 200 || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Patterns for the tools' input schemas.
const (
	PatternAddress     = `^0x[0-9a-fA-F]{40}$`
	PatternConditionID = `^0x[0-9a-fA-F]{64}$`
	PatternTokenID     = `^[0-9]{1,80}$`
)

// IDKind is what an identifier names.
type IDKind int

// Identifier kinds.
const (
	KindID IDKind = iota
	KindSlug
	KindCondition
	KindToken
)

// ClassifyMarketID tells a numeric Gamma id, a conditionId and a slug apart, or
// refuses anything else before a request is made.
func ClassifyMarketID(field, s string) (IDKind, error) {
	s = strings.TrimSpace(s)
	switch {
	case isNumericID(s):
		return KindID, nil
	case isTokenID(s):
		return KindToken, nil // longer than any Gamma id: an outcome token
	case isConditionID(s):
		return KindCondition, nil
	case isSlug(s):
		return KindSlug, nil
	}
	return 0, envelope.Invalid(field, "%s must be a numeric Gamma id (\"1066851\"), a conditionId (0x + 64 hex), an outcome token id (decimal) or a slug (lowercase words and hyphens, as in polymarket.com/event/<slug>); got %q. search_markets finds markets by text", field, extract.Clip(s, 90))
}

// ClassifyEventID tells a numeric event id from a slug.
func ClassifyEventID(field, s string) (IDKind, error) {
	s = strings.TrimSpace(s)
	switch {
	case isNumericID(s):
		return KindID, nil
	case isSlug(s):
		return KindSlug, nil
	}
	return 0, envelope.Invalid(field, "%s must be a numeric event id or an event slug (lowercase words and hyphens); got %q", field, extract.Clip(s, 90))
}

// CheckAddress refuses anything but a 0x + 40 hex wallet address, saying what
// the value looks like instead and where a wallet comes from.
func CheckAddress(field, s string) error {
	if isAddress(s) {
		return nil
	}
	hint := "the proxy wallet shown on the user's Polymarket profile, or a holder's wallet from get_top_holders"
	if isConditionID(s) {
		hint = "that is a market's conditionId, not a wallet; get_top_holders(condition_id) lists the wallets holding it"
	}
	return envelope.Invalid(field, "%s must be a wallet address: 0x followed by 40 hex digits (%s); got %q", field, hint, extract.Clip(s, 90))
}

// CheckConditionID refuses anything but 0x + 64 hex, pointing a token id, a
// Gamma id or a slug to get_market, which returns the condition_id.
func CheckConditionID(field, s string) error {
	if isConditionID(s) {
		return nil
	}
	hint := "get_market returns it as condition_id"
	switch {
	case isTokenID(s) && !isNumericID(s):
		hint = "that is an outcome token id; get_market with identifier=" + extract.Clip(s, 90) + " returns the market's condition_id"
	case isNumericID(s) || isSlug(s):
		hint = "that looks like a Gamma id or slug; get_market with identifier=" + extract.Clip(s, 90) + " returns its condition_id"
	case isAddress(s):
		hint = "that is a wallet address; get_user_positions takes wallets"
	}
	return envelope.Invalid(field, "%s must be a market's conditionId: 0x followed by 64 hex digits (%s); got %q", field, hint, extract.Clip(s, 90))
}

// CheckTokenID refuses anything but a decimal CLOB token id, pointing a
// conditionId, Gamma id or slug to get_market's outcomes[].token_id.
func CheckTokenID(field, s string) error {
	if isTokenID(s) {
		return nil
	}
	hint := "get_market lists them as outcomes[].token_id"
	if isConditionID(s) || isSlug(s) {
		hint = "that is a market's conditionId or slug; get_market with identifier=" + extract.Clip(s, 90) + " lists its outcomes[].token_id"
	}
	return envelope.Invalid(field, "%s must be a CLOB outcome token id: a decimal string (%s); got %q", field, hint, extract.Clip(s, 90))
}

// CheckDate refuses a date Gamma would not read: RFC 3339 date-time
// ("2026-05-01T00:00:00Z") or full-date ("2026-05-01"); Gamma accepts both
// (a public historical-data cookbook, 2026-08-11). Refused before sending.
func CheckDate(field, s string) error {
	if _, err := time.Parse(time.RFC3339, s); err == nil {
		return nil
	}
	if _, err := time.Parse("2006-01-02", s); err == nil {
		return nil
	}
	return envelope.Invalid(field, "%s must be an RFC 3339 date-time such as 2026-05-01T00:00:00Z (or a date, 2026-05-01); got %q", field, extract.Clip(s, 90))
}
