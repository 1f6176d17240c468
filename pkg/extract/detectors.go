package extract

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// SuccessFalse recognises the {"success": false, "error": ...} envelope (KTRDR's
// ApiResponse and similar). error may be a string or {"code","message","details"}.
// The code follows the HTTP status when it is an error status, else the upstream's
// error code (DATA_NOT_FOUND → not_found, VALIDATION_ERROR/DATA_ERROR →
// invalid_argument, CONNECTION_ERROR → upstream_unavailable), else upstream_error.
// The upstream's code goes to details.upstream_code; validation details
// ([{field,message}]) to details.fields.
func SuccessFalse(status int, body []byte) *envelope.Error {
	if !bytes.Contains(body, []byte(`"success"`)) {
		return nil
	}
	m := object(body)
	if m == nil || strings.TrimSpace(string(m["success"])) != "false" {
		return nil
	}
	msg, upCode := "", ""
	var fields []map[string]any
	if raw, ok := m["error"]; ok {
		if em := object(raw); em != nil {
			upCode, _ = str(em["code"])
			msg = text(em["message"])
			fields = fieldList(em["details"])
		} else {
			msg = text(raw)
		}
	}
	if msg == "" {
		msg = text(m["message"])
	}
	if msg == "" {
		msg = "the upstream reported success:false without a reason"
	}
	msg = Clip(msg, MaxUpstreamText)
	if len(fields) > 0 {
		msg = Clip(msg+": "+fieldsText(fields), MaxUpstreamText)
	}
	var e *envelope.Error
	if !is2xx(status) && status != 0 {
		e = ErrorForStatus(status, msg)
	} else {
		e = envelope.New(codeForUpstreamCode(upCode), "%s", msg)
	}
	if upCode != "" {
		e = e.WithDetail("upstream_code", Clip(upCode, 64))
	}
	if len(fields) > 0 {
		e = e.WithDetail("fields", fields)
	}
	return e
}

func codeForUpstreamCode(c string) envelope.Code {
	c = strings.ToUpper(c)
	switch {
	case strings.Contains(c, "NOT_FOUND"):
		return envelope.NotFound
	case strings.Contains(c, "VALIDATION"), c == "DATA_ERROR", strings.Contains(c, "INVALID"):
		return envelope.InvalidArgument
	case strings.Contains(c, "CONNECTION"), strings.Contains(c, "UNAVAILABLE"):
		return envelope.UpstreamUnavailable
	case strings.Contains(c, "CONFLICT"):
		return envelope.Conflict
	case strings.Contains(c, "UNAUTH"):
		return envelope.Unauthenticated
	case strings.Contains(c, "RATE_LIMIT"):
		return envelope.RateLimited
	}
	return envelope.UpstreamError
}

// FastAPI recognises FastAPI's error bodies on non-2xx statuses:
//   - {"detail": "text"} (HTTPException): code by status (404 not_found, 409 conflict,
//     400 invalid_argument, 503 upstream_unavailable retryable, ...), refined by the
//     KTRDR backend's texts: "Operation not found: …" → not_found, "… cannot be
//     cancelled (status: …)" and "Operation not finished (status: …)" → conflict;
//   - {"detail": {...}} (a dict): its message/error field, or its compact JSON;
//   - 422 {"detail": [{"loc": [...], "msg": "...", "type": "..."}]}: invalid_argument
//     with details.fields [{field: loc joined by ".", message, type}] and a message
//     listing them.
func FastAPI(status int, body []byte) *envelope.Error {
	if is2xx(status) || !bytes.Contains(body, []byte(`"detail"`)) {
		return nil
	}
	m := object(body)
	raw, ok := m["detail"]
	if !ok {
		return nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		fields := fieldList(raw)
		if len(fields) == 0 {
			return ErrorForStatus(status, "the upstream rejected the request")
		}
		code := envelope.InvalidArgument
		if status >= 500 {
			code, _ = StatusCode(status)
		}
		msg := Clip("invalid arguments: "+fieldsText(fields), MaxUpstreamText)
		e := envelope.New(code, "%s", msg).WithDetail("fields", fields)
		if len(fields) == 1 {
			e = e.WithDetail("field", fields[0]["field"])
		}
		return e
	}
	msg := Clip(text(raw), MaxUpstreamText)
	if msg == "" {
		msg = "the upstream rejected the request"
	}
	lower := strings.ToLower(msg)
	switch {
	case strings.Contains(lower, "not found"):
		return envelope.New(envelope.NotFound, "%s", msg)
	case strings.Contains(lower, "cannot be cancelled"), strings.Contains(lower, "not finished (status"),
		strings.Contains(lower, "already running"), strings.Contains(lower, "already exists"):
		return envelope.New(envelope.Conflict, "%s", msg)
	}
	return ErrorForStatus(status, msg)
}

// fieldList reads validation items in the shapes FastAPI ({loc, msg, type}), KTRDR
// HEAD ({field, message, type}) and express-validator / chart-img ({param, msg,
// location}) use. Input values are never copied (they may be long or secret).
func fieldList(raw json.RawMessage) []map[string]any {
	var items []json.RawMessage
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []map[string]any
	for i, it := range items {
		if i == 20 {
			break
		}
		m := object(it)
		if m == nil {
			if s, ok := str(it); ok {
				out = append(out, map[string]any{"field": "", "message": Clip(s, 120)})
			}
			continue
		}
		field := ""
		if loc, ok := m["loc"]; ok {
			var parts []any
			if json.Unmarshal(loc, &parts) == nil {
				ss := make([]string, 0, len(parts))
				for _, p := range parts {
					switch p := p.(type) {
					case string:
						ss = append(ss, p)
					case float64:
						b, _ := json.Marshal(p)
						ss = append(ss, string(b))
					}
				}
				field = strings.Join(ss, ".")
			} else {
				field, _ = str(loc)
			}
		}
		for _, k := range []string{"field", "param", "path"} {
			if field == "" {
				field, _ = str(m[k])
			}
		}
		msg := text(m["msg"])
		if msg == "" {
			msg = text(m["message"])
		}
		item := map[string]any{"field": Clip(field, 120), "message": Clip(msg, 120)}
		if t, ok := str(m["type"]); ok && t != "" {
			item["type"] = Clip(t, 60)
		}
		out = append(out, item)
	}
	return out
}

func fieldsText(fields []map[string]any) string {
	parts := make([]string, 0, len(fields))
	for _, f := range fields {
		field, _ := f["field"].(string)
		msg, _ := f["message"].(string)
		switch {
		case field == "":
			parts = append(parts, msg)
		case msg == "":
			parts = append(parts, field)
		default:
			parts = append(parts, field+": "+msg)
		}
	}
	return strings.Join(parts, "; ")
}

// Noren recognises the Noren OMS (Shoonya) failure object {"stat":"Not_Ok","emsg":...}
// on any status. Arrays (list successes) and "stat":"Ok" are not errors. "no data"
// answers ("Error Occurred : 5 \"no data\"", "No Data :  ") are NOT errors: Noren sends
// them for empty books, so Noren returns nil and callers treat the body as empty (see
// NorenNoData). Otherwise: session expiry → unauthenticated ("log in again"); login
// failures (wrong password, invalid OTP, vendor code, access type) → unauthenticated;
// "User Not enabled", "Access Restricted" → permission_denied; "… not found" →
// not_found; "Invalid Input", "invalid input" → invalid_argument; "Server Timeout" →
// upstream_unavailable; HTTP 429 → rate_limited; anything else → upstream_error.
func Noren(status int, body []byte) *envelope.Error {
	if !bytes.Contains(body, []byte("Not_Ok")) {
		if status == 403 || status == 429 {
			// Live docs: 403 = session expired, 429 = rate limited, possibly with no JSON body.
			if status == 403 {
				return envelope.New(envelope.Unauthenticated, "the broker session expired; log in again")
			}
			return ErrorForStatus(429, "the broker's rate limit was hit (20 requests/s, 200/min)")
		}
		return nil
	}
	m := object(body)
	if m == nil {
		return nil
	}
	stat, _ := str(m["stat"])
	if !strings.EqualFold(strings.TrimSpace(stat), "Not_Ok") {
		return nil
	}
	emsg, _ := str(m["emsg"])
	if norenNoData(emsg) {
		return nil
	}
	msg := Clip(emsg, MaxUpstreamText)
	if msg == "" {
		msg = "the broker answered Not_Ok without a reason"
	}
	lower := strings.ToLower(emsg)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(lower, s) {
				return true
			}
		}
		return false
	}
	switch {
	case status == 429 || has("rate limit", "too many"):
		return ErrorForStatus(429, msg)
	case has("session expired", "invalid session"):
		return envelope.New(envelope.Unauthenticated, "%s; log in again", msg)
	case has("user not enabled", "access restricted"):
		return envelope.New(envelope.PermissionDenied, "%s", msg)
	case has("wrong password", "password expired", "change password", "invalid otp", "invalid vendor",
		"invalid access type", "invalid_verifier", "invalid user", "invalid api key", "invalid app key"):
		return envelope.New(envelope.Unauthenticated, "%s", msg)
	case has("not found"):
		return envelope.New(envelope.NotFound, "%s", msg)
	case has("invalid input", "missing", "invalid"):
		return envelope.New(envelope.InvalidArgument, "%s", msg)
	case has("server timeout", "timeout"):
		return envelope.New(envelope.UpstreamUnavailable, "%s", msg)
	case status == 403:
		return envelope.New(envelope.Unauthenticated, "%s; log in again", msg)
	}
	e := envelope.New(envelope.UpstreamError, "%s", msg)
	if status >= 500 {
		e = ErrorForStatus(status, msg)
	}
	return e
}

// NorenNoData reports whether body is Noren's "no data" answer (a Not_Ok object
// whose emsg says there is no data), which callers should read as an empty list.
func NorenNoData(body []byte) bool {
	m := object(body)
	if m == nil {
		return false
	}
	stat, _ := str(m["stat"])
	emsg, _ := str(m["emsg"])
	return strings.EqualFold(strings.TrimSpace(stat), "Not_Ok") && norenNoData(emsg)
}

func norenNoData(emsg string) bool {
	l := strings.ToLower(strings.TrimSpace(emsg))
	return strings.Contains(l, `"no data"`) || strings.HasPrefix(l, "no data")
}

// ChartImg recognises chart-img.com's error bodies on non-2xx statuses: {"message"},
// v1's {"error"} and {"errors":[...]}, and v2's 422 top-level array of
// {value,msg,param,location}. Mapping: 401 → unauthenticated ("set
// CHART_IMG_API_KEY"); 403 "Forbidden" → unauthenticated (bad key), "Exceed Max Usage
// … Limit (…)" → permission_denied (plan limit: lower the resolution or the number of
// studies+drawings), other 403 → permission_denied; 409 → conflict; 400/422 →
// invalid_argument with details.fields; 429 → rate_limited; 5xx by status.
func ChartImg(status int, body []byte) *envelope.Error {
	if is2xx(status) {
		return nil
	}
	b := bytes.TrimSpace(body)
	var msg string
	var fields []map[string]any
	switch {
	case len(b) > 0 && b[0] == '[':
		fields = fieldList(b)
	default:
		m := object(b)
		if m == nil {
			return nil
		}
		if raw, ok := m["errors"]; ok {
			fields = fieldList(raw)
		}
		msg = text(m["message"])
		if msg == "" {
			msg = text(m["error"])
		}
		if msg == "" && fields == nil {
			return nil
		}
	}
	if len(fields) > 0 {
		s := fieldsText(fields)
		if msg != "" {
			s = msg + ": " + s
		}
		msg = s
	}
	msg = Clip(msg, MaxUpstreamText)
	if msg == "" {
		msg = "chart-img rejected the request"
	}
	lower := strings.ToLower(msg)
	var e *envelope.Error
	switch {
	case status == 401:
		e = envelope.New(envelope.Unauthenticated, "chart-img rejected the API key (%s); set CHART_IMG_API_KEY to a valid key", msg)
	case status == 403 && strings.Contains(lower, "exceed max usage"):
		e = envelope.New(envelope.PermissionDenied, "%s: the chart-img plan does not allow this; lower the resolution or the number of studies+drawings", msg)
	case status == 403 && (strings.Contains(lower, "too many") || strings.Contains(lower, "limit exceeded")):
		e = ErrorForStatus(429, msg)
	case status == 403 && lower == "forbidden":
		e = envelope.New(envelope.Unauthenticated, "chart-img refused the API key (Forbidden); set CHART_IMG_API_KEY to a valid key")
	case status == 429 && strings.Contains(lower, "limit exceeded"):
		e = ErrorForStatus(429, msg+" (the plan's daily limit; try again later)")
	default:
		e = ErrorForStatus(status, msg)
	}
	if len(fields) > 0 {
		e = e.WithDetail("fields", fields)
	}
	return e
}

// Generic recognises the common {"error": "..."}, {"error": {"message": ...}},
// {"message": ...}, {"detail": ...} and {"error_description": ...} shapes on non-2xx
// statuses (Polymarket's {"error":"Invalid token id"}, OpenAI's
// {"error":{"message":...}}) and maps them by status. Put it last.
func Generic(status int, body []byte) *envelope.Error {
	if is2xx(status) {
		return nil
	}
	m := object(body)
	if m == nil {
		return nil
	}
	for _, k := range []string{"error", "message", "detail", "error_description", "errorMessage", "msg"} {
		if raw, ok := m[k]; ok {
			if msg := Clip(text(raw), MaxUpstreamText); msg != "" {
				return ErrorForStatus(status, msg)
			}
		}
	}
	return nil
}
