// Package tools defines chartimg's MCP tools over the chart-img client, the
// docs parser, the natural-language builder and the validator.
package tools

import (
	"errors"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// All returns the tools.
func All(s *Service) []toolkit.Tool {
	return []toolkit.Tool{
		s.fetchDocsTool(), s.exchangesTool(), s.symbolsTool(),
		s.constructTool(), s.validateTool(), s.generateTool(), s.layoutTool(),
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	var e *envelope.Error
	if errors.As(err, &e) {
		return string(e.Code) + ": " + e.Message
	}
	return "internal error"
}
