package fake

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

func TestLoopbackOnly(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("listening on a non-loopback address did not panic")
		}
	}()
	New(Options{}).StartAt("0.0.0.0:0")
}

// The control API switches faults over HTTP; the book keeps the CLOB's order.
func TestControlAndBookOrder(t *testing.T) {
	s := New(Options{})
	base, stop := s.Start()
	defer stop()
	_, _, _, tok := s.Market(4)
	get := func(path string) (int, []byte) {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(res.Body)
		return res.StatusCode, b.Bytes()
	}
	st, body := get("/book?token_id=" + tok[0])
	var bk struct {
		Bids, Asks []struct{ Price string }
	}
	if st != 200 || json.Unmarshal(body, &bk) != nil || bk.Bids[0].Price >= bk.Bids[len(bk.Bids)-1].Price || bk.Asks[0].Price <= bk.Asks[len(bk.Asks)-1].Price {
		t.Fatalf("%d %s", st, body)
	}
	res, err := http.Post(base+"/_fake/faults", "application/json", bytes.NewReader([]byte(`{"kind":"425","route":"clob_book","count":1}`)))
	if err != nil || res.StatusCode != 200 {
		t.Fatal(err, res.StatusCode)
	}
	res.Body.Close()
	if st, _ := get("/book?token_id=" + tok[0]); st != 425 {
		t.Fatalf("fault not applied: %d", st)
	}
	if st, _ := get("/book?token_id=" + tok[0]); st != 200 {
		t.Fatalf("count=1 fault did not clear: %d", st)
	}
	if st, body := get("/book?token_id=123"); st != 404 || !bytes.Contains(body, []byte("No orderbook exists")) {
		t.Fatalf("%d %s", st, body)
	}
	if st, _ := get("/markets?offset=10001"); st != 422 {
		t.Fatalf("deep offset: %d", st)
	}
	if st, body := get("/positions?user=0x12"); st != 400 || !bytes.Contains(body, []byte("Invalid user address")) {
		t.Fatalf("%d %s", st, body)
	}
}
