package query

import (
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Edition is one English Google News edition: the hl/gl/ceid triple Google's
// own "Language & region" picker sends.
type Edition struct {
	Country   string `json:"country"`
	HL        string `json:"hl"`
	GL        string `json:"gl"`
	CEID      string `json:"ceid"`
	Validated bool   `json:"validated"`
}

// Editions is the static allow-list: the 24 English editions of Google's
// picker, in its order (source: ranahaani/GNews gnews/utils/constants.py
// AVAILABLE_COUNTRIES, the first 24; "validated" rows were
// tested by Outsharp/shipp-skills skills/google-news/SKILL.md). There is no
// English UAE edition: the UAE is offered only in Arabic (AE:ar).
var Editions = []Edition{
	{"United States", "en-US", "US", "US:en", true},
	{"United Kingdom", "en-GB", "GB", "GB:en", true},
	{"India", "en-IN", "IN", "IN:en", true},
	{"Australia", "en-AU", "AU", "AU:en", true},
	{"Canada", "en-CA", "CA", "CA:en", true},
	{"Israel", "en-IL", "IL", "IL:en", true},
	{"Singapore", "en-SG", "SG", "SG:en", false},
	{"New Zealand", "en-NZ", "NZ", "NZ:en", false},
	{"Ireland", "en-IE", "IE", "IE:en", false},
	{"South Africa", "en-ZA", "ZA", "ZA:en", false},
	{"Pakistan", "en-PK", "PK", "PK:en", false},
	{"Nigeria", "en-NG", "NG", "NG:en", false},
	{"Kenya", "en-KE", "KE", "KE:en", false},
	{"Philippines", "en-PH", "PH", "PH:en", false},
	{"Malaysia", "en-MY", "MY", "MY:en", false},
	{"Ghana", "en-GH", "GH", "GH:en", false},
	{"Uganda", "en-UG", "UG", "UG:en", false},
	{"Tanzania", "en-TZ", "TZ", "TZ:en", false},
	{"Zimbabwe", "en-ZW", "ZW", "ZW:en", false},
	{"Botswana", "en-BW", "BW", "BW:en", false},
	{"Namibia", "en-NA", "NA", "NA:en", false},
	{"Ethiopia", "en-ET", "ET", "ET:en", false},
	{"Indonesia (English)", "en-ID", "ID", "ID:en", false},
	{"Latvia (English)", "en-LV", "LV", "LV:en", false},
}

// DefaultEdition is used when neither edition nor preset is given.
const DefaultEdition = "US"

// Preset is an English edition plus query scoping, for places without an
// English edition of their own.
type Preset struct {
	Name        string   `json:"name"`
	Edition     string   `json:"edition"`
	AnyOf       []string `json:"-"`
	Sites       []string `json:"-"`
	Adds        string   `json:"adds"`
	Description string   `json:"description"`
}

// Presets: the UAE has no English edition (Google's picker offers it in Arabic
// only; a public build log kept UAE terms in the query on the US locale), so UAE
// focus is the US edition plus scoping. The outlet list is our choice
// (// assumed: the Gulf's main English-language outlets).
var Presets = withAdds([]Preset{
	{Name: "uae_focus", Edition: "US:en", AnyOf: []string{"UAE", "Dubai", `"Abu Dhabi"`},
		Description: "UAE news on the US English edition (there is no English UAE edition)"},
	{Name: "uae_outlets", Edition: "US:en", Sites: []string{"gulfnews.com", "khaleejtimes.com", "thenationalnews.com"},
		Description: "stories from UAE English-language outlets, on the US English edition"},
})

// withAdds fills each preset's Adds, the query text it adds, from its
// terms and sites, so the two can never disagree.
func withAdds(ps []Preset) []Preset {
	for i := range ps {
		p := &ps[i]
		var parts []string
		if len(p.AnyOf) > 0 {
			parts = append(parts, "("+strings.Join(p.AnyOf, " OR ")+")")
		}
		if len(p.Sites) > 0 {
			s := make([]string, len(p.Sites))
			for j, v := range p.Sites {
				s[j] = "site:" + v
			}
			parts = append(parts, "("+strings.Join(s, " OR ")+")")
		}
		p.Adds = strings.Join(parts, " ")
	}
	return ps
}

// PresetNames lists the presets' names (schema enum).
const PresetNames = "uae_focus|uae_outlets"

// FindPreset returns the named preset.
func FindPreset(name string) (Preset, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// ResolveEdition accepts a gl code ("GB") or a ceid ("GB:en"), any case, and
// returns the allow-listed English edition or an invalid_argument naming the fix.
func ResolveEdition(s string) (Edition, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		s = DefaultEdition
	}
	gl, lang, hasLang := strings.Cut(s, ":")
	gl = strings.ToUpper(gl)
	lang = strings.ToLower(lang)
	if hasLang && lang != "en" {
		if e, ok := byGL(gl); ok {
			return Edition{}, envelope.Invalid("edition", "%s is not served: only English editions are; use %s", s, e.CEID)
		}
		return Edition{}, unsupported(s, gl)
	}
	if e, ok := byGL(gl); ok {
		return e, nil
	}
	return Edition{}, unsupported(s, gl)
}

func unsupported(s, gl string) error {
	if gl == "AE" {
		return envelope.Invalid("edition", "there is no English UAE edition (Google offers the UAE in Arabic only; AE:en redirects to /rss/unsupported); use preset uae_focus or uae_outlets")
	}
	return envelope.Invalid("edition", "%q is not one of the 24 English editions; call list_editions (e.g. US, GB, IN, AU, CA, SG)", s)
}

func byGL(gl string) (Edition, bool) {
	for _, e := range Editions {
		if e.GL == gl {
			return e, true
		}
	}
	return Edition{}, false
}
