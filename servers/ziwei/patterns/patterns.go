// Package patterns is the catalogue of classic 格局, each a declarative rule in
// the rules language (catalogue.json; sources in docs/ziwei-patterns.md).
package patterns

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
)

//go:embed catalogue.json
var catalogueJSON []byte

// Pattern is one catalogue entry.
type Pattern struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	NameTW    string          `json:"nameTW"`
	NameEn    string          `json:"nameEn"`
	Meaning   string          `json:"meaning"`
	MeaningZh string          `json:"meaningZh"`
	Source    string          `json:"source"`
	RuleJSON  json.RawMessage `json:"rule"`
	Rule      *rules.Rule     `json:"-"`
}

// LocalName returns the pattern's name in language l.
func (p *Pattern) LocalName(l astro.Lang) string {
	switch l {
	case astro.ZhTW:
		return p.NameTW
	case astro.EnUS:
		return p.NameEn + " (" + p.Name + ")"
	}
	return p.Name
}

// LocalMeaning returns the one-line meaning in language l (Chinese for zh-*).
func (p *Pattern) LocalMeaning(l astro.Lang) string {
	if l == astro.EnUS {
		return p.Meaning
	}
	return p.MeaningZh
}

// catalogue is loaded on first use, not at package init: parsing the JSON and
// every rule took ~1.2 ms of each process start, and most calls (a chart
// without a pattern question) never need it.
var catalogue = sync.OnceValue(mustLoad)

func mustLoad() []*Pattern {
	ps, err := load(catalogueJSON)
	if err != nil {
		panic(err) // a broken catalogue is a build error; TestCatalogue catches it
	}
	return ps
}

func load(data []byte) ([]*Pattern, error) {
	var ps []*Pattern
	if err := json.Unmarshal(data, &ps); err != nil {
		return nil, fmt.Errorf("patterns: catalogue.json: %w", err)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		r, err := rules.Parse(p.RuleJSON)
		if err != nil {
			return nil, fmt.Errorf("patterns: %s: %w", p.ID, err)
		}
		if p.ID == "" || p.Name == "" || p.NameTW == "" || p.NameEn == "" || p.Meaning == "" || p.MeaningZh == "" || p.Source == "" {
			return nil, fmt.Errorf("patterns: %q: every field is required", p.ID)
		}
		for _, k := range []string{p.ID, p.Name, p.NameTW, strings.ToLower(p.NameEn)} {
			if seen[k] && k != p.Name {
				return nil, fmt.Errorf("patterns: duplicate key %q", k)
			}
			seen[k] = true
		}
		p.Rule = r
	}
	return ps, nil
}

// All returns the catalogue in its order.
func All() []*Pattern { return catalogue() }

// Find looks a pattern up by id or by name in any language (case-insensitive).
func Find(name string) (*Pattern, bool) {
	name = strings.TrimSpace(name)
	for _, p := range catalogue() {
		if strings.EqualFold(name, p.ID) || name == p.Name || name == p.NameTW || strings.EqualFold(name, p.NameEn) {
			return p, true
		}
	}
	return nil, false
}

// Found returns the patterns present in the chart, in catalogue order.
func Found(ctx *rules.Context) []*Pattern {
	var out []*Pattern
	for _, p := range catalogue() {
		if p.Rule.Match(ctx) {
			out = append(out, p)
		}
	}
	return out
}
