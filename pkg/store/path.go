package store

import (
	"errors"
	"path/filepath"
	"runtime"
)

// Env names.
const (
	EnvDir  = "MCPFLEET_STATE_DIR" // overrides the directory
	EnvMode = "MCPFLEET_STATE"     // "memory" keeps state in process memory only
)

// Dir is the directory of the state files: $MCPFLEET_STATE_DIR, else the
// user's state directory for the platform plus "mcpfleet":
//
//	Linux, BSD: $XDG_STATE_HOME, else ~/.local/state (XDG Base Directory spec)
//	macOS:      $XDG_STATE_HOME, else ~/Library/Application Support
//	Windows:    %LOCALAPPDATA% (state is per machine, not roaming)
func Dir(getenv func(string) string) (string, error) {
	return dirFor(runtime.GOOS, getenv)
}

func dirFor(goos string, getenv func(string) string) (string, error) {
	if d := getenv(EnvDir); d != "" {
		return d, nil
	}
	if goos == "windows" {
		if d := getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "mcpfleet"), nil
		}
		return "", errors.New("neither " + EnvDir + " nor LOCALAPPDATA is set: set " + EnvDir + " (or --state-dir)")
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) { // the spec: a relative path is invalid and ignored
		return filepath.Join(d, "mcpfleet"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", errors.New("HOME is not set, so there is no default state directory: set " + EnvDir + " (or --state-dir), or " + EnvMode + "=memory")
	}
	if goos == "darwin" {
		return filepath.Join(home, "Library", "Application Support", "mcpfleet"), nil
	}
	return filepath.Join(home, ".local", "state", "mcpfleet"), nil
}

// File is the state file of server in dir.
func File(dir, server string) string { return filepath.Join(dir, server+".db") }
