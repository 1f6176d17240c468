package tools

import (
	"encoding/json"
	"errors"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

func jsonOf(v any) ([]byte, error) {
	if r, ok := v.(json.RawMessage); ok {
		return r, nil
	}
	return json.Marshal(v)
}

func errText(err error) string {
	var e *envelope.Error
	if errors.As(err, &e) {
		return string(e.Code) + ": " + e.Message
	}
	return "internal error"
}
