package toolkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// lazySchema compiles a tool's output schema the first time a pre-encoded
// result needs checking (most tools never do), with the validator mcp-go uses.
type lazySchema struct {
	raw  json.RawMessage
	once sync.Once
	sch  *jsonschema.Schema
	err  error
}

func (l *lazySchema) validate(doc json.RawMessage) error {
	l.once.Do(func() {
		schema, err := jsonschema.UnmarshalJSON(bytes.NewReader(l.raw))
		if err != nil {
			l.err = err
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("output.json", schema); err != nil {
			l.err = err
			return
		}
		l.sch, l.err = c.Compile("output.json")
	})
	if l.err != nil {
		return fmt.Errorf("output schema: %w", l.err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("pre-encoded result is not JSON: %w", err)
	}
	return l.sch.Validate(inst)
}
