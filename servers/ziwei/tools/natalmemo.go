package tools

import (
	"slices"
	"sync"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// natalMemo keeps the rendered natal summary and the 格局 found for recent
// charts. Both are pure functions of the chart_id (birth and settings) and the
// language, and an agent starts every reading of a chart with
// initialize_chart, often more than once in a conversation; rendering and the
// pattern scan were most of that call's own work (issue 20). Bounded: it
// starts over when full.
type natalMemo struct {
	mu sync.Mutex
	m  map[natalKey]natalEntry
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

func (n *natalMemo) get(cc *chartCtx) natalEntry {
	k := natalKey{cc.id, cc.lang}
	n.mu.Lock()
	e, ok := n.m[k]
	n.mu.Unlock()
	if ok {
		return e
	}
	e = natalEntry{basics: cc.basics(), patterns: slices.Clip(cc.patternLines())}
	n.mu.Lock()
	if n.m == nil || len(n.m) >= natalMemoMax {
		n.m = make(map[natalKey]natalEntry, natalMemoMax)
	}
	n.m[k] = e
	n.mu.Unlock()
	return e
}
