package serve

import (
	"bytes"
	"strings"
	"testing"
)

func TestVersionIsReal(t *testing.T) {
	if v := resolveVersion("v1.2.3"); v != "v1.2.3" {
		t.Fatal(v)
	}
	if v := resolveVersion("dev"); !strings.Contains(v, "go1.") {
		t.Fatalf("build-info version %q has no Go version", v)
	}
}

func TestConsoleLogFormat(t *testing.T) {
	var buf bytes.Buffer
	l, err := NewLoggerFormat(&buf, "info", "console")
	if err != nil {
		t.Fatal(err)
	}
	l.Info().Str("tool", "x").Msg("tool call")
	if s := buf.String(); strings.HasPrefix(s, "{") || !strings.Contains(s, "tool call") || !strings.Contains(s, "tool=x") {
		t.Fatalf("not console: %q", s)
	}
	if _, err := NewLoggerFormat(&buf, "info", "xml"); err == nil {
		t.Fatal("bad format accepted")
	}
}
