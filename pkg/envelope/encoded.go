package envelope

import (
	"encoding/json"
	"fmt"
	"sync"
)

// Encoded is a success result encoded once: the structured content's JSON and
// its text rendering. A tool serving the same answer many times (a cached list)
// builds it once per cache fill and hands it out through Preencoder, so a call
// re-encodes nothing of its own. The bytes are validated against the tool's
// output schema once per encoding (pkg/toolkit calls Check) instead of on every
// call, and the transport embeds them as they are.
type Encoded struct {
	JSON json.RawMessage // compact JSON of the value: the structured content
	Text string          // v.Text() for a Texter, else the JSON

	once sync.Once
	verr error
}

// Check runs validate over JSON once for this encoding and remembers the
// answer: the bytes never change, so one check holds for every call that
// serves them. An Encoded belongs to one tool (one output schema).
func (e *Encoded) Check(validate func(json.RawMessage) error) error {
	e.once.Do(func() { e.verr = validate(e.JSON) })
	return e.verr
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
