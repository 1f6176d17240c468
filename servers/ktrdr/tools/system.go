package tools

import (
	"context"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type healthOut struct {
	Status        string `json:"status" jsonschema:"healthy or unhealthy"`
	BackendStatus string `json:"backend_status,omitempty" jsonschema:"what /health said"`
	Version       string `json:"version,omitempty"`
	Reason        string `json:"reason,omitempty" jsonschema:"why unhealthy"`
	Code          string `json:"code,omitempty" jsonschema:"error code when unhealthy"`
	APIURL        string `json:"api_url"`
	LatencyMS     int64  `json:"latency_ms"`
}

func healthCheck(c *client.Client, apiURL string) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "health_check", Title: "Check backend health", Toolset: setSystem, Hints: toolkit.RemoteRead,
		Description: `Check that the KTRDR backend is reachable and healthy. Never fails as a tool: an unreachable or failing backend is status "unhealthy" with the reason and code.
Use first when other tools report upstream_unavailable, or to confirm KTRDR_API_URL.
Returns status (healthy, unhealthy), backend_status, version, reason, code, api_url, latency_ms.`},
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
