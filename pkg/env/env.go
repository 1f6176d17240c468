// Package env reads the environment variables behind a server's flags: a
// flag's default is its variable when set, else the built-in value. Values
// are trimmed, so a stray space from a client's config does not count.
package env

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// Or is the trimmed value of key, or def when it is unset or blank.
func Or(key, def string) string {
	if v := strings.TrimSpace(os.Getenv(key)); v != "" {
		return v
	}
	return def
}

// Int is key as a whole number, or def when it is unset or not a number.
func Int(key string, def int) int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv(key))); err == nil {
		return n
	}
	return def
}

// Duration is key as a Go duration ("90s") or plain seconds ("90"), or def
// when it is unset or neither.
func Duration(key string, def time.Duration) time.Duration {
	v := strings.TrimSpace(os.Getenv(key))
	if v == "" {
		return def
	}
	if d, err := time.ParseDuration(v); err == nil {
		return d
	}
	if s, err := strconv.Atoi(v); err == nil {
		return time.Duration(s) * time.Second
	}
	return def
}
