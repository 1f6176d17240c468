package fake

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url, key, body string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return resp, m
}

const okBody = `{"model":"gpt-5-nano","input":"uae rates","tools":[{"type":"web_search","user_location":{"type":"approximate"}}],"include":["web_search_call.action.sources"],"store":false}`

func errCode(m map[string]any) (code, param string) {
	e, _ := m["error"].(map[string]any)
	code, _ = e["code"].(string)
	param, _ = e["param"].(string)
	return code, param
}

func TestAuthAndBodyChecks(t *testing.T) {
	f := New(Options{})
	base, stop := f.Start()
	defer stop()
	url := base + "/v1/responses"
	cases := []struct {
		key, body   string
		status      int
		code, param string
	}{
		{"", okBody, 401, "", ""},
		{"sk-wrong-key-123456", okBody, 401, "invalid_api_key", ""},
		{"sk-test", `{not json`, 400, "", ""},
		{"sk-test", `{"input":"x","tools":[]}`, 400, "missing_required_parameter", "model"},
		{"sk-test", `{"model":"gpt-5-nano","tools":[]}`, 400, "missing_required_parameter", "input"},
		{"sk-test", `{"model":"gpt-5-nano","input":"x","tools":[{"type":"web_browse"}]}`, 400, "invalid_value", "tools[0].type"},
		{"sk-test", `{"model":"gpt-5-nano","input":"x","tools":[{"type":"web_search","user_location":{"type":"approximate","country":"UAE"}}]}`, 400, "invalid_value", "tools[0].user_location.country"},
		{"sk-test", `{"model":"gpt-5-nano","input":"x","reasoning":{"effort":"max"}}`, 400, "unsupported_value", "reasoning.effort"},
		{"sk-test", okBody, 200, "", ""},
	}
	for i, tc := range cases {
		resp, m := post(t, url, tc.key, tc.body)
		code, param := errCode(m)
		if resp.StatusCode != tc.status || code != tc.code || param != tc.param {
			t.Errorf("case %d: %d %q %q: %v", i, resp.StatusCode, code, param, m)
		}
		if resp.Header.Get("x-request-id") == "" || resp.Header.Get("x-ratelimit-limit-requests") == "" {
			t.Errorf("case %d: headers %v", i, resp.Header)
		}
	}
	if _, m := post(t, url, "sk-wrong-key-123456", okBody); strings.Contains(m["error"].(map[string]any)["message"].(string), "sk-wrong-key-123456") {
		t.Error("the fake echoed the whole key (OpenAI masks it)")
	}
	if n := f.Count(); n != len(cases)+1 || f.Requests()[0].Authorized {
		t.Errorf("%d requests recorded", n)
	}
}

// TestScenariosAreConsistent: every success scenario's annotations land on
// their markers in the unit the scenario claims, and every error scenario
// has the error body of openai-go internal/apierror/apierror.go.
func TestScenariosAreConsistent(t *testing.T) {
	f := New(Options{})
	base, stop := f.Start()
	defer stop()
	for _, sc := range Scenarios() {
		t.Run(sc, func(t *testing.T) {
			f.Clear()
			f.Push(Fault{Scenario: sc, Count: 1})
			resp, m := post(t, base+"/v1/responses", "sk-test", okBody)
			switch {
			case sc == Malformed || sc == Truncated || sc == HTMLError:
				if m != nil {
					t.Errorf("%s decoded: %v", sc, m)
				}
				return
			case resp.StatusCode != 200:
				if code, _ := errCode(m); m["error"] == nil || (code == "" && resp.StatusCode == 429) {
					t.Errorf("status %d body %v", resp.StatusCode, m)
				}
				if sc == RateLimited && resp.Header.Get("retry-after") != "2" {
					t.Errorf("retry-after %q", resp.Header.Get("retry-after"))
				}
				return
			}
			if m["object"] != "response" || m["model"] != "gpt-5-nano-2025-08-07" {
				t.Errorf("%v", m)
			}
			out, _ := m["output"].([]any)
			for _, it := range out {
				item := it.(map[string]any)
				if item["type"] != "message" {
					continue
				}
				for _, p := range item["content"].([]any) {
					part := p.(map[string]any)
					text := part["text"].(string)
					for _, a := range part["annotations"].([]any) {
						an := a.(map[string]any)
						s, e := int(an["start_index"].(float64)), int(an["end_index"].(float64))
						span := sliceUnits(text, s, e, sc == AstralUTF16)
						if !strings.HasPrefix(span, "([") || !strings.HasSuffix(span, "))") || !strings.Contains(span, an["url"].(string)) {
							t.Errorf("annotation %d..%d is %q", s, e, span)
						}
					}
				}
			}
		})
	}
}

func sliceUnits(s string, start, end int, utf16 bool) string {
	var b bytes.Buffer
	n := 0
	for _, r := range s {
		w := 1
		if utf16 && r >= 0x10000 {
			w = 2
		}
		if n >= start && n < end {
			b.WriteRune(r)
		}
		n += w
	}
	return b.String()
}

func TestControlRoutes(t *testing.T) {
	f := New(Options{})
	base, stop := f.Start()
	defer stop()
	resp, err := http.Post(base+"/_fake/faults", "application/json", strings.NewReader(`[{"scenario":"overloaded","count":1},{"scenario":"plain"}]`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	if r, _ := post(t, base+"/v1/responses", "sk-test", okBody); r.StatusCode != 503 {
		t.Errorf("first: %d", r.StatusCode)
	}
	if _, m := post(t, base+"/v1/responses", "sk-test", okBody); len(m["output"].([]any)) != 3 {
		t.Errorf("plain: %v", m["output"])
	}
	resp, _ = http.Post(base+"/_fake/faults", "application/json", strings.NewReader(`{"scenario":"nonsense"}`))
	if resp.StatusCode != 400 {
		t.Errorf("unknown scenario: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodDelete, base+"/_fake/faults", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatal(err)
	}
	if _, m := post(t, base+"/v1/responses", "sk-test", okBody); len(m["output"].([]any)) != 8 {
		t.Errorf("after clear: %d items", len(m["output"].([]any)))
	}
	resp, _ = http.Get(base + "/_fake/requests")
	var recs []Recorded
	_ = json.NewDecoder(resp.Body).Decode(&recs)
	if len(recs) != 3 || recs[0].Body["model"] != "gpt-5-nano" {
		t.Errorf("requests %+v", recs)
	}
}
