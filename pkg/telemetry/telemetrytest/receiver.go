// Package telemetrytest is a loopback OTLP/HTTP trace receiver for tests:
// what a collector would get from a server's exporter, decoded with the
// OpenTelemetry protocol's own Go types (go.opentelemetry.io/proto/otlp).
package telemetrytest

import (
	"compress/gzip"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Span is one exported span, flattened for assertions.
type Span struct {
	Service              string // the resource's service.name
	Name                 string
	Kind                 tracepb.Span_SpanKind
	TraceID, SpanID      string // lower-case hex
	ParentSpanID         string // "" for a root span
	TraceState           string
	Attrs                map[string]string // every value as text
	Links                []string          // "traceid-spanid" of each link
	StatusCode           tracepb.Status_StatusCode
	StatusMessage        string
	Events               []string // names and attributes, as text
	ResourceAttrs        map[string]string
	LinkAttrs, ScopeName string
}

// Receiver serves POST /v1/traces on loopback.
type Receiver struct {
	URL  string // the endpoint: set OTEL_EXPORTER_OTLP_ENDPOINT to it
	mu   sync.Mutex
	got  []Span
	bad  []string
	hits int
}

// Start starts a receiver, closed when the test ends.
func Start(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(req.Body)
		if err != nil {
			r.fail("gzip: " + err.Error())
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	data, err := io.ReadAll(body)
	var msg coltracepb.ExportTraceServiceRequest
	switch {
	case req.Method != http.MethodPost || req.URL.Path != "/v1/traces":
		err = fmt.Errorf("%s %s: not the OTLP traces route", req.Method, req.URL.Path)
	case req.Header.Get("Content-Type") != "application/x-protobuf":
		err = fmt.Errorf("content type %q, want application/x-protobuf", req.Header.Get("Content-Type"))
	case err == nil:
		err = proto.Unmarshal(data, &msg)
	}
	if err != nil {
		r.fail(err.Error())
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var spans []Span
	for _, rs := range msg.GetResourceSpans() {
		res := attrs(rs.GetResource().GetAttributes())
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				sp := Span{Service: res["service.name"], Name: s.GetName(), Kind: s.GetKind(),
					TraceID: hex.EncodeToString(s.GetTraceId()), SpanID: hex.EncodeToString(s.GetSpanId()),
					ParentSpanID: hex.EncodeToString(s.GetParentSpanId()), TraceState: s.GetTraceState(),
					Attrs: attrs(s.GetAttributes()), StatusCode: s.GetStatus().GetCode(), StatusMessage: s.GetStatus().GetMessage(),
					ResourceAttrs: res, ScopeName: ss.GetScope().GetName()}
				for _, l := range s.GetLinks() {
					sp.Links = append(sp.Links, hex.EncodeToString(l.GetTraceId())+"-"+hex.EncodeToString(l.GetSpanId()))
					sp.LinkAttrs += fmt.Sprint(attrs(l.GetAttributes()))
				}
				for _, e := range s.GetEvents() {
					sp.Events = append(sp.Events, e.GetName()+" "+fmt.Sprint(attrs(e.GetAttributes())))
				}
				spans = append(spans, sp)
			}
		}
	}
	r.mu.Lock()
	r.got = append(r.got, spans...)
	r.hits++
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	_, _ = w.Write(out)
}

func (r *Receiver) fail(msg string) {
	r.mu.Lock()
	r.bad = append(r.bad, msg)
	r.mu.Unlock()
}

func attrs(kvs []*commonpb.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[kv.GetKey()] = value(kv.GetValue())
	}
	return m
}

func value(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return fmt.Sprint(x.IntValue)
	case *commonpb.AnyValue_BoolValue:
		return fmt.Sprint(x.BoolValue)
	case *commonpb.AnyValue_DoubleValue:
		return fmt.Sprint(x.DoubleValue)
	case *commonpb.AnyValue_ArrayValue:
		var parts []string
		for _, e := range x.ArrayValue.GetValues() {
			parts = append(parts, value(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case *commonpb.AnyValue_BytesValue:
		return hex.EncodeToString(x.BytesValue)
	}
	return fmt.Sprint(v)
}

// Spans returns what was received so far; malformed exports fail t.
func (r *Receiver) Spans(t testing.TB) []Span {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.bad {
		t.Errorf("OTLP receiver: %s", b)
	}
	return append([]Span(nil), r.got...)
}

// Exports is the number of export requests received.
func (r *Receiver) Exports() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits
}

// WaitFor waits until a received span satisfies ok, failing t after d.
func (r *Receiver) WaitFor(t testing.TB, d time.Duration, what string, ok func(Span) bool) Span {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		for _, s := range r.Spans(t) {
			if ok(s) {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no exported span is %s within %s; got %d spans: %+v", what, d, len(r.Spans(t)), r.Spans(t))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Text is every string of a span (names, attributes, status, events, links,
// resource) for scanning against canaries.
func (s Span) Text() string {
	return fmt.Sprintf("%s %v %s %v %s %s %v %s", s.Name, s.Attrs, s.StatusMessage, s.Events, s.LinkAttrs, s.TraceState, s.ResourceAttrs, s.ScopeName)
}
