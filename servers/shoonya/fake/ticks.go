package fake

import (
	"fmt"
	"time"
)

// tickLoop advances every active token (subscribed on a websocket, or with
// a working order) one random-walk step per interval.
func (s *Server) tickLoop(every time.Duration) {
	defer s.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			keys := s.hub.subscribedKeys()
			for _, k := range append(s.restingKeys(), s.alertKeys()...) {
				keys = appendUnique(keys, k)
			}
			for _, k := range keys {
				s.mkt.step(k)
				s.afterPrice(k)
			}
		}
	}
}

func appendUnique(list []string, k string) []string {
	for _, v := range list {
		if v == k {
			return list
		}
	}
	return append(list, k)
}

func (s *Server) afterPrice(key string) {
	s.mu.Lock()
	s.onPriceLocked(key)
	s.fireAlertsLocked(key)
	s.mu.Unlock()
	s.hub.publish(key)
}

// Tick is a trade pushed by a test.
type Tick struct {
	Exch  string
	Token string
	LP    float64 // last traded price
	Qty   int64   // last traded quantity; 0 → random lot multiple
}

// PushTick applies a trade at t.LP: websocket subscribers get tf/df with the
// changed fields and working orders that cross are filled.
func (s *Server) PushTick(t Tick) error {
	key := t.Exch + "|" + t.Token
	if t.LP <= 0 || !s.mkt.set(key, t.LP, t.Qty) {
		return fmt.Errorf("%w: %s", errUnknownScrip, key)
	}
	s.afterPrice(key)
	return nil
}

// SetPrice moves exch|token to lp (PushTick with a random quantity).
func (s *Server) SetPrice(exch, token string, lp float64) error {
	return s.PushTick(Tick{Exch: exch, Token: token, LP: lp})
}

// LastPrice returns the simulated last price of exch|token.
func (s *Server) LastPrice(exch, token string) (float64, bool) { return s.mkt.last(exch + "|" + token) }

// Instrument looks up the master by exchange and trading symbol.
func (s *Server) Instrument(exch, tsym string) (Instrument, bool) {
	in := s.cat.bySymbol(exch, tsym)
	if in == nil {
		return Instrument{}, false
	}
	return *in, true
}
