package env

import (
	"strings"
	"testing"
)

func TestPlaceholdersRefused(t *testing.T) {
	vars := []Var{
		{Name: "CHART_IMG_API_KEY", Secret: true},
		{Name: "SHOONYA_USER_ID", Sample: "FA12345"},
		{Name: "CHART_IMG_PLAN"},
	}
	cases := []struct {
		env  []string
		want string // "" = starts
	}{
		{[]string{"CHART_IMG_API_KEY=${CHART_IMG_API_KEY}"}, "CHART_IMG_API_KEY is still a placeholder"},
		{[]string{"CHART_IMG_API_KEY=<your key>"}, "CHART_IMG_API_KEY is still a placeholder"},
		{[]string{"CHART_IMG_API_KEY=changeme"}, "CHART_IMG_API_KEY is still a placeholder"},
		{[]string{"CHART_IMG_API_KEY=$CHART_IMG_API_KEY"}, "CHART_IMG_API_KEY is still a placeholder"},
		{[]string{"MCPFLEET_AUTH_TOKENS=alice=<token>,bob=s3cr3t-token"}, "MCPFLEET_AUTH_TOKENS is still a placeholder"},
		{[]string{"SHOONYA_USER_ID=FA12345"}, `SHOONYA_USER_ID is the documentation's sample value "FA12345"`},
		{[]string{"CHART_IMG_API_KEY=k-8f3a9c1d", "CHART_IMG_PLAN=PRO", "SHOONYA_USER_ID=FA99881", "OTHER=${X}"}, ""},
		{[]string{"CHART_IMG_API_KEY="}, ""},
	}
	for _, c := range cases {
		err := CheckPlaceholders(vars, c.env)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: refused: %v", c.env, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: got %v, want %q", c.env, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("message shows a value: %v", err)
		}
	}
}
