package fakeupstream

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
)

// maxControlBody bounds a /_fake/faults body; control bodies are a few faults.
const maxControlBody = 1 << 16

// DecodeFaults reads a POST /_fake/faults body: one fault object or a JSON
// list of them.
func DecodeFaults[F any](r io.Reader) ([]F, error) {
	body, err := io.ReadAll(io.LimitReader(r, maxControlBody))
	if err != nil {
		return nil, err
	}
	var list []F
	if json.Unmarshal(body, &list) == nil {
		return list, nil
	}
	var one F
	if err := json.Unmarshal(body, &one); err != nil {
		return nil, errors.New("want a fault object or a list of them: " + err.Error())
	}
	return []F{one}, nil
}

// ServeFaults is the /_fake/faults control route of every fake, over its
// queue: POST hands each fault of the body (one or a list) to add, after
// check (nil: none) passed for all of them, so a refused list queues
// nothing; DELETE clears the queue; GET lists it. Every answer but a refusal
// is 200 {"faults": [what is queued]}. add is the fake's own setter, which
// decides how many uses a fault gets or whether it replaces others.
func ServeFaults[F any](w http.ResponseWriter, r *http.Request, q *Queue[F], check func(F) error, add func(F)) {
	switch r.Method {
	case http.MethodGet:
	case http.MethodDelete:
		q.Clear()
	case http.MethodPost:
		list, err := DecodeFaults[F](r.Body)
		if err == nil && check != nil {
			for _, f := range list {
				if err = check(f); err != nil {
					break
				}
			}
		}
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		for _, f := range list {
			add(f)
		}
	default:
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "GET, POST or DELETE /_fake/faults"})
		return
	}
	writeJSON(w, http.StatusOK, map[string][]F{"faults": q.Faults()})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Reset drops the connection with a TCP RST (SO_LINGER 0) before any answer:
// what a client sees when a proxy or the upstream resets it.
func Reset(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}
