package fake

// Faults: injected statuses, latency, truncated and malformed bodies; the /_fake control routes.

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
)

// Fault is an injected failure. Status 0 with Latency > 0 only slows answers.
type Fault struct {
	Route      string `json:"route,omitempty"`   // one of the Route* names; "" = every API route
	Status     int    `json:"status,omitempty"`  // HTTP status to answer
	Message    string `json:"message,omitempty"` // body {"message": ...}; default per status
	Body       string `json:"body,omitempty"`    // raw body instead of Message
	Count      int    `json:"count,omitempty"`   // requests affected; 0 = until cleared
	LatencyMs  int    `json:"latencyMs,omitempty"`
	RetryAfter int    `json:"retryAfter,omitempty"` // seconds, sent as Retry-After
	Truncate   bool   `json:"truncate,omitempty"`   // announce a longer body than sent
	Malformed  bool   `json:"malformed,omitempty"`  // 200 with an unreadable body
}

// SetFault adds a fault (faults are checked in order; the first matching one applies).
func (s *Server) SetFault(f Fault) { s.faults.Add(f, f.Count) }

// ClearFaults removes every fault and the latency.
func (s *Server) ClearFaults() { s.faults.Clear() }

// SetLatency delays every answer.
func (s *Server) SetLatency(d time.Duration) { s.faults.SetLatency(d) }

// SetDocs replaces the docs page served at /.
func (s *Server) SetDocs(html []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs = html
}

// fault picks the first matching fault and consumes one use of it. A fault
// without a route spares the docs page and the stored images.
func (s *Server) fault(route string) (*Fault, time.Duration) {
	lat := s.faults.Latency()
	f, ok := s.faults.Take(func(f *Fault) bool {
		if f.Route == "" {
			return route != RouteDocs && route != RouteImage
		}
		return f.Route == route
	})
	if !ok {
		return nil, lat
	}
	if f.LatencyMs > 0 {
		lat += time.Duration(f.LatencyMs) * time.Millisecond
	}
	return &f, lat
}

// defaultMessages are the documented bodies per status (docs › Errors:
// doc.chart-img.com/#errors); 400, 404, 502 and 503 have none documented (assumed).
var defaultMessages = map[int]string{400: "Bad Request", 401: "Invalid Request", 403: "Forbidden", 404: "Not Found",
	409: "Session Disconnected", 422: "Invalid Request", 429: "Too Many Requests", 500: "Something Went Wrong",
	502: "Bad Gateway", 503: "Service Unavailable", 504: "External Request Timeout"}

// applyFault answers with an injected failure. Truncated and malformed bodies
// are test devices (assumed), not observed chart-img answers.
func (s *Server) applyFault(w http.ResponseWriter, route string, f *Fault) bool {
	switch {
	case f.Truncate:
		body := `{"updatedAt":"2024-07-08T00:00:00.106Z","payload":["BINANCE","NASDAQ","NYSE","FX"]}`
		ct := "application/json"
		if route == RouteChart || route == RouteLayout {
			body, ct = string(pngMagic)+strings.Repeat("x", 200), "image/png"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)+500))
		w.WriteHeader(200)
		_, _ = io.WriteString(w, body)
		return true
	case f.Malformed:
		if route == RouteChart || route == RouteLayout {
			w.Header().Set("Content-Type", "image/png")
			w.WriteHeader(200)
			_, _ = io.WriteString(w, "this is not an image")
			return true
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"updatedAt":"2024-07-08","payload":[{"symbol":`)
		return true
	case f.Status != 0:
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.Status)
		switch {
		case f.Body != "":
			_, _ = io.WriteString(w, f.Body)
		default:
			msg := f.Message
			if msg == "" {
				msg = defaultMessages[f.Status]
			}
			_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
		}
		return true
	}
	return false
}

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// control is the test API: /_fake/faults (fakeupstream.ServeFaults),
// POST /_fake/latency?ms=, GET /_fake/stats (request counts per route).
func (s *Server) control(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_fake/faults":
		fakeupstream.ServeFaults(w, r, &s.faults, nil, s.SetFault)
	case r.URL.Path == "/_fake/latency" && r.Method == http.MethodPost:
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		s.SetLatency(time.Duration(ms) * time.Millisecond)
		writeJSON(w, 200, map[string]int{"latencyMs": ms})
	case r.URL.Path == "/_fake/stats":
		out := map[string]int{}
		for k, c := range s.counts {
			out[k] = int(c.Load())
		}
		writeJSON(w, 200, out)
	default:
		msg(w, 404, "Not Found")
	}
}
