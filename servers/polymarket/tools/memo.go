package tools

import (
	"sync"

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
// rather than on every call. Bounded by clearing.
type answerMemo struct {
	mu sync.Mutex
	m  map[memoKey]*envelope.Encoded
}

const answerMemoMax = 1024

func (a *answerMemo) get(k memoKey) *envelope.Encoded {
	if k.body == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.m[k]
}

func (a *answerMemo) put(k memoKey, e *envelope.Encoded) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil || len(a.m) >= answerMemoMax {
		a.m = map[memoKey]*envelope.Encoded{}
	}
	a.m[k] = e
}
