// Command fake-google-news-rss serves the faithful fake Google News RSS search
// feed on a loopback address, for demos and manual runs of google-news-rss:
//
//	fake-google-news-rss -addr 127.0.0.1:8806
//	GOOGLE_NEWS_BASE_URL=http://127.0.0.1:8806 google-news-rss
//
// Faults are switched over HTTP: curl -d '{"status":429}' http://127.0.0.1:8806/_fake/faults
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8806", "loopback address to listen on")
	items := flag.Int("items", 30, "items per search feed (Google caps at about 100)")
	sorryAddr := flag.String("sorry-addr", "", "loopback address playing www.google.com, where throttled searches are redirected (default: a free port on -addr's host)")
	throttleAbove := flag.Int("throttle-above", 0, "throttle on its own past this many searches a minute (0: only when told through /_fake/faults)")
	flag.Parse()

	host := loopbackOnly("-addr", *addr)
	if *sorryAddr == "" {
		*sorryAddr = net.JoinHostPort(host, "0")
	}
	loopbackOnly("-sorry-addr", *sorryAddr)
	sl, err := net.Listen("tcp", *sorryAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-google-news-rss: sorry host:", err)
		os.Exit(1)
	}
	srv := fake.New(fake.Options{Items: *items, SorryBase: "http://" + sl.Addr().String(), ThrottleAbove: *throttleAbove})
	fmt.Fprintf(os.Stderr, "fake-google-news-rss: serving http://%s/rss/search (faults: POST /_fake/faults), www.google.com role on http://%s\n", *addr, sl.Addr())
	sorry := &http.Server{Handler: srv.SorryHandler(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = sorry.Serve(sl) }()
	dr, err := fakeupstream.DriftFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, fakeupstream.EnvDrift+":", err)
		os.Exit(2)
	}
	srv.Drift().Set(dr)
	hs := &http.Server{Addr: *addr, Handler: srv.Drift().Wrap(srv), ReadHeaderTimeout: 5 * time.Second}
	if err := hs.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "fake-google-news-rss:", err)
		os.Exit(1)
	}
}

func loopbackOnly(flagName, addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-google-news-rss: bad "+flagName+":", err)
		os.Exit(2)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintln(os.Stderr, "fake-google-news-rss: "+flagName+" must be a loopback address (127.0.0.1, ::1 or localhost)")
		os.Exit(2)
	}
	return host
}
