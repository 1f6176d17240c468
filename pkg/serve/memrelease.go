package serve

import (
	"runtime/debug"
	"sync/atomic"
	"time"
)

// bigAllocBytes is the size of a body or line after which its memory is handed
// back to the OS soon (releaseSoon).
const bigAllocBytes = 1 << 20

var releasePending atomic.Bool

// releaseSoon returns freed memory to the OS two seconds after a large
// transient allocation (a multi-MiB body or stdio line), at most once per two
// seconds. Go's background scavenger gives it back over minutes, so a burst of
// large requests would otherwise stay in the process's RSS long after it.
// One forced GC per burst costs milliseconds; small requests never trigger it.
func releaseSoon(n int64) {
	if n < bigAllocBytes || !releasePending.CompareAndSwap(false, true) {
		return
	}
	time.AfterFunc(2*time.Second, func() {
		debug.FreeOSMemory()
		releasePending.Store(false)
	})
}
