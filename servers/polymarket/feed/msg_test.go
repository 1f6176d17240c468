package feed

import (
	"testing"
)

// The docs' examples (docs.polymarket.com/market-data/websocket/market-channel:
// book, price_change, last_trade_price, the last moved onto the book's asset)
// and the tick_size_change fields of docs.polymarket.com/developers/CLOB/websocket/market-channel,
// merged into quotes.
const (
	docBook = `{"event_type":"book","asset_id":"65818619657568813474341868652308942079804919287380422192892211131408793125422",
 "market":"0xbd31dc8a20211944f6b70f31557f1001557b59905b7738480ca09bd4532f84af",
 "bids":[{"price":".48","size":"30"},{"price":".49","size":"20"},{"price":".50","size":"15"}],
 "asks":[{"price":".52","size":"25"},{"price":".53","size":"60"},{"price":".54","size":"10"}],
 "timestamp":"123456789000","hash":"0x0...."}`
	docChange = `{"market":"0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1","price_changes":[
 {"asset_id":"71321045679252212594626385532706912750332728571942532289631379312455583992563","price":"0.5","size":"200","side":"BUY","hash":"56621a121a47ed9333273e21c83b660cff37ae50","best_bid":"0.5","best_ask":"1"},
 {"asset_id":"52114319501245915516055106046884209969926127482827954674443846427813813222426","price":"0.5","size":"200","side":"SELL","hash":"1895759e4df7a796bf4f1c5a5950b748306923e2","best_bid":"0","best_ask":"0.5"}],
 "timestamp":"1757908892351","event_type":"price_change"}`
	capTrade = `{"asset_id":"65818619657568813474341868652308942079804919287380422192892211131408793125422","event_type":"last_trade_price","fee_rate_bps":"0",
 "market":"0xbd31dc8a20211944f6b70f31557f1001557b59905b7738480ca09bd4532f84af","price":"0.456","side":"BUY","size":"219.217767","timestamp":"1750428146322","transaction_hash":"0xeeefff"}`
	docTick = `{"event_type":"tick_size_change","asset_id":"65818619657568813474341868652308942079804919287380422192892211131408793125422",
 "market":"0xbd31dc8a20211944f6b70f31557f1001557b59905b7738480ca09bd4532f84af","old_tick_size":"0.01","new_tick_size":"0.001","timestamp":"100000000"}`
)

func TestParseAndMerge(t *testing.T) {
	s := NewStore()
	a := "65818619657568813474341868652308942079804919287380422192892211131408793125422"
	yes := "71321045679252212594626385532706912750332728571942532289631379312455583992563"
	no := "52114319501245915516055106046884209969926127482827954674443846427813813222426"
	for _, id := range []string{a, yes, no} {
		s.Track(id)
	}
	for _, frame := range []string{"[" + docBook + "]", docChange, capTrade, docTick, "PONG", "  "} {
		evs, err := Parse([]byte(frame))
		if err != nil {
			t.Fatalf("%s: %v", frame, err)
		}
		for _, ev := range evs {
			s.Apply(ev)
		}
	}
	q, _ := s.Get(a)
	if *q.BestBid != 0.5 || *q.BestAsk != 0.52 || *q.Mid != 0.51 || *q.Spread != 0.02 || len(q.Bids) != 3 || q.Bids[0] != [2]float64{0.5, 15} ||
		q.Asks[0] != [2]float64{0.52, 25} || *q.LastPrice != 0.456 || q.LastSide != "BUY" || *q.TickSize != 0.001 || q.Updates != 3 || !q.HaveBook {
		t.Fatalf("%+v", q)
	}
	// price_change's best_bid/best_ask are the quote's; a best bid of 0 is a price, not a gap
	qn, _ := s.Get(no)
	if qn.BestBid == nil || *qn.BestBid != 0 || *qn.BestAsk != 0.5 || qn.Market != "0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1" || qn.HaveBook {
		t.Fatalf("%+v", qn)
	}
	qy, _ := s.Get(yes)
	if len(qy.Bids) != 1 || qy.Bids[0] != [2]float64{0.5, 200} {
		t.Fatalf("%+v", qy)
	}
	// a level of size 0 leaves the book
	s.Apply(Event{EventType: EventPriceChange, Changes: []Change{{AssetID: a, Price: ".50", Size: "0", Side: "BUY", BestBid: "0.49", BestAsk: "0.52"}}})
	if q, _ := s.Get(a); len(q.Bids) != 2 || *q.BestBid != 0.49 {
		t.Fatalf("%+v", q)
	}
	// an untracked asset changes nothing
	if ch := s.Apply(Event{EventType: EventBook, AssetID: "1"}); len(ch) != 0 {
		t.Fatal(ch)
	}
	for _, bad := range []string{"{", "[1", "hello"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Fatalf("%q parsed", bad)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{docBook, docChange, capTrade, docTick, "[" + docBook + "]", "PONG", "[]", "{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		evs, err := Parse(b)
		if err != nil {
			return
		}
		s := NewStore()
		for _, ev := range evs {
			s.Track(ev.AssetID)
			for _, c := range ev.Changes {
				s.Track(c.AssetID)
			}
			s.Apply(ev)
			if q, ok := s.Get(ev.AssetID); ok && len(q.Bids) > Depth {
				t.Fatal("more levels than Depth")
			}
		}
	})
}
