package sandbox

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if MaybeChild() {
		return
	}
	os.Exit(m.Run())
}
