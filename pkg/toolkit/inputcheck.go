package toolkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// inputCheck validates a call's arguments against the tool's published input
// schema, once per call, and turns failures into one plain sentence per field.
// It replaces mcp-go's WithInputSchemaValidation, whose messages are Go struct
// dumps (`/limit: &{Got:1000/1 Want:500/1}`) the model cannot act on.
type inputCheck struct {
	raw   json.RawMessage
	once  sync.Once
	sch   *jsonschema.Schema
	err   error
	props []string // top-level property names, for "did you mean"
}

func (c *inputCheck) compile() {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.raw))
	if err != nil {
		c.err = err
		return
	}
	if m, ok := doc.(map[string]any); ok {
		if p, ok := m["properties"].(map[string]any); ok {
			for k := range p {
				c.props = append(c.props, k)
			}
			sort.Strings(c.props)
		}
	}
	// An absolute name: a relative one is resolved against the working
	// directory, and a process whose directory was removed would refuse
	// every call.
	const name = "urn:mcpfleet:input.json"
	comp := jsonschema.NewCompiler()
	if err := comp.AddResource(name, doc); err != nil {
		c.err = err
		return
	}
	c.sch, c.err = comp.Compile(name)
}

// FieldError is one failed argument: the field's dotted path ("" for the whole
// arguments object) and a sentence that starts with that path.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// check validates the raw arguments (nil or empty means {}). It returns nil
// when they conform, else an invalid_argument error with details.fields.
func (c *inputCheck) check(b []byte) *envelope.Error {
	c.once.Do(c.compile)
	if c.err != nil {
		// A schema we publish but cannot compile is our bug, not the caller's.
		return envelope.New(envelope.Internal, "the tool's input schema does not compile; the server log has details").WithCause(c.err)
	}
	if len(bytes.TrimSpace(b)) == 0 || string(b) == "null" {
		b = []byte("{}")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return envelope.Invalid("", "arguments are not valid JSON: %v", err)
	}
	verr := c.sch.Validate(inst)
	if verr == nil {
		return nil
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return envelope.Invalid("", "arguments do not match the input schema: %v", verr)
	}
	fields := describe(ve, c.props)
	msgs := make([]string, len(fields))
	for i, f := range fields {
		msgs[i] = f.Message
	}
	e := envelope.New(envelope.InvalidArgument, "%s", strings.Join(msgs, "; "))
	return e.WithDetail("fields", fields)
}

// describe flattens a validation error tree into one FieldError per leaf,
// deduplicated, in a stable order.
func describe(ve *jsonschema.ValidationError, props []string) []FieldError {
	var out []FieldError
	seen := map[string]bool{}
	var walk func(v *jsonschema.ValidationError)
	walk = func(v *jsonschema.ValidationError) {
		if len(v.Causes) > 0 {
			// anyOf/oneOf: every branch failed; the leaves say why. Keep at most
			// the first branch's reasons so the message stays short.
			switch v.ErrorKind.(type) {
			case *kind.AnyOf, *kind.OneOf:
				walk(v.Causes[0])
				return
			}
			for _, c := range v.Causes {
				walk(c)
			}
			return
		}
		for _, f := range leaf(v, props) {
			if !seen[f.Message] {
				seen[f.Message] = true
				out = append(out, f)
			}
		}
	}
	walk(ve)
	out = pairUnknownWithMissing(out, props)
	if len(out) == 0 {
		out = append(out, FieldError{Message: "arguments do not match the input schema"})
	}
	return out
}

// pairUnknownWithMissing: one unknown top-level argument and one missing
// required one are almost always the same thing under another name ("query"
// for "search_text"): say so in one sentence instead of two puzzles.
func pairUnknownWithMissing(out []FieldError, props []string) []FieldError {
	unknown, missing := -1, -1
	for i, f := range out {
		switch {
		case strings.HasPrefix(f.Message, "unknown argument ") && !strings.Contains(f.Message, "did you mean"):
			if unknown >= 0 {
				return out
			}
			unknown = i
		case strings.HasSuffix(f.Message, " is required") && !strings.Contains(f.Field, "."):
			if missing >= 0 {
				return out
			}
			missing = i
		}
	}
	if unknown < 0 || missing < 0 {
		return out
	}
	out[unknown].Message = "unknown argument " + out[unknown].Field + " — did you mean " + out[missing].Field + "?"
	return out
}

// fieldPath renders an instance location as a dotted path with [i] for indexes.
func fieldPath(loc []string) string {
	var sb strings.Builder
	for _, s := range loc {
		if _, err := strconv.Atoi(s); err == nil {
			sb.WriteString("[" + s + "]")
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(s)
	}
	return sb.String()
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func leaf(v *jsonschema.ValidationError, props []string) []FieldError {
	path := fieldPath(v.InstanceLocation)
	subject := path
	if subject == "" {
		subject = "arguments"
	}
	one := func(format string, args ...any) []FieldError {
		return []FieldError{{Field: path, Message: subject + ": " + fmt.Sprintf(format, args...)}}
	}
	switch k := v.ErrorKind.(type) {
	case *kind.Required:
		var out []FieldError
		for _, m := range k.Missing {
			f := join(path, m)
			out = append(out, FieldError{Field: f, Message: f + " is required"})
		}
		return out
	case *kind.AdditionalProperties:
		var out []FieldError
		for _, p := range k.Properties {
			f := join(path, p)
			msg := "unknown argument " + f
			if path != "" {
				msg = "unknown field " + f
			}
			if len(v.InstanceLocation) == 0 {
				if s := closest(p, props); s != "" {
					msg += " — did you mean " + s + "?"
				} else if len(props) > 0 {
					msg += " — valid arguments: " + strings.Join(props, ", ")
				}
			}
			out = append(out, FieldError{Field: f, Message: msg})
		}
		return out
	case *kind.Type:
		return one("expected %s, got %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Enum:
		return one("%s is not one of %s", show(k.Got), list(k.Want))
	case *kind.Const:
		return one("must be %s", show(k.Want))
	case *kind.Minimum:
		return one("%s is below the minimum %s", rat(k.Got), rat(k.Want))
	case *kind.Maximum:
		return one("%s is above the maximum %s", rat(k.Got), rat(k.Want))
	case *kind.ExclusiveMinimum:
		return one("%s must be greater than %s", rat(k.Got), rat(k.Want))
	case *kind.ExclusiveMaximum:
		return one("%s must be less than %s", rat(k.Got), rat(k.Want))
	case *kind.MultipleOf:
		return one("%s is not a multiple of %s", rat(k.Got), rat(k.Want))
	case *kind.MinLength:
		return one("%d characters is shorter than the minimum %d", k.Got, k.Want)
	case *kind.MaxLength:
		return one("%d characters is longer than the maximum %d", k.Got, k.Want)
	case *kind.Pattern:
		return one("%s does not match the pattern %s", show(k.Got), k.Want)
	case *kind.Format:
		return one("%s is not a valid %s", show(k.Got), k.Want)
	case *kind.MinItems:
		return one("%d items is fewer than the minimum %d", k.Got, k.Want)
	case *kind.MaxItems:
		return one("%d items is more than the maximum %d", k.Got, k.Want)
	case *kind.UniqueItems:
		return one("items %d and %d are the same; list each value once", k.Duplicates[0], k.Duplicates[1])
	case *kind.MinProperties:
		return one("%d entries is fewer than the minimum %d", k.Got, k.Want)
	case *kind.MaxProperties:
		return one("%d entries is more than the maximum %d", k.Got, k.Want)
	case *kind.FalseSchema:
		return one("is not allowed here")
	}
	return one("%s", v.ErrorKind.LocalizedString(printer))
}

var printer = message.NewPrinter(language.English)

// show renders a JSON value briefly: strings quoted and cut at 60 characters.
func show(v any) string {
	switch x := v.(type) {
	case string:
		if utf8.RuneCountInString(x) > 60 {
			x = extract.Cut(x, 57)
		}
		return strconv.Quote(x)
	case json.Number:
		return x.String()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if utf8.RuneCount(b) > 60 {
		return extract.Cut(string(b), 57)
	}
	return string(b)
}

// list renders an enum's values, all of them when short, else the first few.
func list(vs []any) string {
	const most = 12
	parts := make([]string, 0, min(len(vs), most))
	for i, v := range vs {
		if i == most {
			return strings.Join(parts, ", ") + fmt.Sprintf(", … (%d values; see the schema)", len(vs))
		}
		parts = append(parts, show(v))
	}
	return strings.Join(parts, ", ")
}

// rat prints a schema number the way a person writes it (12, 0.5, 1e-06 → 0.000001).
func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// closest returns the property name nearest to name (case-insensitive edit
// distance at most a third of its length, or one containing the other), or "".
func closest(name string, props []string) string {
	best, bestD := "", 1<<30
	ln := strings.ToLower(name)
	for _, p := range props {
		lp := strings.ToLower(p)
		d := editDistance(ln, lp)
		if strings.Contains(lp, ln) || strings.Contains(ln, lp) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = p, d
		}
	}
	if best == "" || bestD > max(2, len([]rune(name))/3) {
		return ""
	}
	return best
}

// Closest is the "did you mean" rule for names (tools, arguments): the nearest of
// candidates by edit distance, or "" when none is near enough.
func Closest(name string, candidates []string) string { return closest(name, candidates) }

// ClosestN are the n candidates nearest to name by the same measure as
// Closest (case-insensitive edit distance, a candidate containing the name or
// contained in it counting as one edit), nearest first, ties in the
// candidates' order, with no cut-off: the names to offer when a name is
// refused.
func ClosestN(name string, candidates []string, n int) []string {
	ln := strings.ToLower(strings.TrimSpace(name))
	type scored struct {
		s string
		d int
	}
	all := make([]scored, 0, len(candidates))
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(ln, lc)
		if ln != "" && (strings.Contains(lc, ln) || strings.Contains(ln, lc)) {
			d = min(d, 1)
		}
		all = append(all, scored{c, d})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].d < all[j].d })
	out := make([]string, 0, n)
	for i := 0; i < len(all) && i < n; i++ {
		out = append(out, all[i].s)
	}
	return out
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			// Adjacent transposition ("palce" for "palace") counts once.
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prevprev(i, j, ra, rb)+1)
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// prevprev is only reached for transpositions; recomputing the distance of the
// shorter prefixes keeps editDistance to two rows for the common case.
func prevprev(i, j int, a, b []rune) int {
	return editDistancePlain(a[:i-2], b[:j-2])
}

func editDistancePlain(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
