package fake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, url, key string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return resp.StatusCode, m
}

// TestModelLifecycle: GET /v1/models/{id} carries shutdown_date; from that
// date the model answers 404 model_not_found, there and on /v1/responses.
func TestModelLifecycle(t *testing.T) {
	f := New(Options{})
	base, stop := f.Start()
	defer stop()
	f.SetNow(func() time.Time { return time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC) })
	st, m := get(t, base+"/v1/models/gpt-5-nano", "sk-test")
	if st != 200 || m["id"] != "gpt-5-nano" || m["object"] != "model" || m["shutdown_date"] != "2026-12-11" {
		t.Errorf("%d %v", st, m)
	}
	if st, m := get(t, base+"/v1/models/gpt-6-luna", "sk-test"); st != 200 || m["shutdown_date"] != nil {
		t.Errorf("%d %v", st, m)
	}
	if st, _ := get(t, base+"/v1/models/gpt-6-luna", "sk-nope"); st != 401 {
		t.Errorf("unauthorised read answered %d", st)
	}
	if resp, _ := post(t, base+"/v1/responses", "sk-test", okBody); resp.StatusCode != 200 {
		t.Errorf("gpt-5-nano before its shutdown: %d", resp.StatusCode)
	}
	f.SetNow(func() time.Time { return time.Date(2026, 12, 11, 0, 0, 0, 0, time.UTC) })
	resp, m := post(t, base+"/v1/responses", "sk-test", okBody)
	if code, _ := errCode(m); resp.StatusCode != 404 || code != "model_not_found" ||
		m["error"].(map[string]any)["message"] != "The model `gpt-5-nano` does not exist or you do not have access to it." {
		t.Errorf("%d %v", resp.StatusCode, m)
	}
	if st, m := get(t, base+"/v1/models/gpt-5-nano", "sk-test"); st != 404 {
		t.Errorf("%d %v", st, m)
	}
	if resp, _ := post(t, base+"/v1/responses", "sk-test", strings.Replace(okBody, "gpt-5-nano", "gpt-9-imaginary", 1)); resp.StatusCode != 404 {
		t.Errorf("unknown model answered %d", resp.StatusCode)
	}
	if f.ModelReads() != 3 { // the unauthorised read is not answered
		t.Errorf("%d model reads", f.ModelReads())
	}
}

// TestRealRequestRules: minimal effort with web_search is the recorded 400
// (param tools, code null); none is taken by gpt-6 models; up to 100
// allowed domains.
func TestRealRequestRules(t *testing.T) {
	f := New(Options{})
	base, stop := f.Start()
	defer stop()
	url := base + "/v1/responses"
	domains := func(n int) string {
		ds := make([]string, n)
		for i := range ds {
			ds[i] = fmt.Sprintf("%q", fmt.Sprintf("d%d.com", i))
		}
		return strings.Join(ds, ",")
	}
	tool := `"tools":[{"type":"web_search"}]`
	cases := []struct {
		body        string
		status      int
		param, text string
	}{
		{`{"model":"gpt-6-luna","input":"x",` + tool + `,"reasoning":{"effort":"minimal"}}`, 400, "tools", "The following tools cannot be used with reasoning.effort 'minimal': web_search."},
		{`{"model":"gpt-5-nano","input":"x",` + tool + `,"reasoning":{"effort":"minimal"}}`, 400, "tools", "The following tools cannot be used with reasoning.effort 'minimal': web_search."},
		{`{"model":"gpt-5-nano","input":"x","tools":[],"reasoning":{"effort":"minimal"}}`, 200, "", ""},
		{`{"model":"gpt-6-luna","input":"x",` + tool + `,"reasoning":{"effort":"none"}}`, 200, "", ""},
		{`{"model":"gpt-5-nano","input":"x",` + tool + `,"reasoning":{"effort":"none"}}`, 400, "reasoning.effort", ""},
		{`{"model":"gpt-6-luna","input":"x","tools":[{"type":"web_search","filters":{"allowed_domains":[` + domains(100) + `]}}]}`, 200, "", ""},
		{`{"model":"gpt-6-luna","input":"x","tools":[{"type":"web_search","filters":{"allowed_domains":[` + domains(101) + `]}}]}`, 400, "tools[0].filters.allowed_domains", ""},
	}
	for i, tc := range cases {
		resp, m := post(t, url, "sk-test", tc.body)
		_, param := errCode(m)
		msg, _ := m["error"].(map[string]any)
		if resp.StatusCode != tc.status || param != tc.param || (tc.text != "" && msg["message"] != tc.text) {
			t.Errorf("case %d: %d %q %v", i, resp.StatusCode, param, m)
		}
		if tc.text != "" && msg["code"] != nil {
			t.Errorf("case %d: code %v, recorded null", i, msg["code"])
		}
	}
}

// TestPhaseAndToolUsage: gpt-6 answers carry a commentary message before the
// searches, phase final_answer on the answer and tool_usage counting search
// actions only; gpt-5 answers have neither.
func TestPhaseAndToolUsage(t *testing.T) {
	f := New(Options{})
	base, stop := f.Start()
	defer stop()
	_, m := post(t, base+"/v1/responses", "sk-test", strings.Replace(okBody, "gpt-5-nano", "gpt-6-luna", 1))
	var phases []string
	for _, it := range m["output"].([]any) {
		if o := it.(map[string]any); o["type"] == "message" {
			phases = append(phases, fmt.Sprint(o["phase"]))
		}
	}
	tu := m["tool_usage"].(map[string]any)["web_search"].(map[string]any)
	if fmt.Sprint(phases) != "[commentary final_answer]" || tu["num_requests"] != float64(1) {
		t.Errorf("phases %v tool_usage %v", phases, tu)
	}
	_, m = post(t, base+"/v1/responses", "sk-test", okBody)
	if _, has := m["tool_usage"]; has {
		t.Error("gpt-5-nano answer with tool_usage")
	}
	for _, it := range m["output"].([]any) {
		if _, has := it.(map[string]any)["phase"]; has {
			t.Error("gpt-5-nano message with phase")
		}
	}
}

// TestIncompleteWhenOutOfRoom: a max_output_tokens below what the answer
// needs ends incomplete for max_output_tokens.
func TestIncompleteWhenOutOfRoom(t *testing.T) {
	f := New(Options{})
	base, stop := f.Start()
	defer stop()
	_, m := post(t, base+"/v1/responses", "sk-test", strings.Replace(okBody, `"store":false`, `"store":false,"max_output_tokens":500`, 1))
	if m["status"] != "incomplete" || m["incomplete_details"].(map[string]any)["reason"] != "max_output_tokens" {
		t.Errorf("%v %v", m["status"], m["incomplete_details"])
	}
}

// TestMaxToolCallsCountsEveryBuiltInCall: max_tool_calls caps the
// web_search_call items of an answer whatever their action — "The maximum
// number of total calls to built-in tools that can be processed in a
// response … applies across all built-in tool calls, not per individual
// tool" (openai-go responses/response.go, Response.MaxToolCalls;
// openai-python Response.max_tool_calls) — so with 2 the default answer
// keeps its search and its open_page and loses the find_in_page; only
// searches are billed (tool_usage), and max_tool_calls is echoed.
func TestMaxToolCallsCountsEveryBuiltInCall(t *testing.T) {
	f := New(Options{})
	base, stop := f.Start()
	defer stop()
	for _, tc := range []struct {
		max     string // "" = not sent
		actions string
		billed  float64
	}{
		{"", "[search open_page find_in_page]", 1},
		{"1", "[search]", 1},
		{"2", "[search open_page]", 1},
		{"3", "[search open_page find_in_page]", 1},
		{"6", "[search open_page find_in_page]", 1},
	} {
		body := strings.Replace(okBody, "gpt-5-nano", "gpt-6-luna", 1)
		if tc.max != "" {
			body = strings.Replace(body, `"store":false`, `"store":false,"max_tool_calls":`+tc.max, 1)
		}
		_, m := post(t, base+"/v1/responses", "sk-test", body)
		var actions []string
		for _, it := range m["output"].([]any) {
			if o := it.(map[string]any); o["type"] == "web_search_call" {
				actions = append(actions, fmt.Sprint(o["action"].(map[string]any)["type"]))
			}
		}
		tu := m["tool_usage"].(map[string]any)["web_search"].(map[string]any)
		if fmt.Sprint(actions) != tc.actions || tu["num_requests"] != tc.billed || (tc.max != "" && fmt.Sprint(m["max_tool_calls"]) != tc.max) {
			t.Errorf("max_tool_calls %q: actions %v, billed %v, echoed %v", tc.max, actions, tu["num_requests"], m["max_tool_calls"])
		}
	}
	if st, m := post(t, base+"/v1/responses", "sk-test", strings.Replace(okBody, `"store":false`, `"store":false,"max_tool_calls":0`, 1)); st.StatusCode != 400 {
		t.Errorf("max_tool_calls 0: %d %v", st.StatusCode, m)
	}
}
