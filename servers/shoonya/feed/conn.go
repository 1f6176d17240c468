package feed

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// Auth supplies the current Noren session for the socket's login frame.
type Auth func() (*noren.Auth, bool)

// Options tune a Conn; zero values take defaults.
type Options struct {
	URL          string
	PingEvery    time.Duration // control-frame ping; 0 → 5s
	AckTimeout   time.Duration // wait for ck/ak; 0 → 5s
	MinBackoff   time.Duration // 0 → 100ms
	MaxBackoff   time.Duration // 0 → 5s
	SubBatchSize int           // scrips per subscribe frame; 0 → 100 (openalgo's batching)
}

func (o Options) withDefaults() Options {
	if o.PingEvery <= 0 {
		o.PingEvery = 5 * time.Second
	}
	if o.AckTimeout <= 0 {
		o.AckTimeout = 5 * time.Second
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 100 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 5 * time.Second
	}
	if o.SubBatchSize <= 0 {
		o.SubBatchSize = 100
	}
	return o
}

// Status describes a socket for results and resources.
type Status struct {
	Connected  bool   `json:"connected"`
	Reconnects int    `json:"reconnects"`
	LastError  string `json:"last_error,omitempty"`
	Touchline  int    `json:"touchline_subscriptions"`
	Depth      int    `json:"depth_subscriptions"`
	// OrderUpdates: the broker acknowledged the order-update subscription (conn_updates.go).
	OrderUpdates bool `json:"order_updates_subscribed,omitempty"`
}

// Conn is one account's broker websocket: it connects and logs in (c/ck in
// the legacy era, a/ak in OAuth), keeps the connection alive with pings,
// merges t/d frames into the Store, and on any drop reconnects with backoff
// and subscribes again to everything that was subscribed (the official
// Python client does not: NorenApi.py leaves __resubscribe commented out).
type Conn struct {
	opt   Options
	auth  Auth
	Store *Store

	mu    sync.Mutex
	touch map[string]bool
	depth map[string]bool
	ws    *websocket.Conn
	st    Status
	kick  chan struct{} // wake the run loop (re-login)

	// Updates takes order-update and alert frames (conn_updates.go); nil drops them.
	Updates   func(frame []byte)
	orders    bool // the order-update subscription is wanted
	ordersAck bool
}

// NewConn makes a socket; call Run to start it.
func NewConn(opt Options, auth Auth, store *Store) *Conn {
	return &Conn{opt: opt.withDefaults(), auth: auth, Store: store,
		touch: map[string]bool{}, depth: map[string]bool{}, kick: make(chan struct{}, 1)}
}

// Status returns the socket's state.
func (c *Conn) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.st
	s.Touchline, s.Depth = len(c.touch), len(c.depth)
	s.OrderUpdates = c.ordersAck
	return s
}

// Kick makes a waiting run loop try again now (after a new login).
func (c *Conn) Kick() {
	c.mu.Lock()
	ws := c.ws
	c.mu.Unlock()
	if ws != nil {
		ws.CloseNow() // the new token must be used: reconnect
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// Subscribe adds keys ("NSE|22") for touchline, or depth when depth is true,
// and sends the subscription if the socket is up (else the next connect does).
func (c *Conn) Subscribe(ctx context.Context, keys []string, depth bool) error {
	c.mu.Lock()
	set := c.touch
	if depth {
		set = c.depth
	}
	var fresh []string
	for _, k := range keys {
		if !set[k] {
			set[k] = true
			fresh = append(fresh, k)
		}
		if e, tk, ok := SplitKey(k); ok {
			c.Store.Track(e, tk)
		}
	}
	ws := c.ws
	c.mu.Unlock()
	if ws == nil || len(fresh) == 0 {
		return nil
	}
	t := "t"
	if depth {
		t = "d"
	}
	return c.sendKeys(ctx, ws, t, fresh)
}

// Unsubscribe removes keys; the snapshot is forgotten when neither feed remains.
func (c *Conn) Unsubscribe(ctx context.Context, keys []string, depth bool) error {
	c.mu.Lock()
	set := c.touch
	if depth {
		set = c.depth
	}
	var gone []string
	for _, k := range keys {
		if set[k] {
			delete(set, k)
			gone = append(gone, k)
		}
		if !c.touch[k] && !c.depth[k] {
			if e, tk, ok := SplitKey(k); ok {
				c.Store.Untrack(e, tk)
			}
		}
	}
	ws := c.ws
	c.mu.Unlock()
	if ws == nil || len(gone) == 0 {
		return nil
	}
	t := "u"
	if depth {
		t = "ud"
	}
	return c.sendKeys(ctx, ws, t, gone)
}

// Subscribed lists the touchline and depth keys.
func (c *Conn) Subscribed() (touch, depth []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.touch {
		touch = append(touch, k)
	}
	for k := range c.depth {
		depth = append(depth, k)
	}
	return touch, depth
}

func (c *Conn) sendKeys(ctx context.Context, ws *websocket.Conn, t string, keys []string) error {
	for i := 0; i < len(keys); i += c.opt.SubBatchSize {
		j := min(i+c.opt.SubBatchSize, len(keys))
		b, _ := json.Marshal(map[string]string{"t": t, "k": strings.Join(keys[i:j], "#")})
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := ws.Write(wctx, websocket.MessageText, b)
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// ErrAckRefused means the broker refused the feed login (a non-OK ck/ak):
// the loop waits for a new login instead of hammering the broker.
var ErrAckRefused = errors.New("feed: the broker refused the websocket login")

// Run keeps the socket up until ctx ends.
func (c *Conn) Run(ctx context.Context) {
	backoff := c.opt.MinBackoff
	for ctx.Err() == nil {
		start := time.Now()
		err := c.session(ctx)
		c.mu.Lock()
		c.ws = nil
		c.st.Connected = false
		c.ordersAck = false
		if err != nil && ctx.Err() == nil {
			c.st.LastError = err.Error()
		}
		c.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		if time.Since(start) > 10*time.Second {
			backoff = c.opt.MinBackoff // it was up for a while: start over
		}
		wait := backoff/2 + time.Duration(rand.Int64N(int64(backoff)))
		if errors.Is(err, ErrAckRefused) || errors.Is(err, errNoAuth) {
			wait = time.Hour // until Kick (a new login)
		}
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
			backoff = c.opt.MinBackoff
			continue
		case <-time.After(wait):
		}
		c.mu.Lock()
		c.st.Reconnects++
		c.mu.Unlock()
		backoff = min(backoff*2, c.opt.MaxBackoff)
	}
}

var errNoAuth = errors.New("feed: not logged in")

// session runs one connection: dial, login, resubscribe, read until error.
func (c *Conn) session(ctx context.Context) error {
	a, ok := c.auth()
	if !ok {
		return errNoAuth
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	ws, _, err := websocket.Dial(dctx, c.opt.URL, nil)
	cancel()
	if err != nil {
		return err
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)
	login := map[string]string{"t": "c", "uid": a.UID, "actid": a.ActID, "susertoken": a.Token, "source": "API"}
	if a.Era == noren.OAuth {
		login = map[string]string{"t": "a", "uid": a.UID, "actid": a.ActID, "accesstoken": a.Token, "source": "API"}
	}
	b, _ := json.Marshal(login)
	if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
		return err
	}
	if err := c.awaitAck(ctx, ws); err != nil {
		return err
	}
	c.mu.Lock()
	c.ws = ws
	c.st.Connected = true
	c.st.LastError = ""
	touch := keysOf(c.touch)
	depth := keysOf(c.depth)
	c.mu.Unlock()
	if err := c.sendKeys(ctx, ws, "t", touch); err != nil {
		return err
	}
	if err := c.sendKeys(ctx, ws, "d", depth); err != nil {
		return err
	}
	if err := c.resubscribeOrders(ctx, ws, a); err != nil {
		return err
	}
	rctx, rcancel := context.WithCancel(ctx)
	defer rcancel()
	go c.pinger(rctx, ws)
	var m Msg
	for {
		_, data, err := ws.Read(rctx)
		if err != nil {
			return err
		}
		if err := m.Decode(data); err != nil || isUpdateFrame(m.T) {
			c.takeUpdate(m.T, data) // a garbled tick is dropped, the socket stays up
			continue
		}
		c.Store.Merge(&m)
	}
}

func (c *Conn) awaitAck(ctx context.Context, ws *websocket.Conn) error {
	actx, cancel := context.WithTimeout(ctx, c.opt.AckTimeout)
	defer cancel()
	var m Msg
	for {
		_, data, err := ws.Read(actx)
		if err != nil {
			return err
		}
		if err := m.Decode(data); err != nil || isUpdateFrame(m.T) {
			c.takeUpdate(m.T, data)
			continue
		}
		switch m.T {
		case "ck", "ak":
			if strings.EqualFold(m.S, "OK") {
				return nil
			}
			return ErrAckRefused
		default:
			c.Store.Merge(&m) // frames may race the ack
		}
	}
}

func (c *Conn) pinger(ctx context.Context, ws *websocket.Conn) {
	t := time.NewTicker(c.opt.PingEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, c.opt.PingEvery)
			err := ws.Ping(pctx)
			cancel()
			if err != nil {
				ws.CloseNow()
				return
			}
		}
	}
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
