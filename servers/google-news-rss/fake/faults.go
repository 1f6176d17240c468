package fake

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// Faults switch the fake away from the happy path; the zero value is healthy.
type Faults struct {
	// Status answers search requests with this status. 429 and 503 carry the
	// "Sorry…" HTML page (ref: §1.6 "429 with HTML Sorry… body; and 503");
	// other statuses a short HTML error page (// assumed).
	Status int `json:"status,omitempty"`
	// RetryAfter is sent as Retry-After (seconds) with Status (// assumed:
	// Google is not known to send it).
	RetryAfter int `json:"retry_after,omitempty"`
	// Sorry answers 200 with the "Sorry…" HTML page (§1.5: "the body may be
	// HTML, not XML").
	Sorry bool `json:"sorry,omitempty"`
	// NonRSS answers 200 with an HTML page that is not a feed (§1.6 malformed).
	NonRSS bool `json:"non_rss,omitempty"`
	// Truncated cuts the feed's XML (§1.6 malformed: truncated XML).
	Truncated bool `json:"truncated,omitempty"`
	// SlowMS delays every search answer (§1.6 slow: > 10 s tests the timeout).
	SlowMS int `json:"slow_ms,omitempty"`
	// Unsupported redirects every search to /rss/unsupported, as if Google had
	// dropped the edition (§1.5).
	Unsupported bool `json:"unsupported,omitempty"`
	// Times limits the faults to the next N search requests; 0 = until cleared.
	Times int `json:"times,omitempty"`
}

// SetFaults replaces the active faults.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

// ClearFaults restores the healthy feed.
func (s *Server) ClearFaults() { s.SetFaults(Faults{}) }

// take returns the faults for one request and counts down Times. Caller holds mu.
func (f *Faults) take() Faults {
	cur := *f
	if f.Times > 0 {
		f.Times--
		if f.Times == 0 {
			*f = Faults{}
		}
	}
	return cur
}

func (f Faults) applyStatus(w http.ResponseWriter) bool {
	switch {
	case f.Status != 0:
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
		}
		w.WriteHeader(f.Status)
		if f.Status == http.StatusTooManyRequests || f.Status == http.StatusServiceUnavailable {
			_, _ = w.Write([]byte(sorryPage))
		} else {
			_, _ = w.Write([]byte("<html><body><h1>" + http.StatusText(f.Status) + "</h1></body></html>"))
		}
	case f.Sorry:
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		_, _ = w.Write([]byte(sorryPage))
	case f.NonRSS:
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		_, _ = w.Write([]byte(otherPage))
	default:
		return false
	}
	return true
}

// serveFaults: GET returns the active faults, POST sets them (JSON body),
// DELETE clears them.
func (s *Server) serveFaults(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
	case http.MethodPost:
		var f Faults
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&f); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "faults: " + err.Error()})
			return
		}
		s.SetFaults(f)
	case http.MethodDelete:
		s.ClearFaults()
	default:
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "use GET, POST or DELETE"})
		return
	}
	s.mu.Lock()
	f := s.faults
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, f)
}
