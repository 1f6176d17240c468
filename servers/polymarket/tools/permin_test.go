package tools

import (
	"strings"
	"testing"
)

func TestPerMinute(t *testing.T) {
	for _, tc := range []struct {
		name    string
		set     int
		env     string
		want    int
		wantErr string
	}{
		{"default", 0, "", 30, ""},
		{"test knob wins", 7, "500", 7, ""},
		{"env", 0, " 100000 ", 100000, ""},
		{"zero refused", 0, "0", 0, EnvPublicPerMinute},
		{"garbage refused", 0, "lots", 0, "positive number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvPublicPerMinute, tc.env)
			got, err := perMinute(tc.set, EnvPublicPerMinute, PublicPerMinute)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one naming %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}
