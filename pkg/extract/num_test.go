package extract

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

func TestNum(t *testing.T) {
	tests := []struct {
		in      string
		want    float64
		wantErr bool
	}{
		{`1234.5`, 1234.5, false}, {`"1234.50"`, 1234.5, false}, {`""`, 0, false}, {`null`, 0, false},
		{`" 7 "`, 7, false}, {`"-0.05"`, -0.05, false}, {`"1e3"`, 1000, false}, {`"1,23,456.00"`, 123456, false},
		{`"-"`, 0, false}, {`0`, 0, false},
		{`"abc"`, 0, true}, {`"NaN"`, 0, true}, {`"Inf"`, 0, true}, {`"infinity"`, 0, true}, {`"0x10"`, 0, true},
		{`true`, 0, true}, {`[1]`, 0, true}, {`{}`, 0, true}, {`"1e999"`, 0, true}, {`"1.2.3"`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var n Num
			err := json.Unmarshal([]byte(tt.in), &n)
			if tt.wantErr {
				wantErr(t, err, envelope.UpstreamError, "expected")
				return
			}
			if err != nil || float64(n) != tt.want {
				t.Fatalf("got %v, %v; want %v", n, err, tt.want)
			}
		})
	}
	b, _ := json.Marshal(struct {
		A Num `json:"a"`
		B Num `json:"b"`
	}{1234.5, 0})
	if string(b) != `{"a":1234.5,"b":0}` {
		t.Errorf("marshal = %s", b)
	}
}

func TestNumInStruct(t *testing.T) {
	type quote struct {
		LP  Num `json:"lp"`
		Vol Int `json:"v"`
	}
	q, err := Object[quote]([]byte(`{"stat":"Ok","lp":"118.55","v":"4249172.00"}`))
	if err != nil || q.LP != 118.55 || q.Vol != 4249172 {
		t.Fatalf("got %+v, %v", q, err)
	}
	_, err = Object[quote]([]byte(`{"lp":"n/a"}`))
	wantErr(t, err, envelope.UpstreamError, `expected a number, got "n/a"`)
}

func TestInt(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{`42`, 42, false}, {`"42"`, 42, false}, {`"+42"`, 42, false}, {`"4249172.00"`, 4249172, false}, {`1e3`, 1000, false},
		{`""`, 0, false}, {`null`, 0, false}, {`"-7"`, -7, false}, {`9007199254740993`, 9007199254740993, false},
		{`"1.5"`, 0, true}, {`"abc"`, 0, true}, {`1e30`, 0, true}, {`false`, 0, true}, {`"NaN"`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var n Int
			err := json.Unmarshal([]byte(tt.in), &n)
			if tt.wantErr {
				wantErr(t, err, envelope.UpstreamError, "expected")
				return
			}
			if err != nil || int64(n) != tt.want {
				t.Fatalf("got %v, %v; want %v", n, err, tt.want)
			}
		})
	}
	b, _ := json.Marshal([]Int{1, -2})
	if string(b) != `[1,-2]` {
		t.Errorf("marshal = %s", b)
	}
}

func TestJSONStrings(t *testing.T) {
	type candle struct {
		Time  string `json:"time"`
		Close Num    `json:"intc"`
	}
	tests := []struct {
		name    string
		in      string
		want    JSONStrings[candle]
		wantErr bool
	}{
		{"noren eod", `["{\"time\":\"21-SEP-2022\",\"intc\":\"2509.75\"}","{\"time\":\"22-SEP-2022\",\"intc\":\"2510\"}"]`,
			JSONStrings[candle]{{"21-SEP-2022", 2509.75}, {"22-SEP-2022", 2510}}, false},
		{"real objects", `[{"time":"t","intc":1}]`, JSONStrings[candle]{{"t", 1}}, false},
		{"null and empty skipped", `[null,"", "{\"time\":\"t\"}"]`, JSONStrings[candle]{{Time: "t"}}, false},
		{"null", `null`, JSONStrings[candle]{}, false},
		{"empty", `[]`, JSONStrings[candle]{}, false},
		{"bad inner", `["{not json"]`, nil, true},
		{"inner wrong type", `["[1,2]"]`, nil, true},
		{"object", `{"a":1}`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got JSONStrings[candle]
			err := json.Unmarshal([]byte(tt.in), &got)
			if tt.wantErr {
				wantErr(t, err, envelope.UpstreamError, "")
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
	b, _ := json.Marshal(JSONStrings[candle]{{"t", 1.5}})
	if string(b) != `[{"time":"t","intc":1.5}]` {
		t.Errorf("marshal = %s", b)
	}
	if b, _ := json.Marshal(JSONStrings[candle](nil)); string(b) != `[]` {
		t.Errorf("nil marshal = %s", b)
	}
}

func TestStringList(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    StringList
		wantErr bool
	}{
		{"string-encoded", `"[\"Yes\",\"No\"]"`, StringList{"Yes", "No"}, false},
		{"real array", `["Yes","No"]`, StringList{"Yes", "No"}, false},
		{"prices as numbers", `"[0.5, 1]"`, StringList{"0.5", "1"}, false},
		{"token ids", `"[\"71321045679252212594626385532706912750332728571942532289631379312455583992563\"]"`,
			StringList{"71321045679252212594626385532706912750332728571942532289631379312455583992563"}, false},
		{"empty string", `""`, StringList{}, false},
		{"null", `null`, StringList{}, false},
		{"null inside string", `"null"`, StringList{}, false},
		{"empty list", `"[]"`, StringList{}, false},
		{"not a list", `"Yes"`, nil, true},
		{"broken", `"[\"Yes\""`, nil, true},
		{"nested", `"[[1]]"`, nil, true},
		{"number", `5`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got StringList
			err := json.Unmarshal([]byte(tt.in), &got)
			if tt.wantErr {
				wantErr(t, err, envelope.UpstreamError, "")
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v, %v; want %#v", got, err, tt.want)
			}
		})
	}
	b, _ := json.Marshal(struct{ O StringList }{StringList{"Yes", "No"}})
	if string(b) != `{"O":["Yes","No"]}` {
		t.Errorf("marshal = %s", b)
	}
}

func BenchmarkNum(b *testing.B) {
	inputs := [][]byte{[]byte(`"1234.50"`), []byte(`118.55`), []byte(`""`), []byte(`"4249172.00"`)}
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range inputs {
			var n Num
			if err := n.UnmarshalJSON(in); err != nil {
				b.Fatal(err)
			}
		}
	}
}
