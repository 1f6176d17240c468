package upstream

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

func (c *Client) watch() *drift.Watch {
	if c.cfg.Drift != nil {
		return c.cfg.Drift
	}
	return drift.Default()
}

// Sender sends drift probes through this client: its base URL, headers,
// keys, deadline and size cap, with the answer's status, headers and body
// handed back whatever it was (a probe judges error answers too). The
// probe's read-only rule is checked again here, so no write leaves even if a
// caller skipped drift.Run.
func (c *Client) Sender() drift.Sender {
	return func(ctx context.Context, call drift.Call) (drift.Reply, error) {
		if err := drift.CheckReadOnly(drift.Probe{Route: call.Route, Method: call.Method, Path: call.Path, ReadOnly: readOnlyMark(call)}); err != nil {
			return drift.Reply{}, err
		}
		resp, err := c.Do(ctx, Request{Op: call.Route, Method: call.Method, Path: call.Path, Query: call.Query,
			JSON: call.JSON, Form: call.Form, Idempotent: true})
		if resp == nil {
			resp = &Response{}
		}
		return drift.Reply{Status: resp.Status, Header: resp.Header, Body: resp.Body}, err
	}
}

// readOnlyMark: a Call reaches a Sender only through drift.Run, which has
// refused any POST without a read-only reason; what is left to refuse here
// is every other writing method.
func readOnlyMark(call drift.Call) string {
	if call.Method == "POST" {
		return "checked by drift.Run"
	}
	return ""
}

// NoteDrift records a finding a parser made on route's answer (a value the
// shape's enum does not know, seen on a body the watch did not sample), on
// the same watch and log as the sampled checks: logged once per UTC day.
func (c *Client) NoteDrift(route string, f drift.Finding) {
	c.watch().Note(c.cfg.Logger, c.cfg.Name, route, f)
}
