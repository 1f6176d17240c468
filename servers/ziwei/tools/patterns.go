package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/identity"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/chartid"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/patterns"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
)

// Hit is a catalogue pattern or a stored user rule found in a chart.
type Hit struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Meaning string `json:"meaning"`
}

// PatternHit and RuleHit keep their names for the rule tools.
type (
	PatternHit = Hit
	RuleHit    = Hit
)

func (cc *chartCtx) ruleCtx() *rules.Context { return &rules.Context{Chart: cc.chart} }

func (cc *chartCtx) patternsFound() []PatternHit {
	out := []PatternHit{}
	for _, p := range patterns.Found(cc.ruleCtx()) {
		out = append(out, PatternHit{ID: p.ID, Name: p.LocalName(cc.lang), Meaning: p.LocalMeaning(cc.lang)})
	}
	return out
}

// patternLines writes the patterns found as "name: meaning".
func (cc *chartCtx) patternLines() []string {
	out := []string{}
	for _, p := range cc.patternsFound() {
		out = append(out, p.Name+": "+p.Meaning)
	}
	return out
}

// storedHits evaluates the caller's stored rules; a store problem is reported
// as a note, never as a failure of the chart tool.
// The chart is asked for only when the caller has rules to match.
func (t *Tools) storedHits(ctx context.Context, chart func() (*chartCtx, error)) ([]RuleHit, string) {
	out := []RuleHit{}
	if t.store == nil || t.store.Path() == "" {
		return out, ""
	}
	list, err := t.store.List(identity.UserID(ctx))
	if err != nil {
		return out, "stored rules were not evaluated: " + err.Error()
	}
	if len(list.Rules) == 0 {
		return out, corruptNote(list.Corrupt)
	}
	cc, err := chart()
	if err != nil {
		return out, "stored rules were not evaluated: " + err.Error()
	}
	rc := cc.ruleCtx()
	for _, r := range list.Rules {
		if r.Compiled.Match(rc) {
			out = append(out, RuleHit{ID: r.ID, Name: r.Name, Meaning: r.Meaning})
		}
	}
	return out, corruptNote(list.Corrupt)
}

// corruptNote tells the user that some of their stored rules cannot be read
// (they are kept, never dropped silently) and how to clear them.
func corruptNote(c []rules.Corrupt) string {
	if len(c) == 0 {
		return ""
	}
	return fmt.Sprintf("%d of your stored rules cannot be read (first: %s: %s); query_star_combination_meaning lists them under corrupt, delete_star_combination_meaning removes them by id", len(c), c[0].ID, c[0].Reason)
}

// ---- initialize_chart

type InitOut struct {
	ChartID string `json:"chart_id"`
	Basics
	Patterns     []string `json:"patterns" jsonschema:"格局 name: meaning"`
	MatchedRules []Hit    `json:"matchedRules" jsonschema:"your stored rules"`
	Note         string   `json:"note,omitempty"`
}

func (t *Tools) initializeChart() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "initialize_chart", Title: "Initialize a chart", Toolset: "natal", Hints: toolkit.LocalRead,
		Description: "Start here: builds the natal chart; returns its chart_id (stateless, never expires; every chart tool takes it), the basics, 格局 found and your stored rules that match. settings: iztro's astro.config (school, 地盘/人盘). " +
			"Errors: invalid_argument naming the field. Related: resource ziwei://chart/{chart_id}."},
		func(ctx context.Context, in BirthIn) (InitOut, error) {
			spec, cfg, lang, err := in.resolve(t.settings)
			if err != nil {
				return InitOut{}, err
			}
			id, err := chartid.EncodeWith(spec, cfg)
			if err != nil {
				return InitOut{}, mapErr(err)
			}
			// A chart whose summary is memoised was built before from this
			// very id: it is built again only if stored rules need it.
			var cc *chartCtx
			chart := func() (*chartCtx, error) {
				if cc != nil {
					return cc, nil
				}
				c, err := buildAs(id, spec, cfg, lang)
				cc = c
				return c, err
			}
			natal, ok := t.natal.lookup(id, lang)
			if !ok {
				c, err := chart()
				if err != nil {
					return InitOut{}, err
				}
				natal = t.natal.get(c)
			}
			hits, note := t.storedHits(ctx, chart)
			return InitOut{ChartID: id, Basics: natal.basics, Patterns: natal.patterns, MatchedRules: hits, Note: note}, nil
		})
}

// ---- query_astrological_pattern

type PatternQueryIn struct {
	ChartIn
	Pattern        string `json:"pattern,omitempty" jsonschema:"name or id; omit: all"`
	IncludeMissing bool   `json:"includeMissing,omitempty"`
}

type PatternResult struct {
	ID         string        `json:"id"`
	Name       string        `json:"name"`
	Meaning    string        `json:"meaning"`
	Source     string        `json:"source"`
	Matched    bool          `json:"matched"`
	Conditions []rules.Check `json:"conditions"`
}

type PatternQueryOut struct {
	Patterns []PatternResult `json:"patterns"`
}

func explainPattern(p *patterns.Pattern, rc *rules.Context, l astro.Lang) PatternResult {
	ok, checks := p.Rule.Explain(rc, l)
	return PatternResult{ID: p.ID, Name: p.LocalName(l), Meaning: p.LocalMeaning(l), Source: p.Source, Matched: ok, Conditions: checks}
}

func queryPattern() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "query_astrological_pattern", Title: "Explain patterns (格局)", Toolset: "patterns", Hints: toolkit.LocalRead,
		Description: "Checks the 格局 catalogue (60+ rules) on a chart, explaining each condition (held? where were the stars?). One pattern, or all present (includeMissing: all). Related: query_star_combination_meaning."},
		func(ctx context.Context, in PatternQueryIn) (PatternQueryOut, error) {
			cc, err := in.load()
			if err != nil {
				return PatternQueryOut{}, err
			}
			rc := cc.ruleCtx()
			out := PatternQueryOut{Patterns: []PatternResult{}}
			if in.Pattern != "" {
				p, ok := patterns.Find(in.Pattern)
				if !ok {
					return out, envelope.Invalid("pattern", "unknown pattern %q: omit pattern with includeMissing true to list the catalogue", extract.Clip(in.Pattern, 32))
				}
				out.Patterns = append(out.Patterns, explainPattern(p, rc, cc.lang))
				return out, nil
			}
			for _, p := range patterns.All() {
				if in.IncludeMissing || p.Rule.Match(rc) {
					out.Patterns = append(out.Patterns, explainPattern(p, rc, cc.lang))
				}
			}
			return out, nil
		})
}

// ---- query_star_combination_meaning

type CombinationQueryIn struct {
	Birth
	Stars      []string `json:"stars,omitempty" jsonschema:"only rules naming all these stars" mcp:"maxItems=5"`
	Name       string   `json:"name,omitempty" jsonschema:"stored rule name"`
	TargetDate string   `json:"targetDate,omitempty" jsonschema:"YYYY-MM-DD for decade/annual conditions"`
	Catalogue  bool     `json:"includeCatalogue,omitempty"`
}

type CombinationResult struct {
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	Meaning    string         `json:"meaning"`
	Origin     string         `json:"origin" mcp:"enum=stored|catalogue"`
	Matched    *bool          `json:"matched,omitempty" jsonschema:"with a chart"`
	Conditions []rules.Check  `json:"conditions"`
	Rule       map[string]any `json:"rule"`
}

type CombinationQueryOut struct {
	ChartID string              `json:"chart_id,omitempty"`
	Results []CombinationResult `json:"results"`
	Corrupt []rules.Corrupt     `json:"corrupt,omitempty" jsonschema:"your unreadable entries; delete by id"`
	Note    string              `json:"note,omitempty"`
}

func namesAll(r *rules.Rule, want []astro.StarID) bool {
	have := r.Stars()
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (t *Tools) queryCombination() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "query_star_combination_meaning", Title: "Query star-combination meanings", Toolset: "patterns", Hints: toolkit.LocalRead,
		Description: "Your stored star-combination rules (optionally with the 格局 catalogue), filtered by stars or name; with chart_id each is evaluated and explained. Related: store_star_combination_meaning, query_astrological_pattern."},
		func(ctx context.Context, in CombinationQueryIn) (CombinationQueryOut, error) {
			out := CombinationQueryOut{Results: []CombinationResult{}}
			lang, err := parseLang(in.Language)
			if err != nil {
				return out, err
			}
			var want []astro.StarID
			for i, s := range in.Stars {
				id, ok := astro.StarByName(s)
				if !ok {
					return out, envelope.Invalid("stars", "unknown star %q at stars[%d]: use names from ziwei://stars", extract.Clip(s, 32), i)
				}
				want = append(want, id)
			}
			var rc *rules.Context
			if in.ChartID != "" {
				cc, err := in.load()
				if err != nil {
					return out, err
				}
				out.ChartID = cc.id
				rc = cc.ruleCtx()
				if in.TargetDate != "" {
					h, err := cc.target(TargetIn{TargetDate: in.TargetDate})
					if err != nil {
						return out, err
					}
					d, y := h.Decadal, h.Yearly
					rc.Decade, rc.Yearly = &d, &y
				}
			} else if in.TargetDate != "" {
				return out, envelope.Invalid("targetDate", "targetDate needs a chart: pass chart_id (from initialize_chart)")
			}
			add := func(id, name, meaning, origin string, r *rules.Rule, raw json.RawMessage) {
				res := CombinationResult{ID: id, Name: name, Meaning: meaning, Origin: origin, Conditions: []rules.Check{}}
				_ = json.Unmarshal(raw, &res.Rule)
				if rc != nil {
					ok, checks := r.Explain(rc, lang)
					res.Matched, res.Conditions = &ok, checks
				}
				out.Results = append(out.Results, res)
			}
			if t.store != nil && t.store.Path() != "" {
				list, err := t.store.List(identity.UserID(ctx))
				if err != nil {
					out.Note = "stored rules could not be read: " + err.Error()
				}
				if out.Corrupt = list.Corrupt; len(list.Corrupt) > 0 && err == nil {
					out.Note = corruptNote(list.Corrupt)
				}
				for _, r := range list.Rules {
					if (in.Name == "" || r.Name == in.Name) && namesAll(r.Compiled, want) {
						add(r.ID, r.Name, r.Meaning, "stored", r.Compiled, r.Rule)
					}
				}
			} else {
				out.Note = "no rules file configured; only the catalogue can be searched"
			}
			if in.Catalogue {
				for _, p := range patterns.All() {
					if (in.Name == "" || in.Name == p.Name || in.Name == p.NameTW || in.Name == p.NameEn) && namesAll(p.Rule, want) {
						add(p.ID, p.LocalName(lang), p.LocalMeaning(lang), "catalogue", p.Rule, p.RuleJSON)
					}
				}
			}
			if len(out.Results) == 0 {
				out.Note = joinNotes(out.Note, nothingMatched(in, want, lang))
			}
			return out, nil
		})
}

// ---- store_star_combination_meaning

type StoreIn struct {
	Name    string         `json:"name" jsonschema:"same name replaces" mcp:"minLength=1;maxLength=80"`
	Meaning string         `json:"meaning" mcp:"minLength=1;maxLength=2000"`
	Rule    map[string]any `json:"rule" jsonschema:"declarative JSON rule, e.g. {\"all\":[{\"stars\":[\"紫微\",\"天府\"],\"in\":\"命宫\"},{\"mutagens\":[\"禄\"],\"in\":\"命宫\",\"scope\":\"sanfang\"}]}. Shapes: {all|any:[rules]}, {not:rule}, {stars:[..],in,scope?,min?,brightness?|minBrightness?|maxBrightness?,mutagen?,level?}, {mutagens:[禄权科忌],level?,in,scope?,min?}, {count:[stars or groups major|soft|tough…],in,scope?,min?,max?}, {palace,branch:[..]}, {same:[palace,palace]}. in: role (命宫, 财帛), 身宫, branch, @STAR, 大限命宫/流年命宫. scope: palace|sanfang|sanhe|opposite|flank. level: natal|decade|annual. Limits: 8 KiB compact JSON, depth 6, 64 conditions"`
	ChartID string         `json:"chart_id,omitempty" jsonschema:"also test on this chart"`
}

type StoreOut struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Replaced   bool   `json:"replaced"`
	Count      int    `json:"count" jsonschema:"rules stored"`
	BytesUsed  int    `json:"bytesUsed" jsonschema:"of your quota"`
	BytesQuota int    `json:"bytesQuota"`
	Matches    *bool  `json:"matchesChart,omitempty"`
}

func (t *Tools) storeCombination() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "store_star_combination_meaning", Title: "Store a star-combination meaning", Toolset: "patterns", Hints: toolkit.LocalWrite,
		Description: "Saves a named declarative rule (JSON predicate over stars, palaces, brightness, 四化; never code) and its meaning; initialize_chart and query_star_combination_meaning evaluate it on each chart. Same name replaces. Errors: invalid_argument with the JSON path; permission_denied when your quota is full. Related: delete_star_combination_meaning."},
		func(ctx context.Context, in StoreIn) (StoreOut, error) {
			if t.store == nil || t.store.Path() == "" {
				return StoreOut{}, envelope.New(envelope.PermissionDenied, "no rules file configured: start the server with --rules-file or set ZIWEI_RULES_FILE")
			}
			raw, err := json.Marshal(in.Rule)
			if err != nil || in.Rule == nil {
				return StoreOut{}, envelope.Invalid("rule", "rule must be a JSON object, e.g. {\"stars\":[\"紫微\"],\"in\":\"命宫\"}")
			}
			compiled, err := rules.Parse(raw)
			if err != nil {
				return StoreOut{}, ruleErr(err)
			}
			var matches *bool
			if in.ChartID != "" {
				cc, err := Birth{ChartID: in.ChartID}.load()
				if err != nil {
					return StoreOut{}, err
				}
				m := compiled.Match(cc.ruleCtx())
				matches = &m
			}
			owner := identity.UserID(ctx)
			st, replaced, err := t.store.Put(owner, in.Name, in.Meaning, raw, time.Now())
			if err != nil {
				return StoreOut{}, ruleErr(err)
			}
			list, _ := t.store.List(owner)
			return StoreOut{ID: st.ID, Name: st.Name, Replaced: replaced, Count: len(list.Rules), BytesUsed: list.Usage.Bytes,
				BytesQuota: list.Usage.QuotaBytes, Matches: matches}, nil
		})
}

// ---- delete_star_combination_meaning

type DeleteIn struct {
	Name string `json:"name,omitempty" jsonschema:"stored rule name" mcp:"maxLength=80"`
	ID   string `json:"id,omitempty" jsonschema:"rule id (also for entries listed as corrupt)" mcp:"maxLength=200"`
}

type DeleteOut struct {
	Deleted    []string `json:"deleted" jsonschema:"ids removed; empty when none matched"`
	Count      int      `json:"count" jsonschema:"rules still stored"`
	BytesUsed  int      `json:"bytesUsed" jsonschema:"of your quota"`
	BytesQuota int      `json:"bytesQuota"`
}

func (t *Tools) deleteCombination() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "delete_star_combination_meaning", Title: "Delete a star-combination meaning", Toolset: "patterns",
		Hints:       toolkit.Hints{Destructive: true, Idempotent: true},
		Description: "Deletes one of your stored rules by name or id (corrupt entries by id), freeing quota; deleting what is absent returns deleted: []. Related: query_star_combination_meaning (names, ids, corrupt entries)."},
		func(ctx context.Context, in DeleteIn) (DeleteOut, error) {
			if t.store == nil || t.store.Path() == "" {
				return DeleteOut{}, envelope.New(envelope.PermissionDenied, "no rules file configured: start the server with --rules-file or set ZIWEI_RULES_FILE")
			}
			key := in.ID
			switch {
			case in.ID != "" && in.Name != "":
				return DeleteOut{}, envelope.Invalid("id", "pass name or id, not both")
			case in.ID == "" && in.Name == "":
				return DeleteOut{}, envelope.Invalid("name", "pass the name (or id) of the rule to delete; query_star_combination_meaning lists them")
			case in.ID == "":
				key = in.Name
			}
			owner := identity.UserID(ctx)
			gone, err := t.store.Delete(owner, key)
			if err != nil {
				return DeleteOut{}, ruleErr(err)
			}
			out := DeleteOut{Deleted: []string{}}
			for _, g := range gone {
				out.Deleted = append(out.Deleted, g.ID)
			}
			if list, err := t.store.List(owner); err == nil {
				out.Count, out.BytesUsed, out.BytesQuota = len(list.Rules), list.Usage.Bytes, list.Usage.QuotaBytes
			}
			return out, nil
		})
}

func ruleErr(err error) error {
	var qe *rules.QuotaError
	if errors.As(err, &qe) {
		return envelope.New(envelope.PermissionDenied, "%s", qe.Message).WithDetail("limit", qe.Env).WithDetail("used", qe.Used).WithDetail("quota", qe.Limit)
	}
	if re, ok := err.(*rules.Error); ok {
		field := "rule"
		switch re.Path {
		case "name", "meaning":
			field = re.Path
		}
		e := envelope.Invalid(field, "%s", re.Error())
		if re.Path != "" && field == "rule" {
			e = e.WithDetail("path", re.Path)
		}
		return e
	}
	return envelope.New(envelope.Internal, "the stored rules could not be read or written (the server's state file failed); the server log has details").WithCause(err)
}

// nothingMatched says why a query found nothing and what would match: the
// catalogue patterns naming some of the stars asked for, and how to store
// a rule of one's own.
func nothingMatched(in CombinationQueryIn, want []astro.StarID, lang astro.Lang) string {
	var what []string
	if in.Name != "" {
		what = append(what, fmt.Sprintf("is named %q", extract.Clip(in.Name, 80)))
	}
	names := make([]string, len(want))
	for i, s := range want {
		names[i] = s.Name(lang)
	}
	if len(want) > 0 {
		what = append(what, "names all of "+strings.Join(names, ", "))
	}
	where := "none of your stored rules"
	if in.Catalogue {
		where += " and no 格局 catalogue pattern"
	}
	var b strings.Builder
	if len(what) == 0 {
		b.WriteString(where + " exists yet.")
	} else {
		b.WriteString("nothing matched: " + where + " " + strings.Join(what, " and ") + ".")
	}
	// what would match: catalogue patterns naming any of the stars
	var near []string
	for _, p := range patterns.All() {
		for _, s := range want {
			if namesAll(p.Rule, []astro.StarID{s}) {
				near = append(near, p.LocalName(lang))
				break
			}
		}
	}
	if len(near) > 0 {
		if len(near) > 12 {
			near = append(near[:12], fmt.Sprintf("… %d more", len(near)-12))
		}
		b.WriteString(" Catalogue patterns naming some of them: " + strings.Join(near, ", ") + " (query them with fewer stars")
		if !in.Catalogue {
			b.WriteString(" and includeCatalogue: true")
		}
		b.WriteString(").")
	} else if !in.Catalogue {
		b.WriteString(" includeCatalogue: true also searches the 格局 catalogue.")
	}
	if len(want) > 0 {
		q, _ := json.Marshal(names)
		fmt.Fprintf(&b, ` To give this combination a meaning, store a rule with store_star_combination_meaning, e.g. {"stars":%s,"in":"命宫"}.`, q)
	}
	return b.String()
}

// joinNotes puts two notes into one field.
func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}
