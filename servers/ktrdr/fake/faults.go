package fake

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
)

// Backend versions the fake can answer as (kpiteira/ktrdr commits).
const (
	// BackendHEAD is 2c5c7173 (2026-04-14): POST /data/acquire/download (flat;
	// tail/backfill/full only), no POST /data/load (bare 404), the envelope 422,
	// 503 with an object detail when no training worker is registered, cancel
	// answers with remote_cancelled/children_cancelled, agent_* types and the
	// resuming status.
	BackendHEAD = "head"
	// Backend3ba55e75 is 3ba55e75 (2025-10-05): POST /data/load (envelope; all
	// four modes), POST /data/acquire/download answers 405 (the path matches GET
	// /data/{symbol}/{timeframe}), FastAPI's default 422, no limit on market
	// data, cancel answers with training_session_cancelled.
	Backend3ba55e75 = "3ba55e75"
)

// Faults switch the fake away from the happy path. The zero value is a healthy
// backend answering as Options.Backend (default HEAD).
type Faults struct {
	// Backend overrides Options.Backend: BackendHEAD or Backend3ba55e75.
	Backend string `json:"backend,omitempty"`
	// LatencyMS delays every backend answer (the request's context still cancels it).
	LatencyMS int `json:"latency_ms,omitempty"`
	// Status answers every backend request with this HTTP status: 500 (envelope
	// INTERNAL_SERVER_ERROR), 503 (envelope CONNECTION_ERROR), 502/504 (a proxy's
	// HTML page), 422 (a validation error in the Validation shape), or any other
	// code with {"detail": "<status text>"}.
	Status int `json:"status,omitempty"`
	// Malformed answers 200 with a truncated JSON body.
	Malformed bool `json:"malformed,omitempty"`
	// OldShape answers POST /data/acquire/download with the 3ba55e75 envelope
	// ({"success","data":{"operation_id",…},"error"}) instead of HEAD's flat body,
	// and GET /data/{symbol}/{timeframe} ignores `limit` (3ba55e75 had none).
	OldShape bool `json:"old_shape,omitempty"`
	// MissingID drops the operation id from data-load and training-start answers.
	MissingID bool `json:"missing_id,omitempty"`
	// SuccessFalse answers the POST routes with 200 {"success":false,"error":{…}}.
	SuccessFalse bool `json:"success_false,omitempty"`
	// NoWorkers answers POST /trainings/start with HEAD's 503 (no training
	// workers); a 3ba55e75 backend trains in process and never sends it.
	NoWorkers bool `json:"no_workers,omitempty"`
	// Validation overrides the 422 body: "fastapi" (3ba55e75's) or "envelope"
	// (HEAD's custom handler); empty follows the backend version.
	Validation string `json:"validation,omitempty"`
	// ModelFileMissing makes POST /models/{name}/load answer model_loaded false,
	// as the backend does when a listed model's file is gone.
	ModelFileMissing bool `json:"model_file_missing,omitempty"`
	// PathPrefix limits Status, Malformed and LatencyMS to backend paths starting
	// with it (after /api/v1), e.g. "/operations"; empty means every route.
	PathPrefix string `json:"path_prefix,omitempty"`
}

// SetFaults replaces the active faults. They are a state of the backend, not
// a sequence: they apply until replaced or cleared.
func (s *Server) SetFaults(f Faults) { s.faults.Replace(nil, f, 0) }

// Faults returns the active faults.
func (s *Server) Faults() Faults {
	f, _ := s.faults.Take(nil) // uses 0: taking consumes nothing
	return f
}

// ClearFaults restores the healthy backend.
func (s *Server) ClearFaults() { s.faults.Clear() }

func (f Faults) head() bool { return f.Backend != Backend3ba55e75 }

func (f Faults) applies(path string) bool {
	return f.PathPrefix == "" || strings.HasPrefix(path, f.PathPrefix)
}

// writeFaultStatus answers with the status fault's body, shaped like the real
// source of such an answer.
func writeFaultStatus(w http.ResponseWriter, status int, f Faults) {
	switch status {
	case 422:
		// A backend of another version requiring a field the client does not send.
		validation(w, f, verr{[]any{"body", "symbol"}, "Field required", "missing", map[string]any{}})
	case 500:
		// The catch-all exception handler's envelope (ktrdr/api/main.py).
		writeJSON(w, 500, envelopeError("INTERNAL_SERVER_ERROR", "An unexpected error occurred", map[string]any{}))
	case 503:
		// ConnectionError → 503 envelope (kpiteira/ktrdr ktrdr/api/main.py exception handlers).
		writeJSON(w, 503, envelopeError("CONNECTION_ERROR", "Failed to connect to IB Gateway", map[string]any{"host": "127.0.0.1", "port": 4002}))
	case 502, 504:
		// assumed: a reverse proxy's HTML error page in front of the backend.
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		_, _ = w.Write([]byte("<html><body><h1>" + http.StatusText(status) + "</h1></body></html>"))
	default:
		writeJSON(w, status, map[string]any{"detail": http.StatusText(status)})
	}
}

// handleControl serves the test-control routes under /_fake/.
//
//	GET    /_fake/faults          the active faults (fakeupstream.ServeFaults)
//	POST   /_fake/faults          replace them, as SetFaults (JSON Faults; {} heals)
//	DELETE /_fake/faults          heal
//	POST   /_fake/operations/{id}/finish   end a running op now ({"error": "..."} fails it)
func (s *Server) handleControl(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/_fake")
	switch {
	case path == "/faults":
		fakeupstream.ServeFaults(w, r, &s.faults, nil, s.SetFaults)
	case strings.HasPrefix(path, "/operations/") && strings.HasSuffix(path, "/finish") && r.Method == http.MethodPost:
		id := strings.TrimSuffix(strings.TrimPrefix(path, "/operations/"), "/finish")
		var body struct {
			Error string `json:"error"`
		}
		_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&body)
		if !s.Finish(id, body.Error) {
			writeJSON(w, 404, map[string]any{"detail": "Operation not found or not active: " + id})
			return
		}
		writeJSON(w, 200, map[string]any{"operation_id": id})
	default:
		writeJSON(w, 404, map[string]any{"detail": "Not Found"})
	}
}
