package tools

import (
	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// answerMemo keeps the last encoded fetch_search_feed answer per (query_key,
// since). Within a window every scheduled caller gets the same bytes, so they
// are encoded and checked against the output schema once, not per call (the
// check is a sixth of a cached call's CPU, see docs/benchmarks.md).
type answerMemo struct {
	m cache.Bounded[fetchIn, memoEntry] // past cache.DefaultBoundedMax answers, the memo starts over
}

type memoEntry struct {
	fp  string // everything but the items that makes the answer: status, times, error
	out fetchOut
}

// encoded returns out carrying its encoding: the memoized one when an equal
// answer was encoded before, else a new one. Items change only with fetched_at
// (a new poll), so the fingerprint leaves them out.
func (m *answerMemo) encoded(in fetchIn, out fetchOut) fetchOut {
	fp := out.Status + "|" + out.FetchedAt + "|" + out.Window + "|" + out.NextPollAt
	if out.LastError != nil {
		fp += "|" + out.LastError.Code + "|" + out.LastError.Message
	}
	if e, ok := m.m.Get(in); ok && e.fp == fp && len(e.out.Items) == len(out.Items) {
		return e.out
	}
	enc, err := envelope.Encode(out)
	if err != nil {
		return out // encoded the usual way by toolkit
	}
	out.enc = enc
	m.m.Put(in, memoEntry{fp: fp, out: out})
	return out
}
