package pagereader

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/temoto/robotstxt"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// robotsTTL is how long a site's robots.txt is trusted (RFC 9309 §2.4:
// "crawlers SHOULD NOT use the cached version for more than 24 hours").
const robotsTTL = 12 * time.Hour

// robotsFile is what a site answered for /robots.txt: the status and the
// body (bounded), read again into rules at each use.
type robotsFile struct {
	Status int    `json:"status"`
	Body   []byte `json:"body,omitempty"`
	// Unreachable: the site could not be asked (network error, 5xx):
	// RFC 9309 §2.3.1.4 says to assume complete disallow.
	Unreachable bool `json:"unreachable,omitempty"`
}

// allowed checks u against its site's robots.txt for the reader's product
// token. A refusal is permission_denied naming the rule's source.
func (r *Reader) allowed(ctx context.Context, u *url.URL) error {
	if r.cfg.IgnoreRobots {
		return nil
	}
	origin := u.Scheme + "://" + u.Host
	f, _, err := r.robots.Get(ctx, origin, func(ctx context.Context) (robotsFile, error) { return r.readRobots(ctx, origin) })
	if err != nil {
		return err
	}
	site := extract.Clip(u.Host, 120)
	if f.Unreachable {
		return envelope.New(envelope.UpstreamUnavailable, "%s/robots.txt could not be read (the site failed or did not answer), and a reader must then assume it may read nothing (RFC 9309 §2.3.1.4); try again later", site).
			WithRetryAfter(time.Minute)
	}
	data, err := robotstxt.FromStatusAndBytes(f.Status, f.Body)
	if err != nil || data == nil {
		return nil // unparsable: RFC 9309 §2.2 asks to use what parses; temoto refuses the whole file, so nothing binds
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if !data.TestAgent(path, r.token) {
		return envelope.New(envelope.PermissionDenied, "%s/robots.txt disallows %s for user agent %s, so the page is not read; use another source (or the search answer's own summary)", site, extract.Clip(u.EscapedPath(), 120), r.token).
			WithDetail("robots_txt", origin+"/robots.txt")
	}
	return nil
}

// readRobots asks origin for /robots.txt (redirects followed, RFC 9309
// §2.3.1.2, through the same address checks).
func (r *Reader) readRobots(ctx context.Context, origin string) (robotsFile, error) {
	ctx, cancel := context.WithTimeout(ctx, min(r.cfg.Timeout, 10*time.Second))
	defer cancel()
	u, _ := url.Parse(origin + "/robots.txt")
	if err := r.polite(ctx, u.Host); err != nil {
		return robotsFile{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return robotsFile{}, err
	}
	req.Header.Set("User-Agent", r.cfg.UserAgent)
	client := &http.Client{Transport: r.client.Transport, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) > r.cfg.MaxRedirects || (req.URL.Scheme != "http" && req.URL.Scheme != "https") {
			return errTooManyRobotRedirects
		}
		return nil
	}}
	resp, err := client.Do(req)
	if err != nil {
		var dns *net.DNSError
		if _, refused := asRefused(err); refused || errors.As(err, &dns) {
			return robotsFile{}, r.fail(ctx, u, err) // the page cannot be reached either: say why
		}
		if errors.Is(err, errTooManyRobotRedirects) {
			return robotsFile{Status: http.StatusNotFound}, nil // RFC 9309 §2.3.1.2: past five redirects, "unavailable"
		}
		return robotsFile{Unreachable: true}, nil
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
		return robotsFile{Status: resp.StatusCode, Unreachable: true}, nil
	}
	body, _, err := readBounded(resp.Body, robotsMaxBytes) // RFC 9309 §2.5: at least 500 KiB parsed
	if err != nil {
		return robotsFile{Unreachable: true}, nil
	}
	return robotsFile{Status: resp.StatusCode, Body: body}, nil
}

var errTooManyRobotRedirects = errors.New("robots.txt: too many redirects")
