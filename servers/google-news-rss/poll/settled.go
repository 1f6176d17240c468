package poll

import "github.com/mcpfleet/mcpfleet/pkg/cache"

// settledFeeds remembers, per query key, the spec and the state of a window
// whose poll is over. Nothing can change that state before the window ends:
// the window's one claim is taken and only its holder writes the state. So
// until then a repeat fetch is answered from memory — no claim, no shared
// state read, no decode (with Redis those three round trips were
// about half of a cached fetch). The first fetch of a window in this process
// still goes through the shared state, so replicas agree on what was polled.
type settledFeeds struct {
	m cache.Bounded[string, settledFeed]
}

type settledFeed struct {
	spec Spec
	st   State
}

const maxSettled = 4096 // keys remembered before starting over

// lookup returns key's feed if its settled state is of window w.
func (s *settledFeeds) lookup(key string, w int64) (settledFeed, bool) {
	f, ok := s.m.Get(key)
	return f, ok && f.st.PolledWindow == w
}

// keep remembers a state whose window's poll is over.
func (s *settledFeeds) keep(key string, spec Spec, st State) {
	s.m.Put(key, settledFeed{spec: spec, st: st})
}
