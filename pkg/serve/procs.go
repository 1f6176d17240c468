package serve

import (
	"os"
	"runtime"
)

// oneProcessorForStdio runs a stdio server on one processor unless the
// environment sets GOMAXPROCS (an operator's choice wins). It returns the
// count it set, or -1.
//
// Why (issue 20, docs/benchmarks.md twelfth run): a stdio server has one
// client, whose requests mcp-go reads on one goroutine and whose answers it
// writes through one lock. A second processor mostly buys wake-ups there:
// each handoff from the reader to a worker, and each answer, woke a thread on
// the idle processor that then found nothing to do. On the 2-core box (the
// client on the other core), one processor cut server CPU a call by ~20%
// sequentially and ~8% at 8 concurrent calls (ziwei; google-news-rss, the
// most CPU a call, alike), with the same concurrent throughput. The price, on
// a larger host: CPU-bound calls one client makes at once share one core
// (GOMAXPROCS gives them more; docs/deploy.md). Streamable HTTP serves many
// clients and keeps every processor.
func oneProcessorForStdio(lookup func(string) (string, bool)) int {
	if _, set := lookup("GOMAXPROCS"); set {
		return -1
	}
	runtime.GOMAXPROCS(1)
	return 1
}

// tuneProcsIfServingStdio applies oneProcessorForStdio when Main runs the
// server (tests that call Run keep the process's processors).
func tuneProcsIfServingStdio() int {
	if !tuneRuntime {
		return -1
	}
	return oneProcessorForStdio(os.LookupEnv)
}
