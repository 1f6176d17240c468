package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
)

// faultRequest is a fault as POST /_fake/faults takes it: durations as Go
// durations ("1.5s") or latency_ms.
type faultRequest struct {
	Route     string `json:"route"`
	Kind      string `json:"kind"`
	Latency   string `json:"latency"` // Go duration, e.g. "1.5s"
	LatencyMS int    `json:"latency_ms"`
	Status    int    `json:"status"`
	Body      string `json:"body"`
	Hang      string `json:"hang"`
	Times     int    `json:"times"`
}

// serveControl is the test-control API under /_fake/ (loopback only, like
// the whole fake):
//
//	GET    /_fake/faults            active faults (fakeupstream.ServeFaults)
//	POST   /_fake/faults            {"route":"PlaceOrder","kind":"timeout","latency":"2s","status":502,"times":1} or a list
//	DELETE /_fake/faults[?route=R]  clear all (or one route)
//	POST   /_fake/sessions/expire   expire every token
//	POST   /_fake/ws/drop           drop every websocket
//	GET    /_fake/ledger            PlaceOrder ledger
//	POST   /_fake/tick              {"exch":"NSE","token":"2885","lp":1410.5,"qty":10}
//	POST   /_fake/fill              {"norenordno":"...","price":0}
//	POST   /_fake/oauth/code?uid=U  mint an OAuth auth code
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request, path string) {
	if path == "faults" {
		if rt := r.URL.Query().Get("route"); rt != "" && r.Method == http.MethodDelete {
			s.ClearFault(rt) // one route; ServeFaults's DELETE clears all
			writeJSON(w, http.StatusOK, map[string][]routed{"faults": s.faults.Faults()})
			return
		}
		fakeupstream.ServeFaults(w, r, &s.faults, checkFault, func(f routed) { s.SetFault(f.Route, f.Fault) })
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	switch {
	case path == "sessions/expire" && r.Method == http.MethodPost:
		s.ExpireSessions()
		writeJSON(w, http.StatusOK, map[string]string{"result": "expired"})
	case path == "ws/drop" && r.Method == http.MethodPost:
		s.DropWebsockets()
		writeJSON(w, http.StatusOK, map[string]string{"result": "dropped"})
	case path == "ledger" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, s.Ledger())
	case path == "tick" && r.Method == http.MethodPost:
		var t struct {
			Exch, Token string
			LP          float64 `json:"lp"`
			Qty         int64   `json:"qty"`
		}
		if err := json.Unmarshal(body, &t); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		if err := s.PushTick(Tick{Exch: t.Exch, Token: t.Token, LP: t.LP, Qty: t.Qty}); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"result": "ok"})
	case path == "fill" && r.Method == http.MethodPost:
		var f struct {
			NorenOrdNo string  `json:"norenordno"`
			Price      float64 `json:"price"`
		}
		_ = json.Unmarshal(body, &f)
		if err := s.FillOrder(f.NorenOrdNo, f.Price); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"result": "filled"})
	case path == "oauth/code" && r.Method == http.MethodPost:
		code, err := s.IssueAuthCode(r.URL.Query().Get("uid"))
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"code": code})
	default:
		http.NotFound(w, r)
	}
}

// UnmarshalJSON reads a faultRequest.
func (f *routed) UnmarshalJSON(b []byte) error {
	var fr faultRequest
	if err := json.Unmarshal(b, &fr); err != nil {
		return err
	}
	*f = routed{Route: normRoute(fr.Route), Fault: Fault{Kind: FaultKind(fr.Kind), Status: fr.Status, Body: fr.Body,
		Times: fr.Times, Latency: time.Duration(fr.LatencyMS) * time.Millisecond}}
	var err error
	if fr.Latency != "" {
		if f.Latency, err = time.ParseDuration(fr.Latency); err != nil {
			return errors.New("latency: " + err.Error())
		}
	}
	if fr.Hang != "" {
		if f.Hang, err = time.ParseDuration(fr.Hang); err != nil {
			return errors.New("hang: " + err.Error())
		}
	}
	return nil
}

// checkFault refuses a fault without a known kind.
func checkFault(f routed) error {
	if !knownKind(f.Kind) {
		return fmt.Errorf("unknown kind %q: want JSON {route, kind, ...}", f.Kind)
	}
	return nil
}

func knownKind(k FaultKind) bool {
	switch k {
	case FaultLatency, FaultTimeout, FaultCloseConn, FaultStatus, FaultMalformed, FaultTruncated,
		FaultSessionExpired, FaultRateLimit, FaultRefuse, FaultWSDrop:
		return true
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
