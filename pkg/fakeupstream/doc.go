// Package fakeupstream is what every server's fake upstream shares: an ordered
// queue of injected faults that each serve a counted number of requests, the
// /_fake/faults body ("a fault or a list of them"), a connection reset, and a
// loopback-only listener. It knows nothing of any upstream: each fake keeps
// its own fault type and decides what a fault does to an answer.
package fakeupstream
