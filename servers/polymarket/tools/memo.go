package tools

import (
	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// memoKey names one answer: the cached upstream bytes it was built from, the
// view asked for, and whether it was served stale.
type memoKey struct {
	body  *byte
	view  string
	stale bool
}

// answerMemo keeps encoded answers built from cached bodies, so a cached call
// encodes (and validates against the output schema) once per cache fill
// rather than on every call. Bounded by clearing (cache.DefaultBoundedMax).
type answerMemo struct {
	m cache.Bounded[memoKey, *envelope.Encoded]
}

func (a *answerMemo) get(k memoKey) *envelope.Encoded {
	if k.body == nil {
		return nil
	}
	e, _ := a.m.Get(k)
	return e
}

func (a *answerMemo) put(k memoKey, e *envelope.Encoded) { a.m.Put(k, e) }
