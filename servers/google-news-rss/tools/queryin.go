package tools

import (
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

// QueryIn is a search, structured or raw. The shape constraints are in the
// schema; what a schema cannot say (when's units, dates, operators inside
// words) is validated by the query package with messages naming the fix.
type QueryIn struct {
	Q       string     `json:"q,omitempty" jsonschema:"raw query, instead of the fields" mcp:"maxLength=600"`
	Terms   []string   `json:"terms,omitempty"`
	Phrases []string   `json:"phrases,omitempty" jsonschema:"unquoted"`
	AnyOf   [][]string `json:"any_of,omitempty" jsonschema:"OR groups"`
	Exclude []string   `json:"exclude,omitempty"`
	InTitle []string   `json:"intitle,omitempty"`
	Site    []string   `json:"site,omitempty" jsonschema:"domains, ORed"`
	When    string     `json:"when,omitempty" jsonschema:"Nh or Nd"`
	After   string     `json:"after,omitempty" jsonschema:"YYYY-MM-DD"`
	Before  string     `json:"before,omitempty"`
	Edition string     `json:"edition,omitempty" jsonschema:"gl or ceid; default US"`
	Preset  string     `json:"preset,omitempty" mcp:"enum=uae_focus|uae_outlets"`
}

func (in QueryIn) structured() bool {
	return len(in.Terms)+len(in.Phrases)+len(in.AnyOf)+len(in.Exclude)+len(in.InTitle)+len(in.Site) > 0 ||
		in.When != "" || in.After != "" || in.Before != ""
}

// resolve validates the input into a normalized query on an edition.
func (in QueryIn) resolve() (query.Query, query.Edition, error) {
	var q query.Query
	var err error
	raw := strings.TrimSpace(in.Q) != ""
	switch {
	case raw && in.structured():
		return q, query.Edition{}, envelope.Invalid("q", "give either q (a raw query) or the structured fields, not both")
	case raw:
		if q, err = query.Parse(in.Q); err != nil {
			return q, query.Edition{}, err
		}
	default:
		q = query.Query{Terms: in.Terms, Phrases: in.Phrases, AnyOf: in.AnyOf, Exclude: in.Exclude, InTitle: in.InTitle,
			Sites: in.Site, When: in.When, After: in.After, Before: in.Before}
		if in.Preset == "" { // a preset alone is a valid query
			if q, err = q.Normalize(); err != nil {
				return q, query.Edition{}, err
			}
		}
	}
	edition := in.Edition
	if in.Preset != "" {
		p, ok := query.FindPreset(in.Preset)
		if !ok {
			return q, query.Edition{}, envelope.Invalid("preset", "unknown preset %q; see list_editions", in.Preset)
		}
		if edition != "" {
			if e, err := query.ResolveEdition(edition); err != nil || e.CEID != p.Edition {
				return q, query.Edition{}, envelope.Invalid("edition", "preset %s uses edition %s; drop edition or the preset", p.Name, p.Edition)
			}
		}
		edition = p.Edition
		if len(p.AnyOf) > 0 {
			q.AnyOf = append(q.AnyOf, p.AnyOf)
		}
		if len(p.Sites) > 0 {
			if len(q.Sites) > 0 {
				return q, query.Edition{}, envelope.Invalid("site", "preset %s sets the sites; drop site or the preset", p.Name)
			}
			q.Sites = p.Sites
		}
		if q, err = q.Normalize(); err != nil {
			return q, query.Edition{}, err
		}
	}
	e, err := query.ResolveEdition(edition)
	return q, e, err
}
