package rules

import (
	"fmt"
	"strconv"

	"github.com/mcpfleet/mcpfleet/pkg/env"
)

// Limits are the rules file's quotas. The file is shared by every user of a
// server, so each user gets a share: one user can no longer fill it.
type Limits struct {
	UserBytes int // bytes one user's rules may take in the file
	UserRules int // rules one user may store
	FileBytes int // the whole file; a write that would grow it past this is refused
}

// Environment overrides of the limits.
const (
	EnvUserBytes = "ZIWEI_RULES_USER_MAX_BYTES"
	EnvUserRules = "ZIWEI_RULES_USER_MAX_RULES"
	EnvFileBytes = "ZIWEI_RULES_FILE_MAX_BYTES"
)

// Defaults of the limits: 256 KiB and 200 rules per user (a rule with a long
// meaning takes 1-2 KB, the largest ~20 KB), 4 MiB per file (16 users at
// their full quota).
const (
	DefaultUserBytes = 256 << 10
	MaxRulesPerOwner = 200
	MaxFileBytes     = 4 << 20
)

// DefaultLimits are the limits without overrides.
func DefaultLimits() Limits {
	return Limits{UserBytes: DefaultUserBytes, UserRules: MaxRulesPerOwner, FileBytes: MaxFileBytes}
}

// LimitsFromEnv reads the overrides; unset variables keep the defaults.
func LimitsFromEnv() (Limits, error) {
	l := DefaultLimits()
	for _, v := range []struct {
		env      string
		dst      *int
		min, max int
	}{
		{EnvUserBytes, &l.UserBytes, 1 << 10, readCap},
		{EnvUserRules, &l.UserRules, 1, 100000},
		{EnvFileBytes, &l.FileBytes, 1 << 10, readCap},
	} {
		s := env.Or(v.env, "")
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < v.min || n > v.max {
			return l, fmt.Errorf("%s=%q: want a whole number from %d to %d", v.env, s, v.min, v.max)
		}
		*v.dst = n
	}
	return l, nil
}

// QuotaError is a write refused by a quota: Env names the limit's variable.
type QuotaError struct {
	Env         string
	Used, Limit int
	Message     string
}

func (e *QuotaError) Error() string { return e.Message }
