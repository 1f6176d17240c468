package pytool_test

import (
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/polymarket/pytool"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/sandbox"
)

// Benchmarks of one run through MCP, beside the bare interpreter start (the
// floor no sandbox can beat). Each reports p50 and p99 per op as well.
// go test -run XXX -bench . -benchtime 60x ./servers/polymarket/pytool/

func BenchmarkPrint1MCP(b *testing.B) { benchCode(b, "print(1)", "1\n") }
func BenchmarkStatisticsMCP(b *testing.B) {
	benchCode(b, statisticsExample, "mean 0.4633\nmedian 0.46\nstdev 0.0333\n")
}

func BenchmarkBarePythonStart(b *testing.B) {
	lat := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if err := exec.Command(sandbox.DefaultPython, "-I", "-S", "-c", "pass").Run(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	report(b, lat)
}

func benchCode(b *testing.B, code, want string) {
	cfg := pytool.Config{RunsPerHour: 1 << 30}
	b.Setenv("POLYMARKET_SANDBOX_CANARY", canary)
	c := connectB(b, cfg)
	b.ResetTimer()
	lat := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		out := run(b, c, code, nil)
		lat = append(lat, time.Since(t0))
		if !out.Success || out.Output != want {
			b.Fatalf("%+v", out)
		}
	}
	report(b, lat)
}

func report(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) == 0 {
		return
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
}
