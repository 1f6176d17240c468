package fake

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestConcurrentUse runs REST, websocket fan-out and the tick generator at
// once; its value is under -race.
func TestConcurrentUse(t *testing.T) {
	s, u := newTestServer(t, Config{TickInterval: time.Millisecond})
	tok := oauthLogin(t, s, u)
	c := dial(t, u.OAuthWS)
	send(t, c, map[string]string{"t": "a", "uid": "FA12345", "accesstoken": tok})
	recvType(t, c, "ak")
	send(t, c, map[string]string{"t": "o"})
	send(t, c, map[string]string{"t": "t", "k": "NSE|2885#NSE|1594#NSE|26000"})
	send(t, c, map[string]string{"t": "d", "k": "NSE|3045"})
	done := make(chan struct{})
	go func() { // drain
		defer close(done)
		for i := 0; i < 300; i++ {
			if _, _, err := c.Read(t.Context()); err != nil {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				lp, _ := s.LastPrice("NSE", "2885")
				body := placeBody("RELIANCE-EQ", "B", "LMT", 1, fmtPx(roundTick(lp, 0.05), 2), "None", fmt.Sprintf("g%d-%d", g, i))
				api(t, u, tok, "PlaceOrder", body)
				api(t, u, tok, "OrderBook", map[string]any{})
				api(t, u, tok, "PositionBook", map[string]any{})
				api(t, u, tok, "Limits", map[string]any{})
			}
		}()
	}
	wg.Wait()
	<-done
	if n := len(s.Ledger()); n != 40 {
		t.Fatalf("ledger %d", n)
	}
}
