package tools

import (
	"slices"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// natalMemo keeps the rendered natal summary and the 格局 found for recent
// charts. Both are pure functions of the chart_id (birth and settings) and the
// language, and an agent starts every reading of a chart with
// initialize_chart, often more than once in a conversation; rendering and the
// pattern scan were most of that call's own work. Bounded: it
// starts over when full (natalMemoMax; the zero value holds the default).
type natalMemo struct {
	m cache.Bounded[natalKey, natalEntry]
}

type natalKey struct {
	id   string
	lang astro.Lang
}

type natalEntry struct {
	basics   Basics
	patterns []string // shared: callers only read it (clipped, so an append copies)
}

const natalMemoMax = 256

// lookup returns the memoised entry of a chart_id in a language, if any.
func (n *natalMemo) lookup(id string, lang astro.Lang) (natalEntry, bool) {
	return n.m.Get(natalKey{id, lang})
}

func (n *natalMemo) get(cc *chartCtx) natalEntry {
	k := natalKey{cc.id, cc.lang}
	if e, ok := n.m.Get(k); ok {
		return e
	}
	e := natalEntry{basics: cc.basics(), patterns: slices.Clip(cc.patternLines())}
	n.m.Put(k, e)
	return e
}
