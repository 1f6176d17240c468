// Package rules is the declarative predicate language over a Zi Wei chart:
// JSON rules (never code) with all/any/not combinators and conditions on
// stars, palaces, brightness and the four transformations (四化) at natal,
// decade and annual level. The pattern catalogue (package patterns) and the
// user's stored rules are written in it.
//
// A rule is one JSON object with exactly one of these shapes:
//
//	{"all": [rule, ...]}   {"any": [rule, ...]}   {"not": rule}
//	{"stars": [names], "in": PALACE, "scope": SCOPE, "min": n,
//	 "brightness": [..] | "minBrightness": b | "maxBrightness": b,
//	 "mutagen": m, "level": LEVEL}            at least min (default: all) of the stars sit in the scope
//	{"mutagens": [禄, 权, ...], "level": LEVEL, "in": PALACE, "scope": SCOPE, "min": n}
//	                                          the stars carrying those transformations sit in the scope
//	{"count": [names or groups], "in": PALACE, "scope": SCOPE, "min": n, "max": n}
//	                                          how many such stars the scope holds (groups: major, soft/六吉, tough/六煞, …)
//	{"palace": PALACE, "branch": [子, 午, ...]} the palace sits on one of the branches
//	{"same": [PALACE, PALACE, ...]}           the references name one palace (e.g. ["身宫", "命宫"], ["@太阳", "@太阴"])
//
// PALACE: a natal role (命宫, 财帛, wealth…; 宫 optional), 身宫/body, 来因宫/origin,
// a branch (子…亥), "@STAR" (the palace of that star), or a role prefixed with
// 大限/decade: or 流年/annual: (needs a target date). SCOPE: palace (default),
// sanfang (三方四正), sanhe (三合), opposite (对宫), flank (夹: the two
// neighbours, both occupied). LEVEL: natal (default), decade, annual.
package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// Limits keep parsing and evaluation bounded.
const (
	MaxBytes = 8 << 10 // compact JSON size of one rule (Size), on write and on read
	MaxDepth = 6       // nesting of all/any/not
	MaxNodes = 64      // conditions and combinators in one rule
	MaxNames = 16      // names in one list
)

// Node is the JSON form of a rule.
type Node struct {
	All           []Node   `json:"all,omitempty"`
	Any           []Node   `json:"any,omitempty"`
	Not           *Node    `json:"not,omitempty"`
	Stars         []string `json:"stars,omitempty"`
	Mutagens      []string `json:"mutagens,omitempty"`
	Count         []string `json:"count,omitempty"`
	Palace        string   `json:"palace,omitempty"`
	Branch        []string `json:"branch,omitempty"`
	Same          []string `json:"same,omitempty"`
	In            string   `json:"in,omitempty"`
	Scope         string   `json:"scope,omitempty"`
	Min           *int     `json:"min,omitempty"`
	Max           *int     `json:"max,omitempty"`
	Brightness    []string `json:"brightness,omitempty"`
	MinBrightness string   `json:"minBrightness,omitempty"`
	MaxBrightness string   `json:"maxBrightness,omitempty"`
	Mutagen       string   `json:"mutagen,omitempty"`
	Level         string   `json:"level,omitempty"`
}

// Error is an invalid rule; Path points into the JSON (e.g. "all[1].stars[0]").
type Error struct {
	Path    string
	Message string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "rule: " + e.Message
	}
	return "rule " + e.Path + ": " + e.Message
}

func errAt(path, format string, args ...any) *Error {
	return &Error{Path: path, Message: fmt.Sprintf(format, args...)}
}

// Size is the one size rule for a rule, applied when it is stored and when
// the rules file is read back: the length of its compact JSON, so the
// indentation or spacing around it never changes whether it fits.
func Size(data []byte) (int, error) {
	var buf bytes.Buffer
	buf.Grow(len(data))
	err := json.Compact(&buf, data)
	return buf.Len(), err
}

// Parse decodes and compiles a rule from JSON.
func Parse(data []byte) (*Rule, error) {
	// Invalid JSON is left to the decoder below, which names the problem.
	if n, err := Size(data); err == nil && n > MaxBytes {
		return nil, errAt("", "rule is %d bytes of compact JSON; the limit is %d", n, MaxBytes)
	}
	// Depth check before decoding, so a deeply nested document costs nothing.
	if d := extract.Depth(data); d > 2*MaxDepth+4 {
		return nil, errAt("", "rule nests too deeply; at most %d levels of all/any/not", MaxDepth)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var n Node
	if err := dec.Decode(&n); err != nil {
		return nil, errAt("", "not a valid rule object: %s (keys: all, any, not, stars, mutagens, count, palace, branch, same, in, scope, min, max, brightness, minBrightness, maxBrightness, mutagen, level)", cleanJSONErr(err))
	}
	if dec.More() {
		return nil, errAt("", "trailing data after the rule object")
	}
	return Compile(n)
}

func cleanJSONErr(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "json: ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// Rule is a compiled rule, safe for concurrent evaluation.
type Rule struct {
	root  *node
	nodes int
	needs Level // highest level referenced
}

// Node count and whether a horoscope is needed.
func (r *Rule) Size() int { return r.nodes }

// NeedsHoroscope reports whether the rule refers to decade or annual data.
func (r *Rule) NeedsHoroscope() bool { return r.needs != Natal }

// Level of a transformation or palace reference.
type Level uint8

// Levels.
const (
	Natal Level = iota
	Decade
	Annual
)

type op uint8

const (
	opAll op = iota
	opAny
	opNot
	opStars
	opMutagens
	opCount
	opBranch
	opSame
)

type scope uint8

const (
	scopePalace scope = iota
	scopeSanfang
	scopeSanhe
	scopeOpposite
	scopeFlank
	scopeAnywhere // no "in": the whole chart
)

var scopeNames = [...]string{"palace", "sanfang", "sanhe", "opposite", "flank", "anywhere"}

type refKind uint8

const (
	refNone refKind = iota
	refRole
	refBody
	refOrigin
	refBranch
	refStar
)

type palaceRef struct {
	kind   refKind
	level  Level
	role   astro.PalaceRole
	branch astro.Branch
	star   astro.StarID
	text   string
}

type node struct {
	op       op
	kids     []*node
	stars    []astro.StarID
	muts     []astro.Mutagen
	count    [2]uint64 // star bit set for opCount
	countTxt []string
	ref      palaceRef
	refs     []palaceRef
	scope    scope
	min, max int
	bright   uint8 // allowed brightness bit set (bit b for Brightness b); 0 = any
	mutagen  astro.Mutagen
	level    Level
	branches uint16
}

type compiler struct {
	nodes int
	needs Level
}

// Compile checks and compiles a decoded rule.
func Compile(n Node) (*Rule, error) {
	c := &compiler{}
	root, err := c.compile(n, "", 0)
	if err != nil {
		return nil, err
	}
	return &Rule{root: root, nodes: c.nodes, needs: c.needs}, nil
}

func (c *compiler) compile(n Node, path string, depth int) (*node, error) {
	c.nodes++
	if c.nodes > MaxNodes {
		return nil, errAt(path, "rule has more than %d conditions; split it", MaxNodes)
	}
	if depth > MaxDepth {
		return nil, errAt(path, "rule nests deeper than %d levels of all/any/not", MaxDepth)
	}
	p := func(s string) string {
		if path == "" {
			return s
		}
		return path + "." + s
	}
	kinds := 0
	for _, b := range []bool{n.All != nil, n.Any != nil, n.Not != nil, n.Stars != nil, n.Mutagens != nil, n.Count != nil, n.Palace != "" || n.Branch != nil, n.Same != nil} {
		if b {
			kinds++
		}
	}
	if kinds != 1 {
		return nil, errAt(path, "each rule object needs exactly one of all, any, not, stars, mutagens, count, palace+branch or same (found %d)", kinds)
	}
	switch {
	case n.All != nil || n.Any != nil:
		list, o, key := n.All, opAll, "all"
		if n.Any != nil {
			list, o, key = n.Any, opAny, "any"
		}
		if err := onlyKeys(n, path, key); err != nil {
			return nil, err
		}
		if len(list) == 0 || len(list) > MaxNames {
			return nil, errAt(p(key), "%s needs 1-%d rules", key, MaxNames)
		}
		out := &node{op: o}
		for i, k := range list {
			kn, err := c.compile(k, fmt.Sprintf("%s[%d]", p(key), i), depth+1)
			if err != nil {
				return nil, err
			}
			out.kids = append(out.kids, kn)
		}
		return out, nil
	case n.Not != nil:
		if err := onlyKeys(n, path, "not"); err != nil {
			return nil, err
		}
		kn, err := c.compile(*n.Not, p("not"), depth+1)
		if err != nil {
			return nil, err
		}
		return &node{op: opNot, kids: []*node{kn}}, nil
	case n.Same != nil:
		if err := onlyKeys(n, path, "same"); err != nil {
			return nil, err
		}
		if len(n.Same) < 2 || len(n.Same) > MaxNames {
			return nil, errAt(p("same"), "same needs 2-%d palace references", MaxNames)
		}
		out := &node{op: opSame}
		for i, s := range n.Same {
			ref, err := c.parseRef(s, fmt.Sprintf("%s[%d]", p("same"), i))
			if err != nil {
				return nil, err
			}
			out.refs = append(out.refs, ref)
		}
		return out, nil
	case n.Palace != "" || n.Branch != nil:
		if err := onlyKeys(n, path, "palace", "branch"); err != nil {
			return nil, err
		}
		if n.Palace == "" || len(n.Branch) == 0 {
			return nil, errAt(path, "a branch condition needs both palace and branch, e.g. {\"palace\":\"命宫\",\"branch\":[\"子\",\"午\"]}")
		}
		ref, err := c.parseRef(n.Palace, p("palace"))
		if err != nil {
			return nil, err
		}
		out := &node{op: opBranch, ref: ref}
		if len(n.Branch) > 12 {
			return nil, errAt(p("branch"), "at most 12 branches")
		}
		for i, b := range n.Branch {
			br, ok := astro.BranchByName(b)
			if !ok {
				return nil, errAt(fmt.Sprintf("%s[%d]", p("branch"), i), "unknown branch %q: use 子 丑 寅 卯 辰 巳 午 未 申 酉 戌 亥 (or zi, chou, …)", extract.Clip(b, 24))
			}
			out.branches |= 1 << br
		}
		return out, nil
	}
	// Star, mutagen and count conditions share in/scope/min.
	out := &node{}
	var err error
	switch {
	case n.Stars != nil:
		out.op = opStars
		if err := onlyKeys(n, path, "stars", "in", "scope", "min", "brightness", "minBrightness", "maxBrightness", "mutagen", "level"); err != nil {
			return nil, err
		}
		if out.stars, err = parseStars(n.Stars, p("stars")); err != nil {
			return nil, err
		}
		if out.bright, err = parseBrightness(n, path); err != nil {
			return nil, err
		}
		if n.Mutagen != "" {
			if out.mutagen, err = parseMutagen(n.Mutagen, p("mutagen")); err != nil {
				return nil, err
			}
		}
		if out.level, err = c.parseLevel(n.Level, p("level")); err != nil {
			return nil, err
		}
		if n.Level != "" && n.Mutagen == "" {
			return nil, errAt(p("level"), "level applies to mutagen; add \"mutagen\" or drop \"level\"")
		}
	case n.Mutagens != nil:
		out.op = opMutagens
		if err := onlyKeys(n, path, "mutagens", "in", "scope", "min", "level"); err != nil {
			return nil, err
		}
		if len(n.Mutagens) == 0 || len(n.Mutagens) > 4 {
			return nil, errAt(p("mutagens"), "list 1-4 of 禄 权 科 忌")
		}
		for i, m := range n.Mutagens {
			mu, err := parseMutagen(m, fmt.Sprintf("%s[%d]", p("mutagens"), i))
			if err != nil {
				return nil, err
			}
			out.muts = append(out.muts, mu)
		}
		if out.level, err = c.parseLevel(n.Level, p("level")); err != nil {
			return nil, err
		}
	case n.Count != nil:
		out.op = opCount
		if err := onlyKeys(n, path, "count", "in", "scope", "min", "max"); err != nil {
			return nil, err
		}
		if len(n.Count) == 0 || len(n.Count) > MaxNames {
			return nil, errAt(p("count"), "count needs 1-%d star names or groups (major, soft/六吉, tough/六煞, lucun, tianma, adjective, flower, helper)", MaxNames)
		}
		for i, name := range n.Count {
			set, ok := groupSet(name)
			if !ok {
				id, found := astro.StarByName(name)
				if !found {
					return nil, errAt(fmt.Sprintf("%s[%d]", p("count"), i), "unknown star or group %q: use a star name (紫微, emperor…) or a group (major, soft, tough, lucun, tianma, adjective, flower, helper, 主星, 六吉, 六煞)", extract.Clip(name, 24))
				}
				set[id/64] |= 1 << (id % 64)
			}
			out.count[0] |= set[0]
			out.count[1] |= set[1]
			out.countTxt = append(out.countTxt, name)
		}
	}
	out.scope = scopeAnywhere
	if n.In != "" {
		if out.ref, err = c.parseRef(n.In, p("in")); err != nil {
			return nil, err
		}
		if out.scope, err = parseScope(n.Scope, p("scope")); err != nil {
			return nil, err
		}
	} else if n.Scope != "" {
		return nil, errAt(p("scope"), "scope needs \"in\" (the palace it is taken around)")
	}
	if out.op == opCount && n.In == "" {
		return nil, errAt(path, "count needs \"in\", e.g. {\"count\":[\"major\"],\"in\":\"命宫\",\"max\":0}")
	}
	total := len(out.stars) + len(out.muts)
	switch {
	case out.op == opCount:
		out.min, out.max = 1, 1<<30
		if n.Min != nil {
			out.min = *n.Min
		}
		if n.Max != nil {
			out.max = *n.Max
			if n.Min == nil {
				out.min = 0
			}
		}
		if out.min < 0 || out.max < out.min || out.min > 66 {
			return nil, errAt(path, "min/max must satisfy 0 ≤ min ≤ max ≤ 66")
		}
	default:
		out.min = total
		if n.Min != nil {
			out.min = *n.Min
		}
		if out.min < 1 || out.min > total {
			return nil, errAt(p("min"), "min must be 1-%d (the number of listed items)", total)
		}
	}
	return out, nil
}

func onlyKeys(n Node, path string, allowed ...string) error {
	set := map[string]bool{
		"all": n.All != nil, "any": n.Any != nil, "not": n.Not != nil, "stars": n.Stars != nil,
		"mutagens": n.Mutagens != nil, "count": n.Count != nil, "palace": n.Palace != "", "branch": n.Branch != nil, "same": n.Same != nil,
		"in": n.In != "", "scope": n.Scope != "", "min": n.Min != nil, "max": n.Max != nil,
		"brightness": n.Brightness != nil, "minBrightness": n.MinBrightness != "", "maxBrightness": n.MaxBrightness != "",
		"mutagen": n.Mutagen != "", "level": n.Level != "",
	}
	for _, a := range allowed {
		delete(set, a)
	}
	for _, k := range []string{"all", "any", "not", "stars", "mutagens", "count", "palace", "branch", "same", "in", "scope", "min", "max", "brightness", "minBrightness", "maxBrightness", "mutagen", "level"} {
		if set[k] {
			return errAt(path, "key %q does not belong with %s; allowed here: %s", k, allowed[0], strings.Join(allowed, ", "))
		}
	}
	return nil
}

func parseStars(names []string, path string) ([]astro.StarID, error) {
	if len(names) == 0 || len(names) > MaxNames {
		return nil, errAt(path, "list 1-%d star names", MaxNames)
	}
	out := make([]astro.StarID, 0, len(names))
	for i, s := range names {
		id, ok := astro.StarByName(s)
		if !ok {
			return nil, errAt(fmt.Sprintf("%s[%d]", path, i), "unknown star %q: use a name from ziwei://stars (紫微, 天府, emperor, …)", extract.Clip(s, 24))
		}
		for _, prev := range out {
			if prev == id {
				return nil, errAt(fmt.Sprintf("%s[%d]", path, i), "star %q is listed twice", extract.Clip(s, 24))
			}
		}
		out = append(out, id)
	}
	return out, nil
}

var brightnessNames = map[string]astro.Brightness{
	"庙": astro.BrightMiao, "廟": astro.BrightMiao, "[+3]": astro.BrightMiao, "miao": astro.BrightMiao,
	"旺": astro.BrightWang, "[+2]": astro.BrightWang, "wang": astro.BrightWang,
	"得": astro.BrightDe, "[+1]": astro.BrightDe, "de": astro.BrightDe,
	"利": astro.BrightLi, "[0]": astro.BrightLi, "li": astro.BrightLi,
	"平": astro.BrightPing, "[-1]": astro.BrightPing, "ping": astro.BrightPing,
	"不": astro.BrightBu, "[-2]": astro.BrightBu, "bu": astro.BrightBu,
	"陷": astro.BrightXian, "[-3]": astro.BrightXian, "xian": astro.BrightXian,
}

// ParseBrightness reads a brightness name in any supported language.
func ParseBrightness(s string) (astro.Brightness, bool) {
	if b, ok := brightnessNames[strings.ToLower(strings.TrimSpace(s))]; ok {
		return b, true
	}
	return astro.BrightnessByName(s)
}

const brightHelp = "use 庙 旺 得 利 平 不 陷 (or [+3] … [-3])"

func parseBrightness(n Node, path string) (uint8, error) {
	set := 0
	for _, b := range []bool{n.Brightness != nil, n.MinBrightness != "", n.MaxBrightness != ""} {
		if b {
			set++
		}
	}
	if set > 1 {
		return 0, errAt(path, "use one of brightness, minBrightness, maxBrightness")
	}
	var mask uint8
	switch {
	case n.Brightness != nil:
		if len(n.Brightness) == 0 || len(n.Brightness) > 7 {
			return 0, errAt(path+".brightness", "list 1-7 brightness levels: "+brightHelp)
		}
		for i, s := range n.Brightness {
			b, ok := ParseBrightness(s)
			if !ok {
				return 0, errAt(fmt.Sprintf("%s.brightness[%d]", path, i), "unknown brightness %q: %s", extract.Clip(s, 24), brightHelp)
			}
			mask |= 1 << b
		}
	case n.MinBrightness != "":
		b, ok := ParseBrightness(n.MinBrightness)
		if !ok {
			return 0, errAt(path+".minBrightness", "unknown brightness %q: %s", extract.Clip(n.MinBrightness, 24), brightHelp)
		}
		for x := astro.BrightMiao; x <= b; x++ {
			mask |= 1 << x
		}
	case n.MaxBrightness != "":
		b, ok := ParseBrightness(n.MaxBrightness)
		if !ok {
			return 0, errAt(path+".maxBrightness", "unknown brightness %q: %s", extract.Clip(n.MaxBrightness, 24), brightHelp)
		}
		for x := b; x <= astro.BrightXian; x++ {
			mask |= 1 << x
		}
	}
	return mask, nil
}

// ParseMutagen reads 禄/权/科/忌 in any supported language (A-D, lu/quan/ke/ji).
func ParseMutagen(s string) (astro.Mutagen, bool) {
	switch strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s, "化"), "化"))) {
	case "禄", "祿", "a", "lu":
		return astro.MutagenLu, true
	case "权", "權", "b", "quan":
		return astro.MutagenQuan, true
	case "科", "c", "ke":
		return astro.MutagenKe, true
	case "忌", "d", "ji":
		return astro.MutagenJi, true
	}
	return astro.MutagenByName(s)
}

func parseMutagen(s, path string) (astro.Mutagen, error) {
	m, ok := ParseMutagen(s)
	if !ok {
		return 0, errAt(path, "unknown transformation %q: use 禄 权 科 忌 (or A B C D)", extract.Clip(s, 24))
	}
	return m, nil
}

// ParseLevel reads natal/decade/annual (本命/大限/流年).
func ParseLevel(s string) (Level, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "natal", "本命", "origin":
		return Natal, true
	case "decade", "decadal", "大限":
		return Decade, true
	case "annual", "yearly", "流年":
		return Annual, true
	}
	return Natal, false
}

func (c *compiler) parseLevel(s, path string) (Level, error) {
	l, ok := ParseLevel(s)
	if !ok {
		return 0, errAt(path, "unknown level %q: use natal, decade or annual", extract.Clip(s, 24))
	}
	if l > c.needs {
		c.needs = l
	}
	return l, nil
}

func parseScope(s, path string) (scope, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "palace", "本宫", "in":
		return scopePalace, nil
	case "sanfang", "sanfangsizheng", "三方四正", "四正":
		return scopeSanfang, nil
	case "sanhe", "三合", "三方":
		return scopeSanhe, nil
	case "opposite", "对宫", "對宮", "冲照":
		return scopeOpposite, nil
	case "flank", "夹", "夾", "jia":
		return scopeFlank, nil
	}
	return 0, errAt(path, "unknown scope %q: use palace, sanfang (三方四正), sanhe (三合), opposite (对宫) or flank (夹)", extract.Clip(s, 24))
}

func (c *compiler) parseRef(s, path string) (palaceRef, error) {
	ref, err := ParsePalaceRef(s)
	if err != nil {
		return ref, errAt(path, "%s", err.Error())
	}
	if ref.level > c.needs {
		c.needs = ref.level
	}
	return ref, nil
}

func isOriginName(s string) bool {
	switch strings.ToLower(s) {
	case "来因宫", "來因宮", "origin", "original":
		return true
	}
	return false
}

// ParsePalaceRef reads a palace reference (see the package doc).
func ParsePalaceRef(s string) (palaceRef, error) {
	raw := strings.TrimSpace(s)
	ref := palaceRef{text: raw}
	if raw == "" {
		return ref, errors.New("empty palace")
	}
	if strings.HasPrefix(raw, "@") {
		id, ok := astro.StarByName(raw[1:])
		if !ok {
			return ref, fmt.Errorf("unknown star %q after @: use e.g. @紫微 or @emperor", extract.Clip(raw[1:], 24))
		}
		ref.kind, ref.star = refStar, id
		return ref, nil
	}
	rest := raw
	lower := strings.ToLower(raw)
	for _, pre := range []struct {
		p string
		l Level
	}{{"decade:", Decade}, {"decadal:", Decade}, {"大限", Decade}, {"annual:", Annual}, {"yearly:", Annual}, {"流年", Annual}} {
		if strings.HasPrefix(lower, pre.p) {
			ref.level, rest = pre.l, raw[len(pre.p):]
			break
		}
	}
	switch {
	case astro.IsBodyPalaceName(rest):
		if ref.level != Natal {
			return ref, errors.New("身宫 exists only in the natal chart")
		}
		ref.kind = refBody
		return ref, nil
	case isOriginName(rest):
		if ref.level != Natal {
			return ref, errors.New("来因宫 exists only in the natal chart")
		}
		ref.kind = refOrigin
		return ref, nil
	}
	if r, ok := astro.RoleByName(rest); ok {
		ref.kind, ref.role = refRole, r
		return ref, nil
	}
	if ref.level == Natal {
		if b, ok := astro.BranchByName(rest); ok {
			ref.kind, ref.branch = refBranch, b
			return ref, nil
		}
	}
	return ref, fmt.Errorf("unknown palace %q: use a role (命宫, 财帛, wealth…), 身宫, 来因宫, a branch (子…亥), @STAR, or 大限命宫/流年命宫 (decade:/annual: prefixes)", extract.Clip(raw, 24))
}

var groupNames = map[string]astro.StarType{
	"major": astro.TypeMajor, "主星": astro.TypeMajor, "正曜": astro.TypeMajor,
	"soft": astro.TypeSoft, "六吉": astro.TypeSoft, "吉星": astro.TypeSoft,
	"tough": astro.TypeTough, "六煞": astro.TypeTough, "煞星": astro.TypeTough,
	"lucun": astro.TypeLucun, "tianma": astro.TypeTianma, "adjective": astro.TypeAdjective,
	"flower": astro.TypeFlower, "桃花": astro.TypeFlower, "helper": astro.TypeHelper,
}

func groupSet(name string) ([2]uint64, bool) {
	t, ok := groupNames[strings.ToLower(strings.TrimSpace(name))]
	var set [2]uint64
	if !ok {
		return set, false
	}
	for id := 0; id < astro.NumStars; id++ {
		if astro.StarID(id).Type() == t {
			set[id/64] |= 1 << (id % 64)
		}
	}
	return set, true
}
