package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

type editionsOut struct {
	Editions []query.Edition `json:"editions"`
	Presets  []query.Preset  `json:"presets"`
	Note     string          `json:"note"`
}

const editionsNote = "English editions only. There is no English UAE edition (Google offers the UAE in Arabic only; AE:en redirects to /rss/unsupported): use a UAE preset. Unlisted editions are rejected."

func listEditions() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_editions", Title: "List English editions", Toolset: setReference, Hints: toolkit.LocalRead,
		Description: `The 24 English Google News editions (validated: seen answering 200) and presets (an English edition plus what each adds to q; there is no English UAE edition). No network.`},
		func(context.Context, struct{}) (editionsOut, error) {
			return editionsOut{Editions: query.Editions, Presets: query.Presets, Note: editionsNote}, nil
		})
}

type operatorsOut struct {
	Operators []query.Operator `json:"operators"`
	Order     string           `json:"order"`
}

const canonicalOrder = `allintitle:/allintext:/allinurl: (first), terms, "phrases", (any OR of), -exclude, intitle:, inurl:, site: (several ORed), when: or after:/before:; uppercase OR, lowercase operators`

func explainOperators() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "explain_operators", Title: "Explain search operators", Toolset: setReference, Hints: toolkit.LocalRead,
		Description: `Search operator cheat-sheet: status (documented, reported: accepted; rejected: refused), source, build_search_feed field, example, fix; canonical q order. No network.`},
		func(context.Context, struct{}) (operatorsOut, error) {
			return operatorsOut{Operators: query.Operators, Order: canonicalOrder}, nil
		})
}
