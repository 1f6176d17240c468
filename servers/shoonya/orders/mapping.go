// Package orders makes order placement safe by construction: human values
// mapped to Noren codes, pre-trade limits, idempotency keys carried in
// remarks, one order per key even under re-sends and lost answers.
package orders

import (
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Human values (the tool schemas' enums) and their Noren codes (ShoonyaApi-py README; NorenApi.py classes).
var (
	OrderTypes = map[string]string{"LIMIT": "LMT", "MARKET": "MKT", "SL": "SL-LMT", "SL-M": "SL-MKT"}
	Sides      = map[string]string{"BUY": "B", "SELL": "S"}
	Products   = map[string]string{"CNC": "C", "INTRADAY": "I", "MIS": "I", "NORMAL": "M", "NRML": "M", "COVER": "H", "BRACKET": "B", "MTF": "F"}
	Validities = map[string]string{"DAY": "DAY", "IOC": "IOC", "EOS": "EOS"}
)

// Enum strings for schema tags (mcp:"enum=...").
const (
	OrderTypeEnum = "LIMIT|MARKET|SL|SL-M"
	SideEnum      = "BUY|SELL"
	ProductEnum   = "CNC|INTRADAY|MIS|NORMAL|NRML|COVER|BRACKET|MTF"
	ValidityEnum  = "DAY|IOC|EOS"
	ExchangeEnum  = "NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"
)

// reverse maps for readable results.
var (
	orderTypeNames = map[string]string{"LMT": "LIMIT", "MKT": "MARKET", "SL-LMT": "SL", "SL-MKT": "SL-M"}
	sideNames      = map[string]string{"B": "BUY", "S": "SELL"}
	productNames   = map[string]string{"C": "CNC", "I": "INTRADAY", "M": "NORMAL", "H": "COVER", "B": "BRACKET", "F": "MTF"}
)

// Code maps a human value through m, naming field and the valid values on failure.
func Code(field string, m map[string]string, human string) (string, error) {
	if c, ok := m[strings.ToUpper(strings.TrimSpace(human))]; ok {
		return c, nil
	}
	var valid []string
	for k := range m {
		valid = append(valid, k)
	}
	return "", envelope.Invalid(field, "%s must be one of %s, not %q", field, strings.Join(sortStrings(valid), ", "), human)
}

func name(m map[string]string, code string) string {
	if n, ok := m[strings.ToUpper(code)]; ok {
		return n
	}
	return code
}

// OrderTypeName, SideName and ProductName turn Noren codes back into the
// human values (unknown codes pass through).
func OrderTypeName(code string) string { return name(orderTypeNames, code) }
func SideName(code string) string      { return name(sideNames, code) }
func ProductName(code string) string   { return name(productNames, code) }

// Status normalises Noren's order status ("Open", "REJECT", "COMPLETE"...).
func Status(s string) string {
	u := strings.ToUpper(strings.TrimSpace(s))
	switch u {
	case "REJECT":
		return "REJECTED"
	case "CANCELLED":
		return "CANCELED"
	}
	return u
}

// IsStop reports whether a Noren price type needs a trigger price.
func IsStop(prctyp string) bool { return prctyp == "SL-LMT" || prctyp == "SL-MKT" }

// NeedsPrice reports whether a Noren price type needs a limit price.
func NeedsPrice(prctyp string) bool { return prctyp == "LMT" || prctyp == "SL-LMT" }

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}
