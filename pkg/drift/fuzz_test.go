package drift

import (
	"net/http"
	"testing"
)

// FuzzCheck: an upstream's body, whatever it is, never panics the shape
// check, and a finding always names its kind.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"data":[{"id":"a","status":"open"}],"total":1}`))
	f.Add([]byte(`{"data":null}`))
	f.Add([]byte(`[1,2,{"a":[]}]`))
	f.Add([]byte(`{"error":{"message":5}}`))
	f.Add([]byte(`<html>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, fs := range [][]Finding{testShape.CheckBody(body), testShape.CheckError(body)} {
			for _, x := range fs {
				if x.Kind == "" || x.Detail == "" {
					t.Fatalf("finding without kind or detail: %+v", x)
				}
			}
		}
		h := http.Header{"Warning": {string(body)}, "Sunset": {string(body)}}
		if f, ok := DeprecationOf(h); ok && len(f.Detail) > 400 {
			t.Fatalf("unbounded detail: %d bytes", len(f.Detail))
		}
	})
}
