package client

import (
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Identifier shapes (ref: polymarket.md §1.1): Gamma ids are numeric strings,
// conditionIds 0x + 64 hex, CLOB token ids long decimal strings (~77 digits),
// wallets 0x + 40 hex; slugs are lowercase words joined by hyphens.
//
// The shapes are checked by hand, not by regexp: compiling the five patterns
// (their counted repeats expand to hundreds of states) was ~0.7 ms of every
// start (issue 20: cold start); FuzzShapesMatchPatterns holds them equal.
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
)

// ClassifyMarketID tells a numeric Gamma id, a conditionId and a slug apart, or
// refuses anything else before a request is made.
func ClassifyMarketID(field, s string) (IDKind, error) {
	s = strings.TrimSpace(s)
	switch {
	case isNumericID(s):
		return KindID, nil
	case isConditionID(s):
		return KindCondition, nil
	case isSlug(s):
		return KindSlug, nil
	}
	return 0, envelope.Invalid(field, "%s must be a numeric Gamma id (\"1066851\"), a conditionId (0x + 64 hex) or a slug (lowercase words and hyphens, as in polymarket.com/event/<slug>); got %q", field, clip(s))
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
	return 0, envelope.Invalid(field, "%s must be a numeric event id or an event slug (lowercase words and hyphens); got %q", field, clip(s))
}

// CheckAddress refuses anything but a 0x + 40 hex wallet address.
func CheckAddress(field, s string) error {
	if !isAddress(s) {
		return envelope.Invalid(field, "%s must be a wallet address: 0x followed by 40 hex digits (the proxy wallet shown on the user's Polymarket profile); got %q", field, clip(s))
	}
	return nil
}

// CheckConditionID refuses anything but 0x + 64 hex.
func CheckConditionID(field, s string) error {
	if !isConditionID(s) {
		return envelope.Invalid(field, "%s must be a market's conditionId: 0x followed by 64 hex digits (get_market returns it); got %q", field, clip(s))
	}
	return nil
}

// CheckTokenID refuses anything but a decimal CLOB token id.
func CheckTokenID(field, s string) error {
	if !isTokenID(s) {
		return envelope.Invalid(field, "%s must be a CLOB token id: the decimal string in a market's outcomes[].token_id (get_market); got %q", field, clip(s))
	}
	return nil
}

func clip(s string) string {
	if len(s) > 90 {
		return s[:90] + "…"
	}
	return s
}
