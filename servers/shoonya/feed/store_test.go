package feed

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"
)

func TestMergePartialUpdates(t *testing.T) {
	s := NewStore()
	s.Track("NSE", "11630")
	frames := []string{
		`{"t":"tk","e":"NSE","tk":"11630","ts":"NTPC-EQ","pp":"2","ls":"1","ti":"0.05","lp":"118.55","h":"118.65","l":"118.10","ap":"118.39","v":"162220","bp1":"118.45","sp1":"118.50","bq1":"26","sq1":"6325"}`,
		`{"t":"tf","e":"NSE","tk":"11630","lp":"118.45","ap":"118.40","v":"166637","sp1":"118.55","bq1":"3135","sq1":"30"}`,
		`{"t":"tf","e":"NSE","tk":"11630","lp":"118.60"}`,
		`{"t":"tf","e":"NSE","tk":"99999","lp":"1.00"}`, // not tracked: dropped
	}
	var m Msg
	for _, f := range frames {
		if err := m.Decode([]byte(f)); err != nil {
			t.Fatalf("decode %s: %v", f, err)
		}
		s.Merge(&m)
	}
	got, ok := s.Snapshot("NSE", "11630")
	if !ok {
		t.Fatal("no snapshot")
	}
	checks := []struct {
		name string
		got  *float64
		want float64
	}{
		{"lp", got.LastPrice, 118.60}, {"h", got.High, 118.65}, {"ap", got.AvgPrice, 118.40}, {"v", got.Volume, 166637},
	}
	for _, c := range checks {
		if c.got == nil || *c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if got.TradingSymbol != "NTPC-EQ" || got.Ticks != 3 {
		t.Errorf("tsym %q ticks %d", got.TradingSymbol, got.Ticks)
	}
	if len(got.Bids) != 1 || got.Bids[0].Price != 118.45 || got.Bids[0].Quantity != 3135 {
		t.Errorf("bids %+v", got.Bids)
	}
	if len(got.Asks) != 1 || got.Asks[0].Price != 118.55 || got.Asks[0].Quantity != 30 {
		t.Errorf("asks %+v", got.Asks)
	}
	if got.Close != nil {
		t.Errorf("close never sent, got %v", *got.Close)
	}
	if _, ok := s.Snapshot("NSE", "99999"); ok {
		t.Error("untracked instrument has a snapshot")
	}
}

func TestDecodeFrames(t *testing.T) {
	cases := []struct {
		in      string
		wantErr bool
		t, e    string
		n       int
	}{
		{`{"t":"ck","s":"OK","uid":"FA12345"}`, false, "ck", "", 0},
		{`{"t":"ak","uid":"FA12345","s":"OK"}`, false, "ak", "", 0},
		{` { "t" : "tf" , "e":"NSE","tk":"22","lp":1166.5 } `, false, "tf", "NSE", 1},
		{`{"t":"df","e":"NSE","tk":"22","o":"1166.00","bp1":"1156.00","sq5":"94"}`, false, "df", "NSE", 3},
		{`{"t":"tf","e":"NSE","tk":"22","lp":""}`, false, "tf", "NSE", 0},
		{`{"t":"tf","e":"NSE","tk":"22","lp":null}`, false, "tf", "NSE", 0},
		{`{"t":"tf","e":"NSE","tk":"22","ts":"M\u0026M-EQ"}`, false, "tf", "NSE", 0},
		{`{}`, false, "", "", 0},
		{`{"t":"tf","e":"NSE","tk":"22","lp":"abc"}`, true, "", "", 0},
		{`{"t":"tf","e":"NSE","tk":"22","lp":"1"`, true, "", "", 0},
		{`[1,2]`, true, "", "", 0},
		{`{"t":{"x":1}}`, true, "", "", 0},
		{``, true, "", "", 0},
		{`{"t":"tf"} x`, true, "", "", 0},
	}
	for _, c := range cases {
		var m Msg
		err := m.Decode([]byte(c.in))
		if (err != nil) != c.wantErr {
			t.Errorf("%s: err %v, wantErr %v", c.in, err, c.wantErr)
			continue
		}
		if err == nil && (string(m.T) != c.t || string(m.E) != c.e || m.Fields() != c.n) {
			t.Errorf("%s: got t=%q e=%q n=%d", c.in, m.T, m.E, m.Fields())
		}
	}
	var m Msg
	_ = m.Decode([]byte(`{"t":"tf","e":"NSE","tk":"22","ts":"M\u0026M-EQ"}`))
	if string(m.TS) != "M&M-EQ" {
		t.Errorf("escaped symbol decoded as %q", m.TS)
	}
}

func TestSnapshotJSON(t *testing.T) {
	s := NewStore()
	s.Track("NSE", "22")
	var m Msg
	_ = m.Decode([]byte(`{"t":"tk","e":"NSE","tk":"22","lp":"10.5"}`))
	s.Merge(&m)
	b, _ := json.Marshal(s.All())
	var back []map[string]any
	if err := json.Unmarshal(b, &back); err != nil || len(back) != 1 || back[0]["last_price"] != 10.5 {
		t.Fatalf("snapshot json %s (%v)", b, err)
	}
}

// FuzzDecodeMerge: no frame may panic the decoder or the merge.
func FuzzDecodeMerge(f *testing.F) {
	for _, s := range []string{
		`{"t":"tk","e":"NSE","tk":"11630","lp":"118.55","bp1":"1","sq5":"2"}`,
		`{"t":"tf","e":"NSE","tk":"11630","lp":118.45}`,
		`{"t":"ck","s":"OK"}`, `{"t":"tf","e":"NSE","tk":"1","ts":"A\u0026B"}`, `{`, `{"":""}`,
	} {
		f.Add([]byte(s))
	}
	s := NewStore()
	s.Track("NSE", "11630")
	s.Track("NSE", "1")
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Msg
		if err := m.Decode(b); err != nil {
			return
		}
		s.Merge(&m)
		if _, err := json.Marshal(s.All()); err != nil {
			t.Fatalf("snapshot does not encode after %q: %v", b, err)
		}
	})
}

// frames builds n instruments' worth of realistic tf frames.
func benchFrames(n int) [][]byte {
	out := make([][]byte, 0, n*4)
	for i := 0; i < n; i++ {
		tk := 1000 + i
		out = append(out,
			fmt.Appendf(nil, `{"t":"tf","e":"NSE","tk":"%d","lp":"%d.45","v":"%d","bq1":"3135","sq1":"30"}`, tk, 100+i%50, 160000+i),
			fmt.Appendf(nil, `{"t":"tf","e":"NSE","tk":"%d","lp":"%d.60"}`, tk, 100+i%50),
			fmt.Appendf(nil, `{"t":"df","e":"NSE","tk":"%d","bp1":"%d.40","bp2":"%d.35","sp1":"%d.50","bq1":"12","sq1":"40","tbq":"120952","tsq":"113700"}`, tk, 100+i%50, 100+i%50, 100+i%50),
			fmt.Appendf(nil, `{"t":"tf","e":"NSE","tk":"%d","lp":"%d.55","ap":"%d.40","v":"%d","sp1":"%d.55","bq1":"3135","sq1":"30","ltq":"5"}`, tk, 100+i%50, 100+i%50, 170000+i, 100+i%50),
		)
	}
	return out
}

// BenchmarkMerge measures decode + merge of one frame into a store of 1,000
// instruments on one goroutine (goal: ≥500k ticks/s, i.e. ≤2µs/op).
func BenchmarkMerge(b *testing.B) {
	stop := make(chan struct{})
	defer close(stop)
	s := NewStore()
	s.UseClock(NewCoarseClock(time.Millisecond, stop)) // as the Hub does
	for i := 0; i < 1000; i++ {
		s.Track("NSE", fmt.Sprint(1000+i))
	}
	frames := benchFrames(1000)
	var m Msg
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := m.Decode(frames[i%len(frames)]); err != nil {
			b.Fatal(err)
		}
		s.Merge(&m)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ticks/s")
}

// FuzzParseNum: the fast path agrees with strconv.ParseFloat bit for bit.
func FuzzParseNum(f *testing.F) {
	for _, s := range []string{"118.45", "0", "-1.5", "162220", "1e5", ".5", "5.", "00012.3400", "999999999999999", "1234567890123456", "NaN", "", "-", "."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseNum([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || want != want || want > 1e308 || want < -1e308 {
			if ok && err != nil {
				t.Fatalf("%q accepted as %v, strconv says %v", s, got, err)
			}
			return
		}
		if !ok || got != want {
			t.Fatalf("%q: fast %v (%v), strconv %v", s, got, ok, want)
		}
	})
}
