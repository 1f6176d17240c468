package pagereader

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// refusedRanges are the destinations a page read never connects to: the
// addresses a server (not the public web) sits on. Sources: RFC 6890 (the
// special-purpose registries), RFC 6598 (shared address space, CGNAT),
// RFC 3927 and RFC 4291 (link-local, where cloud metadata services answer:
// 169.254.169.254, fd00:ec2::254 is unique-local), RFC 4193 (unique local
// IPv6). Loopback is refused too unless Config.AllowLoopback.
var refusedRanges = []struct {
	prefix netip.Prefix
	why    string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "\"this network\" (0.0.0.0/8)"},
	{netip.MustParsePrefix("10.0.0.0/8"), "a private network (10.0.0.0/8)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "carrier-grade NAT space (100.64.0.0/10)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback (127.0.0.0/8)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local, where cloud metadata services answer (169.254.0.0/16)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "a private network (172.16.0.0/12)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments (192.0.0.0/24)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation space (192.0.2.0/24)"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast (192.88.99.0/24)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "a private network (192.168.0.0/16)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking space (198.18.0.0/15)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation space (198.51.100.0/24)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation space (203.0.113.0/24)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast (224.0.0.0/4)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved space and broadcast (240.0.0.0/4)"},
	{netip.MustParsePrefix("::/128"), "the unspecified address (::)"},
	{netip.MustParsePrefix("::1/128"), "loopback (::1)"},
	{netip.MustParsePrefix("::ffff:0:0/96"), "an IPv4-mapped IPv6 address (::ffff:0:0/96)"},
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64, which reaches IPv4 space (64:ff9b::/96)"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local-use NAT64 (64:ff9b:1::/48)"},
	{netip.MustParsePrefix("100::/64"), "the discard prefix (100::/64)"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignments (2001::/23)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation space (2001:db8::/32)"},
	{netip.MustParsePrefix("2002::/16"), "6to4, which reaches IPv4 space (2002::/16)"},
	{netip.MustParsePrefix("fc00::/7"), "unique-local IPv6 (fc00::/7)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local IPv6 (fe80::/10)"},
	{netip.MustParsePrefix("fec0::/10"), "site-local IPv6 (fec0::/10)"},
	{netip.MustParsePrefix("ff00::/8"), "multicast (ff00::/8)"},
}

// loopback are the ranges AllowLoopback opens (tests and local fakes).
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// Refusal says why addr is not a destination, or "" when it is one.
// allowLoopback opens 127.0.0.0/8 and ::1, nothing else.
func Refusal(addr netip.Addr, allowLoopback bool) string {
	if !addr.IsValid() {
		return "not an IP address"
	}
	addr = addr.WithZone("")
	if allowLoopback {
		for _, p := range loopback {
			if p.Contains(addr) {
				return ""
			}
		}
	}
	for _, r := range refusedRanges {
		if r.prefix.Contains(addr) {
			return r.why
		}
	}
	return ""
}

// RefusedError is a destination the reader would not connect to. No packet
// was sent to it.
type RefusedError struct {
	Host string     // as named in the URL
	Addr netip.Addr // the address it resolved to
	Why  string
}

func (e *RefusedError) Error() string {
	if e.Host != "" && e.Host != e.Addr.String() {
		return fmt.Sprintf("%s resolves to %s, %s", e.Host, e.Addr, e.Why)
	}
	return fmt.Sprintf("%s is %s", e.Addr, e.Why)
}

// Resolver looks host names up (net.DefaultResolver in production; tests
// give their own, so a name can resolve to any address without DNS).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// dialer connects only to addresses Refusal allows: the host is resolved
// here, every address is checked, and the connection is made to the checked
// address itself (so DNS cannot answer differently between check and
// connect); the socket's Control hook checks the address once more.
type dialer struct {
	resolver      Resolver
	allowLoopback bool
	net           net.Dialer
}

func newDialer(r Resolver, allowLoopback bool, timeout time.Duration) *dialer {
	d := &dialer{resolver: r, allowLoopback: allowLoopback}
	if d.resolver == nil {
		d.resolver = net.DefaultResolver
	}
	d.net = net.Dialer{Timeout: timeout, Control: d.control}
	return d
}

// control refuses a socket about to connect to a refused address, whatever
// path led there.
func (d *dialer) control(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return &RefusedError{Host: host, Why: "not an IP address"}
	}
	if why := Refusal(a, d.allowLoopback); why != "" {
		return &RefusedError{Addr: a, Why: why}
	}
	return nil
}

// DialContext resolves, checks and connects.
func (d *dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	if _, err := strconv.Atoi(port); err != nil {
		return nil, fmt.Errorf("pagereader: bad port in %q", address)
	}
	addrs, err := d.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var firstErr error
	for _, a := range addrs {
		c, err := d.net.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, firstErr
}

// resolve returns host's allowed addresses; if it has none, the refusal of
// the first one.
func (d *dialer) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		found, err := d.resolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
		addrs = found
	}
	ok := addrs[:0:0]
	var refused *RefusedError
	for _, a := range addrs {
		if why := Refusal(a, d.allowLoopback); why != "" {
			if refused == nil {
				refused = &RefusedError{Host: host, Addr: a, Why: why}
			}
			continue
		}
		ok = append(ok, a)
	}
	switch {
	case refused != nil:
		// A name with one refused address among public ones is refused whole:
		// which address a later connection picks is not ours to choose.
		return nil, refused
	case len(ok) == 0:
		return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return ok, nil
}

// asRefused finds a RefusedError in err's chain.
func asRefused(err error) (*RefusedError, bool) {
	var r *RefusedError
	ok := errors.As(err, &r)
	return r, ok
}
