package upstream

import (
	"net/url"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Segment is one piece of an upstream URL path: a fixed part written by the
// server (Lit) or a value from a tool argument (Arg).
type Segment struct {
	arg   string // the argument's name; "" for a literal
	value string
}

// Lit is a fixed part of a path, written as is ("/api/v1/operations"); never
// put an argument in one.
func Lit(s string) Segment { return Segment{value: s} }

// Arg is one path segment taken from the tool argument named arg; Path escapes
// it and refuses values that would change which resource the path names.
func Arg(arg, value string) Segment { return Segment{arg: arg, value: value} }

// Path is the one place where paths are built from arguments. Literals are
// joined as written; every Arg becomes exactly one escaped segment
// (url.PathEscape, so "/" is %2F). An Arg that is empty, "." or "..", or that
// has "." or ".." between slashes or backslashes (an upstream that decodes
// %2F before routing would see ../), is refused with an invalid_argument
// error naming the argument: `DELETE /operations/..` must never be sent.
func Path(segs ...Segment) (string, error) {
	var b strings.Builder
	for _, s := range segs {
		if s.arg == "" {
			b.WriteString(s.value)
			continue
		}
		if err := checkSegment(s.arg, s.value); err != nil {
			return "", err
		}
		if b.Len() == 0 || !strings.HasSuffix(b.String(), "/") {
			b.WriteByte('/')
		}
		b.WriteString(url.PathEscape(s.value))
	}
	return b.String(), nil
}

func checkSegment(arg, v string) error {
	if v == "" {
		return envelope.Invalid(arg, "%s is empty; it names a resource in the upstream URL, pass its id", arg)
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == "." || part == ".." {
			return envelope.Invalid(arg, "%s %q is not a valid id: \".\" and \"..\" (alone or between slashes) would name another upstream path", arg, extract.Clip(v, 40))
		}
	}
	if strings.Trim(v, "/\\") == "" {
		return envelope.Invalid(arg, "%s %q is not a valid id: it has no characters besides slashes", arg, extract.Clip(v, 40))
	}
	return nil
}
