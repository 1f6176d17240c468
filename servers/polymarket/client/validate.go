package client

import (
	"regexp"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Identifier shapes (ref: polymarket.md §1.1): Gamma ids are numeric strings,
// conditionIds 0x + 64 hex, CLOB token ids long decimal strings (~77 digits),
// wallets 0x + 40 hex; slugs are lowercase words joined by hyphens.
var (
	reNumericID   = regexp.MustCompile(`^[0-9]{1,20}$`)
	reConditionID = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
	reTokenID     = regexp.MustCompile(`^[0-9]{1,80}$`)
	reAddress     = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	reSlug        = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,199}$`)
)

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
	case reNumericID.MatchString(s):
		return KindID, nil
	case reConditionID.MatchString(s):
		return KindCondition, nil
	case reSlug.MatchString(s):
		return KindSlug, nil
	}
	return 0, envelope.Invalid(field, "%s must be a numeric Gamma id (\"1066851\"), a conditionId (0x + 64 hex) or a slug (lowercase words and hyphens, as in polymarket.com/event/<slug>); got %q", field, clip(s))
}

// ClassifyEventID tells a numeric event id from a slug.
func ClassifyEventID(field, s string) (IDKind, error) {
	s = strings.TrimSpace(s)
	switch {
	case reNumericID.MatchString(s):
		return KindID, nil
	case reSlug.MatchString(s):
		return KindSlug, nil
	}
	return 0, envelope.Invalid(field, "%s must be a numeric event id or an event slug (lowercase words and hyphens); got %q", field, clip(s))
}

// CheckAddress refuses anything but a 0x + 40 hex wallet address.
func CheckAddress(field, s string) error {
	if !reAddress.MatchString(s) {
		return envelope.Invalid(field, "%s must be a wallet address: 0x followed by 40 hex digits (the proxy wallet shown on the user's Polymarket profile); got %q", field, clip(s))
	}
	return nil
}

// CheckConditionID refuses anything but 0x + 64 hex.
func CheckConditionID(field, s string) error {
	if !reConditionID.MatchString(s) {
		return envelope.Invalid(field, "%s must be a market's conditionId: 0x followed by 64 hex digits (get_market returns it); got %q", field, clip(s))
	}
	return nil
}

// CheckTokenID refuses anything but a decimal CLOB token id.
func CheckTokenID(field, s string) error {
	if !reTokenID.MatchString(s) {
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
