package fake

import (
	"encoding/json"
	"io"
	"net/http"
	"time"
)

// faultRequest is the JSON body of POST /_fake/faults.
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
//	GET    /_fake/faults            active faults
//	POST   /_fake/faults            {"route":"PlaceOrder","kind":"timeout","latency":"2s","status":502,"times":1}
//	DELETE /_fake/faults[?route=R]  clear all (or one route)
//	POST   /_fake/sessions/expire   expire every token
//	POST   /_fake/ws/drop           drop every websocket
//	GET    /_fake/ledger            PlaceOrder ledger
//	POST   /_fake/tick              {"exch":"NSE","token":"2885","lp":1410.5,"qty":10}
//	POST   /_fake/fill              {"norenordno":"...","price":0}
//	POST   /_fake/oauth/code?uid=U  mint an OAuth auth code
func (s *Server) serveControl(w http.ResponseWriter, r *http.Request, path string) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	switch {
	case path == "faults" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, s.Faults())
	case path == "faults" && r.Method == http.MethodPost:
		var fr faultRequest
		if err := json.Unmarshal(body, &fr); err != nil || fr.Kind == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "want JSON {route, kind, ...}"})
			return
		}
		f := Fault{Kind: FaultKind(fr.Kind), Status: fr.Status, Body: fr.Body, Times: fr.Times,
			Latency: time.Duration(fr.LatencyMS) * time.Millisecond}
		if fr.Latency != "" {
			d, err := time.ParseDuration(fr.Latency)
			if err != nil {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "latency: " + err.Error()})
				return
			}
			f.Latency = d
		}
		if fr.Hang != "" {
			d, err := time.ParseDuration(fr.Hang)
			if err != nil {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "hang: " + err.Error()})
				return
			}
			f.Hang = d
		}
		if !knownKind(f.Kind) {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unknown kind " + fr.Kind})
			return
		}
		s.SetFault(fr.Route, f)
		writeJSON(w, http.StatusOK, s.Faults())
	case path == "faults" && r.Method == http.MethodDelete:
		if rt := r.URL.Query().Get("route"); rt != "" {
			s.ClearFault(rt)
		} else {
			s.ClearFaults()
		}
		writeJSON(w, http.StatusOK, s.Faults())
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

func knownKind(k FaultKind) bool {
	switch k {
	case FaultLatency, FaultTimeout, FaultCloseConn, FaultStatus, FaultMalformed, FaultTruncated,
		FaultSessionExpired, FaultRateLimit, FaultWSDrop:
		return true
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
