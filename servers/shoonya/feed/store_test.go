package feed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
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
		`{"t":"tf","e":"NSE","tk":"11630","h":null,"ap":"","ts":""}`, // null and "" leave the stored values
		`{"t":"tf","e":"NSE","tk":"99999","lp":"1.00"}`,              // not tracked: dropped
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
	if got.TradingSymbol != "NTPC-EQ" || got.Ticks != 4 {
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
		{`null`, true, "", "", 0},
		{`"x"`, true, "", "", 0},
		{`{"t":"tf"} x`, true, "", "", 0},
		{`{"t":"tf","e":"NSE","tk":"22","lp":"1e999"}`, true, "", "", 0},
		{`{"t":"tf","e":"NSE","tk":"22","lp":1e999}`, true, "", "", 0},
		{`{"t":"tf","e":"NSE","tk":"22","lp":"NaN"}`, true, "", "", 0},
		{`{"t":"tf","e":"NSE","tk":"22","lp":true}`, true, "", "", 0},
		{`{"t":"tf","e":"NSE","tk":"22","lp":[1]}`, true, "", "", 0},
		{`{"t":"tf","e":"NSE","tk":22}`, true, "", "", 0}, // token is a string on the wire
		{`{"t":"tf","e":"NSE","tk":"22","lp":"1\u0030","v":"-5","ltq":"+2"}`, false, "tf", "NSE", 3},
		{`{"t":"tf","e":"NSE","tk":"22","x":{"y":[1,2]},"lp":"1"}`, false, "tf", "NSE", 1}, // unknown keys are skipped whatever they hold
		{`{"t":"tf","e":"NSE","tk":"22","lp":"1","lp":"2"}`, false, "tf", "NSE", 1},
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
	if m.TS != "M&M-EQ" {
		t.Errorf("escaped symbol decoded as %q", m.TS)
	}
	_ = m.Decode([]byte(`{"t":"tf","e":"NSE","tk":"22","lp":"1\u0030","lp":"2","v":162220}`))
	if m.vals[fLP] != 2 || m.vals[fV] != 162220 {
		t.Errorf("lp %v v %v, want 2 and 162220", m.vals[fLP], m.vals[fV])
	}
}

// wireSlots is every numeric wire key and its slot (ShoonyaApi-py README).
var wireSlots = map[string]int{
	"lp": fLP, "pc": fPC, "v": fV, "o": fO, "h": fH, "l": fL, "c": fC, "ap": fAP,
	"oi": fOI, "poi": fPOI, "toi": fTOI, "ltq": fLTQ, "tbq": fTBQ, "tsq": fTSQ, "uc": fUC, "lc": fLC,
	"52h": f52H, "52l": f52L, "ft": fFT, "pp": fPP, "ti": fTI, "ls": fLS,
	"bp1": fBP1, "bp2": fBP2, "bp3": fBP3, "bp4": fBP4, "bp5": fBP5,
	"sp1": fSP1, "sp2": fSP2, "sp3": fSP3, "sp4": fSP4, "sp5": fSP5,
	"bq1": fBQ1, "bq2": fBQ2, "bq3": fBQ3, "bq4": fBQ4, "bq5": fBQ5,
	"sq1": fSQ1, "sq2": fSQ2, "sq3": fSQ3, "sq4": fSQ4, "sq5": fSQ5,
	"bo1": fBO1, "bo2": fBO2, "bo3": fBO3, "bo4": fBO4, "bo5": fBO5,
	"so1": fSO1, "so2": fSO2, "so3": fSO3, "so4": fSO4, "so5": fSO5,
}

// TestDecodeSlots: each wire key lands in its own slot, alone or all at once.
func TestDecodeSlots(t *testing.T) {
	if len(wireSlots) != nFields {
		t.Fatalf("%d wire keys for %d slots", len(wireSlots), nFields)
	}
	all := map[string]string{"t": "df", "e": "NSE", "tk": "22"}
	for key, slot := range wireSlots {
		val := fmt.Sprintf("%d.25", slot+1)
		all[key] = val
		var m Msg
		if err := m.Decode(fmt.Appendf(nil, `{"t":"df","e":"NSE","tk":"22",%q:%q}`, key, val)); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if m.has != 1<<slot || m.vals[slot] != float64(slot+1)+0.25 {
			t.Errorf("%s: has %b vals[%d] %v", key, m.has, slot, m.vals[slot])
		}
	}
	b, _ := json.Marshal(all)
	var m Msg
	if err := m.Decode(b); err != nil || m.Fields() != nFields {
		t.Fatalf("all keys: %v, %d fields", err, m.Fields())
	}
	for key, slot := range wireSlots {
		if m.vals[slot] != float64(slot+1)+0.25 {
			t.Errorf("all keys: %s = %v", key, m.vals[slot])
		}
	}
}

// FuzzDecode: Decode never panics and agrees with encoding/json's own
// generic decode (object keys in order, struct keys matched as
// encoding/json does, case-insensitively) on whether the frame is accepted,
// its string fields, which numeric fields it set and their values.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"t":"tk","e":"NSE","tk":"11630","lp":"118.55","bp1":"1","sq5":"2"}`,
		`{"t":"tf","e":"NSE","tk":"11630","lp":118.45,"v":null,"ap":""}`,
		`{"t":"tf","LP":"1","lp":"2","Lp":null}`, `{"t":"ck","s":"OK","uid":"FA1"}`,
		`{"ts":"A\u0026B","lp":"1\u0030"}`, `{"lp":"1e999"}`, `{"lp":"0x1p3"}`, `{"lp":"NaN"}`,
		`{"lp":true}`, `{"tk":22}`, `{"x":[{}]}`, `[]`, `null`, " null\n", `{`, `{"":""}`, `{} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Msg
		err := m.Decode(b)
		want, ok := genericDecode(b)
		if (err == nil) != ok {
			t.Fatalf("%q: Decode err %v, encoding/json accepts: %v", b, err, ok)
		}
		if !ok {
			return
		}
		got := map[string]string{"t": m.T, "e": m.E, "tk": m.TK, "ts": m.TS, "ltt": m.LTT, "s": m.S, "uid": m.UID}
		for k, v := range want.strs {
			if got[k] != v {
				t.Fatalf("%q: %s = %q, want %q", b, k, got[k], v)
			}
		}
		if m.has != want.has {
			t.Fatalf("%q: set %b, want %b", b, m.has, want.has)
		}
		for slot := 0; slot < nFields; slot++ {
			if m.has&(1<<slot) != 0 && m.vals[slot] != want.vals[slot] {
				t.Fatalf("%q: slot %d = %v, want %v", b, slot, m.vals[slot], want.vals[slot])
			}
		}
	})
}

type decoded struct {
	strs map[string]string
	has  uint64
	vals [nFields]float64
}

// genericDecode is the fuzz oracle: the frame through json.Decoder into
// generic values, each applied to the field its key names.
func genericDecode(b []byte) (decoded, bool) {
	d := decoded{strs: map[string]string{"t": "", "e": "", "tk": "", "ts": "", "ltt": "", "s": "", "uid": ""}}
	if !json.Valid(b) {
		return d, false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return d, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return d, false
		}
		key := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return d, false
		}
		matched := false
		for name := range d.strs {
			if strings.EqualFold(key, name) {
				matched = true
				switch v := v.(type) {
				case nil:
				case string:
					d.strs[name] = v
				default:
					return d, false
				}
			}
		}
		for name, slot := range wireSlots {
			if matched || !strings.EqualFold(key, name) {
				continue
			}
			var s string
			switch v := v.(type) {
			case nil:
				continue
			case string:
				s = v
			case json.Number:
				s = string(v)
			default:
				return d, false
			}
			if s == "" {
				continue
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return d, false
			}
			d.vals[slot], d.has = x, d.has|1<<slot
		}
	}
	return d, true
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
