package pagereader

import (
	"context"
	"net/netip"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// refusedExamples: one address in each refused range (and its edges), with a
// word the refusal must name. None of them is ever dialled: the check comes
// before any connection.
var refusedExamples = []struct{ addr, why string }{
	{"0.0.0.0", "this network"},
	{"0.1.2.3", "this network"},
	{"10.0.0.1", "private"},
	{"10.255.255.255", "private"},
	{"100.64.0.1", "carrier-grade NAT"},
	{"100.127.255.254", "carrier-grade NAT"},
	{"100.100.100.200", "carrier-grade NAT"}, // Alibaba Cloud's metadata service
	{"127.0.0.1", "loopback"},
	{"127.255.0.9", "loopback"},
	{"169.254.169.254", "metadata"}, // AWS, GCP, Azure metadata
	{"169.254.0.1", "link-local"},
	{"172.16.0.1", "private"},
	{"172.31.255.255", "private"},
	{"192.0.0.8", "IETF"},
	{"192.0.2.10", "documentation"},
	{"192.88.99.1", "6to4"},
	{"192.168.1.1", "private"},
	{"198.18.0.1", "benchmarking"},
	{"198.51.100.7", "documentation"},
	{"203.0.113.9", "documentation"},
	{"224.0.0.251", "multicast"},
	{"240.0.0.1", "reserved"},
	{"255.255.255.255", "broadcast"},
	{"::", "unspecified"},
	{"::1", "loopback"},
	{"::ffff:127.0.0.1", "IPv4-mapped"},
	{"::ffff:10.0.0.1", "IPv4-mapped"},
	{"::ffff:8.8.8.8", "IPv4-mapped"},
	{"64:ff9b::a00:1", "NAT64"},
	{"64:ff9b:1::1", "NAT64"},
	{"100::1", "discard"},
	{"2001:db8::1", "documentation"},
	{"2002:a00:1::1", "6to4"},
	{"fc00::1", "unique-local"},
	{"fd00:ec2::254", "unique-local"}, // AWS metadata over IPv6
	{"fe80::1", "link-local"},
	{"fe80::1%eth0", "link-local"},
	{"fec0::1", "site-local"},
	{"ff02::1", "multicast"},
}

func TestRefusal(t *testing.T) {
	for _, c := range refusedExamples {
		a := netip.MustParseAddr(c.addr)
		if why := Refusal(a, false); !strings.Contains(why, c.why) {
			t.Errorf("%s: refusal %q, want it to name %q", c.addr, why, c.why)
		}
	}
	for _, public := range []string{"8.8.8.8", "1.1.1.1", "93.184.216.34", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0",
		"192.167.255.255", "198.17.255.255", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"} {
		if why := Refusal(netip.MustParseAddr(public), false); why != "" {
			t.Errorf("%s refused (%s): it is public", public, why)
		}
	}
	// AllowLoopback opens loopback and nothing else.
	for _, a := range []string{"127.0.0.1", "127.8.9.10", "::1"} {
		if why := Refusal(netip.MustParseAddr(a), true); why != "" {
			t.Errorf("%s with loopback allowed: %s", a, why)
		}
	}
	for _, a := range []string{"::ffff:127.0.0.1", "0.0.0.0", "10.0.0.1", "169.254.169.254", "::"} {
		if Refusal(netip.MustParseAddr(a), true) == "" {
			t.Errorf("%s allowed with loopback allowed", a)
		}
	}
}

// TestSSRFRefusedBeforeConnecting reads every refused address as a URL
// literal and through a name resolving to it: each is permission_denied
// naming the address, and nothing was dialled (a dial to these would fail
// differently: refused, timeout, unreachable).
func TestSSRFRefusedBeforeConnecting(t *testing.T) {
	res := names{}
	for i, c := range refusedExamples {
		if strings.Contains(c.addr, "%") {
			continue
		}
		res["host"+string(rune('a'+i%26))+strings.Repeat("x", i/26)+".test"] = []string{c.addr}
	}
	res["mixed.test"] = []string{"93.184.216.34", "10.0.0.8"} // one private answer refuses the name
	r := New(Config{Resolver: res, IgnoreRobots: true, PerHostRate: 1000})
	ctx := context.Background()
	for name, as := range res {
		_, err := r.Read(ctx, "http://"+name+"/x")
		e := errBody(t, err)
		if e.Code != envelope.PermissionDenied || !strings.Contains(e.Message, name+" resolves to ") || e.Details["refused_address"] == nil {
			t.Errorf("%s → %v: %s %s", name, as, e.Code, e.Message)
		}
	}
	for _, c := range refusedExamples {
		a := netip.MustParseAddr(c.addr)
		host := a.String()
		if a.Is6() {
			if a.Zone() != "" {
				continue // a zone cannot be put in a URL host portably
			}
			host = "[" + host + "]"
		}
		_, err := r.Read(ctx, "http://"+host+":8080/x")
		if e := errBody(t, err); e.Code != envelope.PermissionDenied || !strings.Contains(e.Message, "only public web addresses") {
			t.Errorf("%s: %s %s", host, e.Code, e.Message)
		}
	}
}

// TestRedirectIntoRefusedRange: a public (here: loopback, allowed for the
// test) page redirecting to the metadata service or to a name resolving
// into a private range is refused at the redirect.
func TestRedirectIntoRefusedRange(t *testing.T) {
	s := newSite(t)
	r := testReader(Config{})
	for path, addr := range map[string]string{"/to-metadata": "169.254.169.254", "/to-intranet": "10.0.0.7"} {
		_, err := r.Read(context.Background(), s.URL+path)
		e := errBody(t, err)
		if e.Code != envelope.PermissionDenied || e.Details["refused_address"] != addr {
			t.Errorf("%s: %s %s %v", path, e.Code, e.Message, e.Details)
		}
	}
}

// TestLoopbackOnlyWithTheVariable: loopback is refused unless
// MCPFLEET_FETCH_ALLOW_LOOPBACK is exactly 1.
func TestLoopbackOnlyWithTheVariable(t *testing.T) {
	s := newSite(t)
	for _, v := range []string{"", "0", "true", "yes"} {
		t.Setenv(EnvAllowLoopback, v)
		r := New(FromEnv(Config{PerHostRate: 1000}))
		_, err := r.Read(context.Background(), s.URL+"/article")
		if e := errBody(t, err); e.Code != envelope.PermissionDenied || !strings.Contains(e.Message, "loopback") {
			t.Errorf("%s=%q: %s %s", EnvAllowLoopback, v, e.Code, e.Message)
		}
	}
	t.Setenv(EnvAllowLoopback, "1")
	if _, err := New(FromEnv(Config{PerHostRate: 1000})).Read(context.Background(), s.URL+"/article"); err != nil {
		t.Errorf("%s=1: %v", EnvAllowLoopback, err)
	}
}
