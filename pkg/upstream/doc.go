// Package upstream is the HTTP client every bridge uses to call its upstream API:
// one place for deadlines, retries, size caps, error mapping and secret hygiene.
//
// A Client is built once per upstream with New(Config) and is safe for concurrent
// use. Each Do call:
//
//   - runs under one deadline (Request.Timeout, else Config.Timeout, default 15s,
//     and never later than the caller's ctx): the deadline covers every attempt,
//     every backoff sleep and the whole response body, so a slow-drip body ends at
//     the deadline too;
//   - retries only what is safe to repeat: GET, HEAD and OPTIONS, or a request marked
//     Idempotent (an upstream that dedups by an idempotency key, a cancel that is a
//     no-op the second time). Retried failures are connection errors (refused,
//     reset, dropped, truncated body), 429 and 500/502/503/504, up to Config.Retries
//     (default 2) with capped exponential backoff and jitter, never sleeping past the
//     deadline. A 429 or 503 Retry-After (seconds or HTTP-date) is honoured when it is
//     at most Config.MaxRetryAfter (default 5s) and fits in the remaining deadline;
//     otherwise the call gives up at once with rate_limited (or upstream_unavailable)
//     carrying that retry-after, so the model can wait instead of us. Config.Final
//     names answers meant as final despite their status (a daily quota used up):
//     those end the call at once;
//   - never retries any other request (a POST that places an order), with a single
//     exception: when the request provably never left this process — the connection
//     could not be made (dial error: connection refused, DNS failure) so not one byte
//     of the request was written. That is the only failure after which a repeat
//     cannot double an effect. A write that was sent and then failed (timeout,
//     reset, truncated answer) is outcome_unknown: "the request may have been
//     processed; check before repeating". So is a bare 500, 502 or 504 to such a
//     write (no error body a detector recognises: a crash, a proxy page, a gateway
//     timeout), since the upstream may have acted before failing; 429 and 503 mean
//     "rejected before processing" and keep their codes. This is why resty's own retry loop is not
//     used: it is client-wide in resty v2 (not per request), its AddRetryCondition
//     replaces the built-in retry on transport errors, and it cannot tell a dial
//     failure from a failure after sending. Resty builds and executes each attempt;
//     this package owns the loop;
//   - caps the body at Config.MaxBodyBytes (default 8 MiB; larger → upstream_error
//     "larger than N bytes", not retried) and never returns a partial body: a body cut
//     short (Content-Length mismatch, unexpected EOF, reset mid-body) is an error;
//   - maps the outcome to an *envelope.Error. Detectors (Config.Detectors, from
//     package extract) run first on every body — on non-2xx answers to get the
//     upstream's own message and code, and on 2xx answers (unless Request.NoDetect)
//     to find errors sent inside a 200. Without a detector hit the status decides:
//     401 unauthenticated, 403 permission_denied, 404 not_found, 409 conflict,
//     400/422 invalid_argument, 429 rate_limited (+retry-after), 502/503/504
//     upstream_unavailable (retryable), other 5xx upstream_error (retryable). An HTML
//     error page therefore maps by its status. Transport failures: refused/DNS →
//     upstream_unavailable ("cannot reach ktrdr at http://…; is it running? set
//     KTRDR_API_URL"); deadline → timeout, or outcome_unknown for a sent
//     non-idempotent write.
//
// Secrets: Config.SecretHeaders, request headers whose names look secret
// (Authorization, X-Api-Key, Cookie, …) and query/form values whose names look secret
// (key, token, secret, password, jKey, …) are sent but never logged, and their values
// are scrubbed from every error message and cause. Requests never follow a redirect
// to another host (Config.CrossHostRedirect may say what such a redirect means, e.g.
// a throttle page, instead of the generic refusal), and an absolute Request.Path on another host than BaseURL is
// refused, so keys only go where they were configured for. There is no cookie jar:
// one Client is shared by every user of a server. Config.Logger gets one debug line
// per attempt (op, method, path, redacted query, status, duration, attempt); bodies
// and headers are never logged. Error causes never contain the request URL.
//
// Malformed JSON in a 2xx body is the caller's to detect, through package extract
// (GetJSON/PostJSON do it for you).
package upstream
