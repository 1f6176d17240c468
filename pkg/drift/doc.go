// Package drift notices when an upstream moves away from what a client
// depends on. It holds three things that share one vocabulary:
//
//   - Shape: per route, the fields a client needs, their JSON types and the
//     enum values it knows. The same Shape drives a server's contract tests,
//     its live probe and its run-time watch, so they cannot disagree.
//   - Watch: on ordinary traffic (pkg/upstream calls Observe for every
//     answer) it reads Deprecation / Sunset / Warning 299 headers and, at
//     most once per route per sample interval, checks the body against the
//     route's Shape; each signal is logged once per route per UTC day at warn
//     level, counted, and kept for get_*_capabilities and offline doctor.
//   - Probe: a read-only request per upstream route (GET or HEAD, or a POST
//     that declares why it reads only), run by a server's "drift-probe"
//     command for `mcpfleet doctor --live`.
//
// It knows nothing of any server.
package drift
