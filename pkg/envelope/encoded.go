package envelope

import (
	"encoding/json"
	"fmt"
)

// Encoded is a success result encoded once: the structured content's JSON and
// its text rendering. A tool serving the same answer many times (a cached list)
// builds it once per cache fill and hands it out through Preencoder, so a call
// re-encodes nothing of its own. mcp-go still validates the JSON against the
// tool's output schema on every call (it decodes a json.RawMessage
// StructuredContent for that), and the transport embeds the bytes as they are.
type Encoded struct {
	JSON json.RawMessage // compact JSON of the value: the structured content
	Text string          // v.Text() for a Texter, else the JSON
}

// Preencoder lets a result hand OK its encoded form. A nil *Encoded means
// "encode me as usual", so a type can carry an encoding only sometimes.
type Preencoder interface{ Preencoded() *Encoded }

// Encode encodes v as OK would: structured JSON plus text (Texter or the JSON).
// The value must not change afterwards, or the encoding goes stale.
func Encode(v any) (*Encoded, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", v, err)
	}
	e := &Encoded{JSON: b, Text: string(b)}
	if t, ok := v.(Texter); ok {
		e.Text = t.Text()
	}
	return e, nil
}
