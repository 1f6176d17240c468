package rules

import (
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// Context is what a rule is evaluated against: the natal chart and, when a
// target date was given, the decade and year running then.
type Context struct {
	Chart  *astro.Chart
	Decade *astro.Period // nil without a target date
	Yearly *astro.Period
}

// Check is one leaf condition's outcome, for explanations.
type Check struct {
	Condition string `json:"condition" jsonschema:"names in the call's language"`
	Matched   bool   `json:"matched"`
	Detail    string `json:"detail,omitempty" jsonschema:"where the stars were, or why not checkable"`
}

// Match evaluates the rule (no explanation; allocation-free).
func (r *Rule) Match(ctx *Context) bool { return eval(r.root, ctx, nil) }

// Explain evaluates the rule and lists every leaf condition it looked at, with
// names in language l.
func (r *Rule) Explain(ctx *Context, l astro.Lang) (bool, []Check) {
	var checks []Check
	e := &explainer{lang: l, out: &checks}
	ok := eval(r.root, ctx, e)
	return ok, checks
}

type explainer struct {
	lang astro.Lang
	out  *[]Check
}

func eval(n *node, ctx *Context, ex *explainer) bool {
	switch n.op {
	case opAll:
		ok := true
		for _, k := range n.kids {
			if !eval(k, ctx, ex) {
				ok = false
				if ex == nil {
					return false
				}
			}
		}
		return ok
	case opAny:
		ok := false
		for _, k := range n.kids {
			if eval(k, ctx, ex) {
				ok = true
				if ex == nil {
					return true
				}
			}
		}
		return ok
	case opNot:
		if ex != nil {
			// Explain the inner condition, then mark it negated.
			start := len(*ex.out)
			v := !eval(n.kids[0], ctx, ex)
			for i := start; i < len(*ex.out); i++ {
				(*ex.out)[i].Condition = "NOT " + (*ex.out)[i].Condition
				(*ex.out)[i].Matched = !(*ex.out)[i].Matched
			}
			return v
		}
		return !eval(n.kids[0], ctx, nil)
	}
	return leaf(n, ctx, ex)
}

// resolve returns the board position of a palace reference, or -1 when the
// context lacks the level it needs.
func (ref *palaceRef) resolve(ctx *Context) int {
	c := ctx.Chart
	switch ref.kind {
	case refRole:
		switch ref.level {
		case Decade:
			if ctx.Decade == nil {
				return -1
			}
			return ctx.Decade.PalaceOfRole(ref.role)
		case Annual:
			if ctx.Yearly == nil {
				return -1
			}
			return ctx.Yearly.PalaceOfRole(ref.role)
		}
		return c.PalaceOfRole(ref.role)
	case refBody:
		return c.BodyIndex()
	case refOrigin:
		return c.OriginalPalace()
	case refBranch:
		return ref.branch.BoardIndex()
	case refStar:
		return c.StarPalace(ref.star)
	}
	return -1
}

// scopeMask returns the board positions in scope around p as a bit set.
func scopeMask(s scope, p int) uint16 {
	bit := func(i int) uint16 { return 1 << uint((i%12+12)%12) }
	switch s {
	case scopePalace:
		return bit(p)
	case scopeSanfang:
		return bit(p) | bit(p+4) | bit(p-4) | bit(p+6)
	case scopeSanhe:
		return bit(p) | bit(p+4) | bit(p-4)
	case scopeOpposite:
		return bit(p + 6)
	case scopeFlank:
		return bit(p-1) | bit(p+1)
	}
	return 0xfff
}

func stemOf(l Level, ctx *Context) (astro.Stem, bool) {
	switch l {
	case Decade:
		if ctx.Decade == nil {
			return 0, false
		}
		return ctx.Decade.Stem, true
	case Annual:
		if ctx.Yearly == nil {
			return 0, false
		}
		return ctx.Yearly.Stem, true
	}
	return ctx.Chart.Pillars()[0].Stem, true
}

const needTarget = "needs a target date (decade/annual level): pass targetDate"

func leaf(n *node, ctx *Context, ex *explainer) bool {
	c := ctx.Chart
	if n.op == opSame {
		first, ok := -1, true
		var where []string
		for i := range n.refs {
			pos := n.refs[i].resolve(ctx)
			if pos < 0 {
				if ex != nil {
					ex.add(n, false, needTarget)
				}
				return false
			}
			if first < 0 {
				first = pos
			} else if pos != first {
				ok = false
			}
			if ex != nil {
				where = append(where, n.refs[i].text+"="+ex.palace(c, pos))
			}
		}
		if ex != nil {
			ex.add(n, ok, strings.Join(where, ", "))
		}
		return ok
	}
	mask := uint16(0xfff)
	p := -1
	if n.scope != scopeAnywhere || n.op == opBranch {
		p = n.ref.resolve(ctx)
		if p < 0 {
			if ex != nil {
				ex.add(n, false, needTarget)
			}
			return false
		}
		mask = scopeMask(n.scope, p)
	}
	var found []string // explanation only
	switch n.op {
	case opBranch:
		ok := n.branches&(1<<astro.BranchOfBoard(p)) != 0
		if ex != nil {
			ex.add(n, ok, n.ref.text+" = "+ex.palace(c, p))
		}
		return ok
	case opStars:
		stem, ok := stemOf(n.level, ctx)
		if !ok && n.mutagen != astro.MutagenNone {
			if ex != nil {
				ex.add(n, false, needTarget)
			}
			return false
		}
		count, left, right := 0, false, false
		for _, s := range n.stars {
			pos := c.StarPalace(s)
			if mask&(1<<pos) == 0 {
				continue
			}
			if n.bright != 0 && n.bright&(1<<c.StarBrightness(s)) == 0 {
				continue
			}
			if n.mutagen != astro.MutagenNone && astro.MutagenOf(stem, s) != n.mutagen {
				continue
			}
			count++
			if n.scope == scopeFlank {
				if pos == (p+11)%12 {
					left = true
				} else {
					right = true
				}
			}
			if ex != nil {
				found = append(found, s.Name(ex.lang)+"@"+ex.palace(c, pos))
			}
		}
		ok = count >= n.min && (n.scope != scopeFlank || (left && right))
		if ex != nil {
			ex.add(n, ok, strings.Join(found, ", "))
		}
		return ok
	case opMutagens:
		stem, ok := stemOf(n.level, ctx)
		if !ok {
			if ex != nil {
				ex.add(n, false, needTarget)
			}
			return false
		}
		list := astro.Mutagens(stem)
		count, left, right := 0, false, false
		for _, m := range n.muts {
			s := list[m-1]
			pos := c.StarPalace(s)
			if mask&(1<<pos) == 0 {
				continue
			}
			count++
			if n.scope == scopeFlank {
				if pos == (p+11)%12 {
					left = true
				} else {
					right = true
				}
			}
			if ex != nil {
				found = append(found, s.Name(ex.lang)+m.Name(ex.lang)+"@"+ex.palace(c, pos))
			}
		}
		ok = count >= n.min && (n.scope != scopeFlank || (left && right))
		if ex != nil {
			ex.add(n, ok, strings.Join(found, ", "))
		}
		return ok
	case opCount:
		count := 0
		for i := 0; i < 12; i++ {
			if mask&(1<<i) == 0 {
				continue
			}
			for _, s := range c.Stars(i) {
				if n.count[s/64]&(1<<(s%64)) != 0 {
					count++
					if ex != nil {
						found = append(found, s.Name(ex.lang)+"@"+ex.palace(c, i))
					}
				}
			}
		}
		ok := count >= n.min && count <= n.max
		if ex != nil {
			d := "count " + strconv.Itoa(count)
			if len(found) > 0 {
				d += ": " + strings.Join(found, ", ")
			}
			ex.add(n, ok, d)
		}
		return ok
	}
	return false
}

func (ex *explainer) palace(c *astro.Chart, i int) string {
	return c.PalaceRole(i).Name(ex.lang) + "(" + astro.BranchOfBoard(i).Name(ex.lang) + ")"
}

func (ex *explainer) add(n *node, ok bool, detail string) {
	*ex.out = append(*ex.out, Check{Condition: describe(n, ex.lang), Matched: ok, Detail: detail})
}

// describe renders a leaf condition compactly in the language's names.
func describe(n *node, l astro.Lang) string {
	var b strings.Builder
	switch n.op {
	case opSame:
		var ts []string
		for _, r := range n.refs {
			ts = append(ts, r.text)
		}
		return "same palace: " + strings.Join(ts, " = ")
	case opBranch:
		b.WriteString(n.ref.text + " on ")
		var bs []string
		for i := 0; i < 12; i++ {
			if n.branches&(1<<i) != 0 {
				bs = append(bs, astro.Branch(i).Name(l))
			}
		}
		b.WriteString(strings.Join(bs, "/"))
		return b.String()
	case opStars:
		names := make([]string, len(n.stars))
		for i, s := range n.stars {
			names[i] = s.Name(l)
		}
		b.WriteString(strings.Join(names, "+"))
		if n.bright != 0 {
			var bs []string
			for x := astro.BrightMiao; x <= astro.BrightXian; x++ {
				if n.bright&(1<<x) != 0 {
					bs = append(bs, x.Name(l))
				}
			}
			b.WriteString(" [" + strings.Join(bs, "/") + "]")
		}
		if n.mutagen != astro.MutagenNone {
			b.WriteString(" with " + levelName(n.level) + " " + n.mutagen.Name(l))
		}
	case opMutagens:
		var ms []string
		for _, m := range n.muts {
			ms = append(ms, m.Name(l))
		}
		b.WriteString(levelName(n.level) + " " + strings.Join(ms, "+"))
	case opCount:
		b.WriteString("count(" + strings.Join(n.countTxt, ",") + ")")
		if n.max < 1<<30 {
			b.WriteString(" " + strconv.Itoa(n.min) + ".." + strconv.Itoa(n.max))
		} else {
			b.WriteString(" ≥" + strconv.Itoa(n.min))
		}
	}
	if n.scope != scopeAnywhere {
		b.WriteString(" in " + scopeNames[n.scope] + " of " + n.ref.text)
	}
	total := len(n.stars) + len(n.muts)
	if n.op != opCount && n.min < total {
		b.WriteString(" (at least " + strconv.Itoa(n.min) + ")")
	}
	return b.String()
}

func levelName(l Level) string {
	return [...]string{"natal", "decade", "annual"}[l]
}

// Stars returns every star the rule names (for filtering by star).
func (r *Rule) Stars() []astro.StarID {
	var out []astro.StarID
	var walk func(n *node)
	walk = func(n *node) {
		out = append(out, n.stars...)
		for _, r := range append([]palaceRef{n.ref}, n.refs...) {
			if r.kind == refStar {
				out = append(out, r.star)
			}
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(r.root)
	return out
}
