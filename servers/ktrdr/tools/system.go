package tools

import (
	"context"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type healthOut struct {
	Status        string `json:"status" mcp:"enum=healthy|unhealthy"`
	BackendStatus string `json:"backend_status,omitempty"`
	Version       string `json:"version,omitempty"`
	Reason        string `json:"reason,omitempty"`
	Code          string `json:"code,omitempty"`
	APIURL        string `json:"api_url"`
	LatencyMS     int64  `json:"latency_ms"`
}

func healthCheck(c *client.Client, apiURL string) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "health_check", Title: "Check backend health", Toolset: setSystem, Hints: toolkit.RemoteRead,
		Description: `Check that the KTRDR backend is reachable and healthy (version, latency). Never fails as a tool: a failing backend is status unhealthy with the reason and error code.
Use when other tools report upstream_unavailable.`},
		func(ctx context.Context, _ struct{}) (healthOut, error) {
			start := time.Now()
			h, err := c.Health(ctx)
			out := healthOut{APIURL: apiURL, LatencyMS: time.Since(start).Milliseconds()}
			if err != nil {
				e := envelope.From(err)
				out.Status, out.Reason, out.Code = "unhealthy", e.Message, string(e.Code)
				return out, nil
			}
			out.BackendStatus, out.Version = h.Status, h.Version
			out.Status = "healthy"
			if h.Status != "ok" && h.Status != "healthy" {
				out.Status, out.Reason = "unhealthy", "the backend reports status "+h.Status
			}
			return out, nil
		})
}
