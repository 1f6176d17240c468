package feed

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Options tune a Conn; zero values take the defaults.
type Options struct {
	URL string
	// PingEvery is the text PING keep-alive (docs: every 10 s); a socket
	// silent for three of them is taken as dead and reconnected.
	PingEvery time.Duration
	// MinBackoff and MaxBackoff bound the wait between reconnects
	// (exponential, jittered); after MaxFailures dials in a row fail the
	// socket gives up until the next subscribe.
	MinBackoff, MaxBackoff time.Duration
	MaxFailures            int
	// IdleClose closes the socket this long after its last asset is
	// unsubscribed (a quick re-subscribe reuses it).
	IdleClose time.Duration
	// MaxAssets caps the assets on the one socket (third-party: 500 per
	// connection).
	MaxAssets int
}

func (o Options) withDefaults() Options {
	if o.PingEvery <= 0 {
		o.PingEvery = 10 * time.Second
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 250 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 15 * time.Second
	}
	if o.MaxFailures <= 0 {
		o.MaxFailures = 8
	}
	if o.IdleClose <= 0 {
		o.IdleClose = 30 * time.Second
	}
	if o.MaxAssets <= 0 {
		o.MaxAssets = 500
	}
	return o
}

// Status describes the socket for results and resources.
type Status struct {
	Connected  bool   `json:"connected"`
	Reconnects int    `json:"reconnects"`
	LastError  string `json:"last_error,omitempty"` // says "gave up" when the dials stopped
	Events     int64  `json:"events"`
	Assets     int    `json:"-"`
	Failures   int    `json:"-"` // failed dials in a row
	GaveUp     bool   `json:"-"`
}

// Conn is the process's one market socket: it opens when an asset is
// wanted, subscribes to every wanted asset (again after each reconnect),
// merges events into the Store, pings, and closes when nothing has been
// wanted for IdleClose.
type Conn struct {
	opt      Options
	store    *Store
	onChange func(asset, market string)

	wmu     sync.Mutex // orders frames: the opening subscribe before any update
	mu      sync.Mutex
	want    map[string]bool
	ws      *websocket.Conn
	running bool
	idleAt  time.Time // when want became empty
	st      Status
	kick    chan struct{}
	done    chan struct{} // closed when the run loop ends; replaced per run
}

// NewConn makes a socket merging into store; onChange hears every changed
// asset (with its condition id).
func NewConn(opt Options, store *Store, onChange func(asset, market string)) *Conn {
	return &Conn{opt: opt.withDefaults(), store: store, onChange: onChange, want: map[string]bool{},
		kick: make(chan struct{}, 1)}
}

// ErrTooMany refuses assets past the socket's cap.
var ErrTooMany = errors.New("too many assets")

// Add wants assets, starting the socket (under ctx, the process's life) if
// it is not running.
func (c *Conn) Add(ctx context.Context, assets []string) error {
	c.mu.Lock()
	var fresh []string
	for _, a := range assets {
		if !c.want[a] {
			fresh = append(fresh, a)
		}
	}
	if len(c.want)+len(fresh) > c.opt.MaxAssets {
		c.mu.Unlock()
		return fmt.Errorf("%w: the market socket carries at most %d assets and %d are subscribed", ErrTooMany, c.opt.MaxAssets, len(c.want))
	}
	for _, a := range fresh {
		c.want[a] = true
		c.store.Track(a)
	}
	c.st.Assets = len(c.want)
	ws := c.ws
	start := !c.running
	if start {
		c.running, c.st.GaveUp, c.st.Failures = true, false, 0
		c.done = make(chan struct{})
		go c.run(ctx, c.done)
	}
	c.mu.Unlock()
	if ws != nil && len(fresh) > 0 {
		c.write(ctx, ws, updateFrame("subscribe", fresh))
	}
	return nil
}

// Remove stops wanting assets; the socket closes IdleClose after the last.
func (c *Conn) Remove(ctx context.Context, assets []string) {
	c.mu.Lock()
	var gone []string
	for _, a := range assets {
		if c.want[a] {
			delete(c.want, a)
			c.store.Drop(a)
			gone = append(gone, a)
		}
	}
	c.st.Assets = len(c.want)
	if len(c.want) == 0 {
		c.idleAt = time.Now()
	}
	ws := c.ws
	c.mu.Unlock()
	if ws != nil && len(gone) > 0 {
		c.write(ctx, ws, updateFrame("unsubscribe", gone))
	}
	c.wake()
}

// Status is the socket's state now.
func (c *Conn) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.st
}

// Done is closed when the current run loop has ended (nil before the first).
func (c *Conn) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

func (c *Conn) wake() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *Conn) write(ctx context.Context, ws *websocket.Conn, frame []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_ = ws.Write(wctx, websocket.MessageText, frame) // a failed write drops the socket; the reconnect resubscribes
}

// run dials, serves and redials until nothing is wanted, the dials keep
// failing, or ctx ends.
func (c *Conn) run(ctx context.Context, done chan struct{}) {
	defer close(done)
	failures := 0
	for {
		err := c.serve(ctx)
		c.mu.Lock()
		c.ws, c.st.Connected = nil, false
		if ctx.Err() != nil || len(c.want) == 0 { // idle, or emptied while it was down
			c.running = false
			c.mu.Unlock()
			return
		}
		switch {
		case errors.Is(err, errDial):
			failures++
		case errors.Is(err, errIdle): // something was wanted again as it closed
		default:
			failures = 0
			c.st.Reconnects++
		}
		c.st.Failures = failures
		if err != nil && !errors.Is(err, errIdle) {
			c.st.LastError = err.Error()
		}
		if failures >= c.opt.MaxFailures {
			c.st.GaveUp, c.running = true, false
			c.st.LastError = fmt.Sprintf("gave up after %d failed connects in a row: %v", failures, err)
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-time.After(c.backoff(failures)):
		}
	}
}

func (c *Conn) backoff(failures int) time.Duration {
	d := c.opt.MinBackoff << min(failures, 16)
	if d > c.opt.MaxBackoff || d <= 0 {
		d = c.opt.MaxBackoff
	}
	return d/2 + rand.N(d/2+1)
}

var (
	errDial = errors.New("connect failed")
	errIdle = errors.New("idle")
)

// serve runs one connection until it drops, goes silent, or idles out.
func (c *Conn) serve(ctx context.Context) error {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	ws, _, err := websocket.Dial(dctx, c.opt.URL, nil)
	cancel()
	if err != nil {
		return fmt.Errorf("%w: %v", errDial, err)
	}
	ws.SetReadLimit(4 << 20) // a full book of a deep market is larger than the 32 KiB default
	defer ws.CloseNow()

	c.wmu.Lock()
	c.mu.Lock()
	assets := make([]string, 0, len(c.want))
	for a := range c.want {
		assets = append(assets, a)
	}
	c.ws, c.st.Connected = ws, true
	c.mu.Unlock()
	sort.Strings(assets)
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
	err = ws.Write(wctx, websocket.MessageText, subscribeFrame(assets))
	wcancel()
	c.wmu.Unlock()
	if err != nil {
		return fmt.Errorf("subscribe: %v", err)
	}

	rctx, rcancel := context.WithCancel(ctx)
	defer rcancel()
	frames := make(chan error, 1)
	var last time.Time
	var lastMu sync.Mutex
	go func() {
		for {
			_, b, err := ws.Read(rctx)
			if err != nil {
				frames <- err
				return
			}
			lastMu.Lock()
			last = time.Now()
			lastMu.Unlock()
			c.handle(b)
		}
	}()
	ping := time.NewTicker(c.opt.PingEvery)
	defer ping.Stop()
	lastMu.Lock()
	last = time.Now()
	lastMu.Unlock()
	var idle *time.Timer // runs while nothing is wanted
	var idleC <-chan time.Time
	defer func() {
		if idle != nil {
			idle.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-frames:
			return fmt.Errorf("socket dropped: %v", err)
		case <-ping.C:
			lastMu.Lock()
			silent := time.Since(last)
			lastMu.Unlock()
			if silent > 3*c.opt.PingEvery {
				return fmt.Errorf("socket silent for %s", silent.Round(time.Second))
			}
			c.write(ctx, ws, []byte("PING"))
		case <-c.kick:
		case <-idleC:
			idle, idleC = nil, nil
		}
		c.mu.Lock()
		empty, since := len(c.want) == 0, time.Since(c.idleAt)
		c.mu.Unlock()
		switch {
		case empty && since >= c.opt.IdleClose:
			_ = ws.Close(websocket.StatusNormalClosure, "idle")
			return errIdle
		case empty && idle == nil:
			idle = time.NewTimer(c.opt.IdleClose - since)
			idleC = idle.C
		case !empty && idle != nil:
			idle.Stop()
			idle, idleC = nil, nil
		}
	}
}

// handle merges one frame; a malformed one is skipped (the next book or
// change restates the state).
func (c *Conn) handle(b []byte) {
	evs, err := Parse(b)
	if err != nil {
		return
	}
	for _, ev := range evs {
		changed := c.store.Apply(ev)
		c.mu.Lock()
		c.st.Events++
		c.mu.Unlock()
		for _, ch := range changed {
			if c.onChange != nil {
				c.onChange(ch[0], ch[1])
			}
		}
	}
}
