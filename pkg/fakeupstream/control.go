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
