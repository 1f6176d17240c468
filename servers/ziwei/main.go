// Command ziwei is the Zi Wei Dou Shu MCP server: charts computed natively in
// Go (reference engine iztro 2.6.1), stateless chart_ids, 格局 patterns and
// user rules. `ziwei check-golden FILE` checks the engine against golden data.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/apps"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/golden"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

var version = "dev"

const instructions = "Zi Wei Dou Shu (紫微斗数) charts, computed like iztro 2.6.1. Flow: call initialize_chart once with the birth data (birthDate YYYY-MM-DD, birthTimeIndex 0-12 or birthTime HH:MM, gender); " +
	"it returns a chart_id that encodes the birth (stateless: it never expires and any replica decodes it). Every other chart tool takes only that chart_id (plus its own arguments). " +
	"Natal: get_chart_basics, get_palace_info, get_stars_in_palace, get_natal_sihua, get_sanfang_sizheng, get_jia_gong_info. " +
	"Timing: get_decade_info, get_annual_info, get_monthly_info, get_daily_info, get_hourly_info, get_palace_stem_sihua (飞化). Patterns: query_astrological_pattern; user rules: store_star_combination_meaning, delete_star_combination_meaning. " +
	"Board: resource ziwei://chart/{chart_id}. Names in zh-CN (default), zh-TW or en-US via language. " +
	"In results a palace is written \"role stem-branch\" (命宫 丁亥); a star as name+brightness+[四化] (太阳旺[禄]); brightness 庙 旺 得 利 平 不 陷 (en-US [+3]…[-3]); 四化 禄 权 科 忌 (en-US A B C D). " +
	"birthTimeIndex: 0 00:00-01:00 early Rat … 12 23:00-24:00 late Rat; birthTime+longitude gives true solar time (4 min/degree from 120°E plus the equation of time)."

func main() { serve.Main(newApp()) }

func newApp() serve.App {
	var rulesFile string
	return serve.App{
		Name: "ziwei", Version: version, DefaultPort: 8701, Instructions: instructions, Env: envVars,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&rulesFile, "rules-file", defaultRulesFile(), "the JSON rules file of older releases, imported once into the state file [ZIWEI_RULES_FILE]")
		},
		Register: func(ctx context.Context, r *serve.Registry) error {
			limits, err := rules.LimitsFromEnv()
			if err != nil {
				return err
			}
			// Settings first: invalid ZIWEI_SETTINGS stops the start before anything else.
			if err := tools.NewWithStore(nil).WithSettings(os.Getenv("ZIWEI_SETTINGS")); err != nil {
				return err
			}
			// Rules live in the state file (MCPFLEET_STATE_DIR), or in memory
			// with MCPFLEET_STATE=memory; the old JSON file is imported once.
			db, err := r.Store()
			if err != nil {
				return err
			}
			store := rules.NewMemoryStore()
			if db != nil {
				if store, err = rules.NewDBStore(ctx, db, rulesFile, r.Log); err != nil {
					return err
				}
			}
			store = store.WithLimits(limits)
			t := tools.NewWithStore(store)
			if err := t.WithSettings(os.Getenv("ZIWEI_SETTINGS")); err != nil {
				return err
			}
			store.WithLogger(r.Log)
			if err := t.Register(ctx, r); err != nil {
				return err
			}
			// The chart view: linked tools and the board in their result
			// _meta, both only for clients that declare MCP Apps.
			r.Server.Use(t.ViewMiddleware(mcpapps.ClientSupports))
			return mcpapps.Install(r.Server, apps.Config())
		},
		Commands: map[string]serve.Command{"check-golden": func(ctx context.Context, args []string) int {
			return checkGolden(args, os.Stdout, os.Stderr)
		}},
	}
}

// defaultRulesFile is where older releases kept the rules: $ZIWEI_RULES_FILE,
// else <user config dir>/mcpfleet/ziwei-rules.json.
func defaultRulesFile() string {
	if p := os.Getenv("ZIWEI_RULES_FILE"); p != "" {
		return p
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "mcpfleet", "ziwei-rules.json")
}

// checkGolden runs golden.Check on FILE (plain or .gz JSON Lines): every
// mismatch, then "N passed, M failed"; exit 1 on any failure, 2 on bad usage.
func checkGolden(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: ziwei check-golden FILE   (golden JSON Lines, plain or .gz)")
		return 2
	}
	f, err := os.Open(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "ziwei check-golden:", err)
		return 2
	}
	defer f.Close()
	_, failed, err := golden.Check(f, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "ziwei check-golden:", err)
		return 1
	}
	if failed > 0 {
		return 1
	}
	return 0
}
