package fake

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// wsHub tracks live websocket connections for fan-out and forced drops.
type wsHub struct {
	s     *Server
	mu    sync.Mutex
	conns map[*wsConn]struct{}
}

func newHub(s *Server) *wsHub { return &wsHub{s: s, conns: map[*wsConn]struct{}{}} }

// wsConn is one client socket. Frames go out through a single writer
// goroutine so a snapshot (tk) always precedes its updates (tf).
type wsConn struct {
	hub    *wsHub
	c      *websocket.Conn
	era    Era
	out    chan []byte
	cancel context.CancelFunc

	mu     sync.Mutex
	uid    string
	authed bool
	orders bool
	touch  map[string]map[string]string // key → fields last sent (tk/tf)
	depth  map[string]map[string]string // key → fields last sent (dk/df)
}

// serveWS accepts a feed connection on either era's path.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request, era Era) {
	if f, ok := s.take("ws"); ok {
		if f.Latency > 0 && !s.sleep(r.Context(), f.Latency) {
			return
		}
		switch f.Kind {
		case FaultWSDrop, FaultStatus:
			st := f.Status
			if st == 0 {
				st = http.StatusBadGateway
			}
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(st)
			_, _ = w.Write([]byte(badGatewayHTML))
			return
		}
	}
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	wc := &wsConn{hub: s.hub, c: c, era: era, out: make(chan []byte, 4096), cancel: cancel,
		touch: map[string]map[string]string{}, depth: map[string]map[string]string{}}
	s.hub.mu.Lock()
	select {
	case <-s.stop:
		s.hub.mu.Unlock()
		c.CloseNow()
		cancel()
		return
	default:
	}
	s.hub.conns[wc] = struct{}{}
	s.hub.mu.Unlock()
	defer func() {
		s.hub.mu.Lock()
		delete(s.hub.conns, wc)
		s.hub.mu.Unlock()
		cancel()
		c.CloseNow()
	}()
	go wc.writeLoop(ctx)
	c.SetReadLimit(1 << 20)
	for {
		_, data, err := c.Read(ctx) // also answers PING ({"t":"h"} payload) with PONG
		if err != nil {
			return
		}
		if !wc.handle(data) {
			return
		}
	}
}

func (wc *wsConn) writeLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case b := <-wc.out:
			wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := wc.c.Write(wctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				wc.cancel()
				return
			}
		}
	}
}

// send queues a frame; a client too slow to drain 4096 frames is dropped.
func (wc *wsConn) send(m map[string]string) {
	b, _ := json.Marshal(m)
	select {
	case wc.out <- b:
	default:
		wc.cancel()
	}
}

func (wc *wsConn) sendAny(m map[string]any) {
	b, _ := json.Marshal(m)
	select {
	case wc.out <- b:
	default:
		wc.cancel()
	}
}

// handle processes one client frame; false closes the connection.
func (wc *wsConn) handle(data []byte) bool {
	s := wc.hub.s
	var msg map[string]any
	if err := json.Unmarshal(data, &msg); err != nil {
		return true // Noren ignores junk
	}
	str := func(k string) string { v, _ := msg[k].(string); return v }
	t := str("t")
	switch t {
	case "c", "a":
		token := str("susertoken")
		if t == "a" {
			token = firstOf(str("accesstoken"), str("usertoken"), str("susertoken"))
		}
		ack := map[string]string{"t": t + "k", "uid": str("uid")}
		sess := s.lookupSession(token)
		if sess == nil || (str("uid") != "" && str("uid") != sess.uid) {
			ack["s"], ack["emsg"] = "Not_Ok", EmsgSessionExpired
			wc.send(ack)
			return true
		}
		wc.mu.Lock()
		wc.authed, wc.uid = true, sess.uid
		wc.orders = wc.orders || s.cfg.WSOrdersUnasked
		wc.mu.Unlock()
		ack["s"] = s.cfg.WSAckStatus
		wc.send(ack)
		return true
	}
	wc.mu.Lock()
	authed := wc.authed
	wc.mu.Unlock()
	if !authed {
		return true // frames before a valid connect are ignored
	}
	switch t {
	case "h":
		if s.cfg.WSAnswerHeartbeat {
			wc.send(map[string]string{"t": "h"})
		}
	case "t", "d":
		for _, key := range splitKeys(str("k")) {
			f := s.mkt.fields(key, t == "d")
			if f == nil {
				continue
			}
			snap := copyFields(f)
			snap["t"] = t + "k"
			// Queue under the lock so the snapshot precedes any tf/df.
			wc.mu.Lock()
			if t == "t" {
				wc.touch[key] = f
			} else {
				wc.depth[key] = f
			}
			wc.send(snap)
			wc.mu.Unlock()
		}
	case "u", "ud":
		keys := splitKeys(str("k"))
		wc.mu.Lock()
		for _, key := range keys {
			if t == "u" {
				delete(wc.touch, key)
			} else {
				delete(wc.depth, key)
			}
		}
		if !s.cfg.WSNoUnsubscribeAcks {
			wc.send(map[string]string{"t": t + "k", "k": str("k")})
		}
		wc.mu.Unlock()
	case "o": // source: ShoonyaApi-py README subscribe_orders(): acknowledged {"t":"ok"}
		wc.mu.Lock()
		wc.orders = true
		wc.mu.Unlock()
		wc.send(map[string]string{"t": "ok"})
	case "uo":
		wc.mu.Lock()
		wc.orders = false
		wc.mu.Unlock()
		wc.send(map[string]string{"t": "uok"})
	}
	return true
}

func splitKeys(k string) []string {
	var out []string
	for _, p := range strings.Split(k, "#") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func copyFields(f map[string]string) map[string]string {
	out := make(map[string]string, len(f)+1)
	for k, v := range f {
		out[k] = v
	}
	return out
}

// diff returns the changed fields of cur against last, with e and tk always.
func diff(last, cur map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range cur {
		if last[k] != v {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	out["e"], out["tk"] = cur["e"], cur["tk"]
	return out
}

// publish sends tf/df partial updates for key to every subscriber.
func (h *wsHub) publish(key string) {
	h.mu.Lock()
	conns := make([]*wsConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	var tl, dp map[string]string
	for _, c := range conns {
		c.mu.Lock()
		lastT, subT := c.touch[key]
		lastD, subD := c.depth[key]
		var msgs []map[string]string
		if subT {
			if tl == nil {
				tl = h.s.mkt.fields(key, false)
			}
			if d := diff(lastT, tl); d != nil {
				c.touch[key] = tl
				d["t"] = "tf"
				msgs = append(msgs, d)
			}
		}
		if subD {
			if dp == nil {
				dp = h.s.mkt.fields(key, true)
			}
			if d := diff(lastD, dp); d != nil {
				c.depth[key] = dp
				d["t"] = "df"
				msgs = append(msgs, d)
			}
		}
		for _, m := range msgs { // queued under the lock: ordered against tk/uk
			c.send(m)
		}
		c.mu.Unlock()
	}
}

// pushOrder sends an "om" frame to the user's order-subscribed sockets: the
// OrderBook element's fields with rpt renamed reporttype, plus flid, flqty,
// flprc and fltm on a Fill (fillLocked).
// source: ShoonyaApi-py README subscribe_orders() ("Order Update subscription
// Updates" table: norenordno … reporttype, fillshares, avgprc, fltm, flid,
// flqty, flprc (Fill only), rejreason, exchordid, cancelqty, remarks, exch_tm);
// NorenApi.py hands every t == "om" frame to order_update_callback.
// assumed: the OrderBook-only fields (pp, ti, ls, norentm…) ride along; the
// README table neither lists nor excludes them, and clients ignore them.
func (h *wsHub) pushOrder(uid string, view map[string]any) {
	m := make(map[string]any, len(view)+2)
	for k, v := range view {
		if k == "rpt" {
			m["reporttype"] = v
			continue
		}
		m[k] = v
	}
	m["t"] = "om"
	h.pushUpdate(uid, m)
}

// pushUpdate sends m to the user's order-subscribed sockets (om, am).
func (h *wsHub) pushUpdate(uid string, m map[string]any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.conns {
		c.mu.Lock()
		ok := c.authed && c.orders && c.uid == uid
		c.mu.Unlock()
		if ok {
			c.sendAny(m)
		}
	}
}

// subscribedKeys is the union of every socket's touchline and depth keys.
func (h *wsHub) subscribedKeys() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for c := range h.conns {
		c.mu.Lock()
		for _, m := range []map[string]map[string]string{c.touch, c.depth} {
			for k := range m {
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
		c.mu.Unlock()
	}
	return out
}

// dropAll closes every socket abruptly (no close frame), like a network drop.
func (h *wsHub) dropAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.conns {
		c.cancel()
		c.c.CloseNow()
	}
}

// DropWebsockets drops every live websocket (to test reconnect + resubscribe).
func (s *Server) DropWebsockets() { s.hub.dropAll() }

// WebsocketCount reports live websocket connections.
func (s *Server) WebsocketCount() int {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	return len(s.hub.conns)
}

var errUnknownScrip = errors.New("fake: unknown scrip")
