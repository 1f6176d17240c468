package fake

import (
	"net/http"
	"strings"
	"time"
)

// The model catalog the fake serves. Lifecycle facts from OpenAI's
// deprecations page (https://developers.openai.com/api/docs/deprecations):
// gpt-5, gpt-5-mini, gpt-5-nano and their -2025-08-07 snapshots shut down on
// 2026-12-11 (notice 2026-06-11); gpt-4o, gpt-4o-mini, gpt-4.1 and
// gpt-4.1-mini on 2027-01-14 (notice 2026-10-14); gpt-4.1-nano and o4-mini
// on 2026-10-23; gpt-5.1 on 2027-04-01. Current ids from the API
// reference's model list (gpt-6-*, gpt-5.6-*, gpt-5.5, gpt-5.4*).
// The same page documents shutdown_date ("YYYY-MM-DD" or null) on
// GET /v1/models and GET /v1/models/{id}. Unknown and shut-down models
// answer 404 model_not_found with the message recorded in public reports
// ("The model `…` does not exist or you do not have access to it.").
var catalog = map[string]string{ // id → shutdown date ("" none announced)
	"gpt-6-astra": "", "gpt-6.1-sol": "", "gpt-6-sol": "", "gpt-6-luna": "", "gpt-6.1-terra": "",
	"gpt-5.6-sol": "", "gpt-5.6-terra": "", "gpt-5.6-luna": "", "gpt-5.5": "", "gpt-5.4": "", "gpt-5.4-mini": "",
	"gpt-5.4-nano": "", "gpt-5.2": "", "gpt-5.1": "2027-04-01",
	"gpt-5": "2026-12-11", "gpt-5-2025-08-07": "2026-12-11", "gpt-5-mini": "2026-12-11", "gpt-5-mini-2025-08-07": "2026-12-11",
	"gpt-5-nano": "2026-12-11", "gpt-5-nano-2025-08-07": "2026-12-11",
	"gpt-4o": "2027-01-14", "gpt-4o-mini": "2027-01-14", "gpt-4.1": "2027-01-14", "gpt-4.1-mini": "2027-01-14",
	"gpt-4.1-nano": "2026-10-23", "o4-mini": "2026-10-23",
	"o3": "", "o3-pro": "", "gpt-5-pro": "", "gpt-6.2-sol": "", "gpt-6.2-astra": "",
}

// SetModel adds a model or changes its shutdown date ("" none announced).
func (s *Server) SetModel(id, shutdown string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models[id] = shutdown
}

// SetNow sets the fake's clock (shut-down models answer 404 from their date).
func (s *Server) SetNow(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// modelState says whether id is served and its shutdown date.
func (s *Server) modelState(id string) (served bool, shutdown string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.models[id]
	if !ok {
		return false, ""
	}
	if d != "" {
		if t, err := time.Parse(time.DateOnly, d); err == nil && !s.now().UTC().Before(t) {
			return false, d
		}
	}
	return true, d
}

func (s *Server) modelNotFound(w http.ResponseWriter, id string) {
	s.writeError(w, 404, nil, "The model `"+id+"` does not exist or you do not have access to it.", "invalid_request_error", "", "model_not_found")
}

// retrieveModel answers GET /v1/models/{id} with the model object
// (id, object, created, owned_by, shutdown_date).
func (s *Server) retrieveModel(w http.ResponseWriter, r *http.Request) {
	setCommonHeaders(w.Header(), 0)
	key, hasBearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !hasBearer || !s.keys[key] {
		s.writeError(w, 401, nil, "Incorrect API key provided: "+maskKey(key)+". You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "", "invalid_api_key")
		return
	}
	s.mu.Lock()
	s.modelReads++
	s.mu.Unlock()
	id := strings.TrimPrefix(r.URL.Path, "/v1/models/")
	served, shutdown := s.modelState(id)
	if !served {
		s.modelNotFound(w, id)
		return
	}
	var sd any
	if shutdown != "" {
		sd = shutdown
	}
	writeJSON(w, 200, map[string]any{"id": id, "object": "model", "created": 1754524800, "owned_by": "system", "shutdown_date": sd})
}

// ModelReads is the number of GET /v1/models/{id} requests answered.
func (s *Server) ModelReads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modelReads
}

// phased reports whether model answers with phase on its messages: gpt-5.4
// and later (OpenAI changelog 2026-02-24; vercel/ai fixtures
// openai-phase.1.json and gpt-6-luna-reasoning-none-sampling.json).
func phased(model string) bool {
	for _, p := range []string{"gpt-6", "gpt-5.4", "gpt-5.5", "gpt-5.6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}
