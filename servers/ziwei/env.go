package main

import (
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
)

// envVars is what the ziwei server reads from its environment (--help lists it).
var envVars = []serve.EnvVar{
	{Name: "ZIWEI_RULES_FILE", Help: "the JSON rules file of older releases (default: the user config dir), imported once into the state file"},
	{Name: "ZIWEI_SETTINGS", Help: `default chart settings, iztro's astro.config as JSON, e.g. {"yearDivide":"exact"}; invalid settings stop the start (docs/ziwei-settings.md)`},
	{Name: rules.EnvUserBytes, Help: "bytes one user's stored rules may take (default 262144)"},
	{Name: rules.EnvUserRules, Help: "rules one user may store (default 200)"},
	{Name: rules.EnvFileBytes, Help: "bytes the whole rules file may take, all users together (default 4194304)"},
}
