package fakeupstream

import (
	"fmt"
	"net"
	"net/http"
	"time"
)

// CheckLoopback refuses any address but a loopback one: a fake upstream
// answers anything to anyone and must never be reachable from outside.
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("a fake upstream listens on loopback only, not %q", addr)
	}
	return nil
}

// Listen serves h on addr (loopback only) and returns its base URL
// ("http://host:port") and a stop func that closes it at once (a fake has no
// answer worth draining; a hung fault must not hold a test's cleanup).
func Listen(addr string, h http.Handler) (base string, stop func(), err error) {
	if err := CheckLoopback(addr); err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}
