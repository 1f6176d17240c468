package tools

import (
	"context"
	"flag"
	"os"
	"path/filepath"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
)

// Instructions are sent to clients on initialize.
const Instructions = "Zi Wei Dou Shu (紫微斗数) charts, computed like iztro 2.6.1. Flow: call initialize_chart once with the birth data (birthDate YYYY-MM-DD, birthTimeIndex 0-12 or birthTime HH:MM, gender); " +
	"it returns a chart_id that encodes the birth (stateless: it never expires and any replica decodes it). Every other chart tool takes only that chart_id (plus its own arguments). " +
	"Natal: get_chart_basics, get_palace_info, get_stars_in_palace, get_natal_sihua, get_sanfang_sizheng, get_jia_gong_info. " +
	"Timing: get_decade_info, get_annual_info, get_monthly_info, get_daily_info, get_hourly_info, get_palace_stem_sihua (飞化). Patterns: query_astrological_pattern; user rules: store_star_combination_meaning, delete_star_combination_meaning. " +
	"Board: resource ziwei://chart/{chart_id}. Names in zh-CN (default), zh-TW or en-US via language. " +
	"In results a palace is written \"role stem-branch\" (命宫 丁亥); a star as name+brightness+[四化] (太阳旺[禄]); brightness 庙 旺 得 利 平 不 陷 (en-US [+3]…[-3]); 四化 禄 权 科 忌 (en-US A B C D). " +
	"birthTimeIndex: 0 00:00-01:00 early Rat … 12 23:00-24:00 late Rat; birthTime+longitude gives true solar time (4 min/degree from 120°E plus the equation of time)."

// Config is the server's configuration: flags with environment fallbacks.
type Config struct {
	// RulesFile is the JSON rules file of older releases, imported once into
	// the state file.
	RulesFile string
}

// Flags binds the server's flags; each defaults to its environment variable.
func (c *Config) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.RulesFile, "rules-file", defaultRulesFile(), "the JSON rules file of older releases, imported once into the state file [ZIWEI_RULES_FILE]")
}

// Register builds the rules store and adds the tools, resources and the
// chart view's middleware.
func (c *Config) Register(ctx context.Context, r *serve.Registry) error {
	limits, err := rules.LimitsFromEnv()
	if err != nil {
		return err
	}
	// Settings first: invalid ZIWEI_SETTINGS stops the start before anything else.
	if err := NewWithStore(nil).WithSettings(os.Getenv("ZIWEI_SETTINGS")); err != nil {
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
		if store, err = rules.NewDBStore(ctx, db, c.RulesFile, r.Log); err != nil {
			return err
		}
	}
	store = store.WithLimits(limits)
	t := NewWithStore(store)
	if err := t.WithSettings(os.Getenv("ZIWEI_SETTINGS")); err != nil {
		return err
	}
	store.WithLogger(r.Log)
	if err := t.Register(ctx, r); err != nil {
		return err
	}
	// The chart view: linked tools and the board in their result _meta,
	// both only for clients that declare MCP Apps.
	r.Server.Use(t.ViewMiddleware(mcpapps.ClientSupports))
	return nil
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
