package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// TestPriceHistoryMax: interval=max is the market's whole life and says
// which window it covers. A resolved market is read at 12-hour points (finer
// answers [] for resolved markets: py-clob-client#216), from its start to its
// close, not the 31 days before it; an open one at a fidelity whose points
// reach its start.
func TestPriceHistoryMax(t *testing.T) {
	s := start(t, opts{})
	now := clock.MustFromEnv().Now()
	day := int64(86400)
	t.Run("resolved: the whole life at 12-hour points", func(t *testing.T) {
		_, _, _, tok := s.fake.Market(fake.NumOpen + 1)
		for _, fid := range []int{0, 60} {
			args := map[string]any{"token_id": tok[0], "interval": "max", "max_points": 1000}
			if fid > 0 {
				args["fidelity"] = fid
			}
			out := call[tools.HistoryOut](t, s, "get_price_history", args)
			if len(out.Window) != 2 || out.Fidelity != 720 || !out.Complete {
				t.Fatalf("fidelity %d: %+v", fid, out)
			}
			if span := out.Window[1] - out.Window[0]; span < (fake.ClosedLifeDays-1)*day {
				t.Fatalf("window spans %d days, want the market's %d", span/day, fake.ClosedLifeDays)
			}
			if n := len(out.Points); n < fake.ClosedLifeDays*2-2 || n > fake.ClosedLifeDays*2+2 {
				t.Fatalf("%d points, want about %d (12-hour points over %d days)", n, fake.ClosedLifeDays*2, fake.ClosedLifeDays)
			}
			if out.Window[1] > now.Unix()-19*day {
				t.Fatalf("the series runs past the close: %v", out.Window)
			}
			if fid == 60 && !strings.Contains(out.Note, "fidelity raised to 720") {
				t.Fatalf("note %q", out.Note)
			}
			if out.First == nil || out.Change == nil || *out.Change != round4(*out.Last-*out.First) {
				t.Fatalf("summary %+v", out)
			}
		}
	})
	t.Run("open: the fidelity reaches the market's start", func(t *testing.T) {
		_, _, _, tok := s.fake.Market(0)
		out := call[tools.HistoryOut](t, s, "get_price_history", map[string]any{"token_id": tok[0], "interval": "max"})
		began := now.Add(3*time.Hour - 30*24*time.Hour).Unix()
		if len(out.Window) != 2 || out.Window[0] > began+day || out.Fidelity != 15 || !out.Complete {
			t.Fatalf("window %v from %d, fidelity %d, %+v", out.Window, began, out.Fidelity, out.Coverage)
		}
	})
	t.Run("an interval states its window", func(t *testing.T) {
		_, _, _, tok := s.fake.Market(0)
		out := call[tools.HistoryOut](t, s, "get_price_history", map[string]any{"token_id": tok[0], "interval": "1d"})
		if len(out.Window) != 2 || out.Window[1]-out.Window[0] != day || !out.Complete {
			t.Fatalf("%+v", out)
		}
	})
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }
