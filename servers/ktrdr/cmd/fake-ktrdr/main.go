// Command fake-ktrdr serves the faithful fake KTRDR backend on a loopback
// address, for demos and manual runs of the ktrdr MCP server:
//
//	fake-ktrdr -addr 127.0.0.1:8000
//	KTRDR_API_URL=http://127.0.0.1:8000/api/v1 ktrdr
//
// Faults are switched over HTTP: curl -d '{"status":503}' http://127.0.0.1:8000/_fake/faults
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8000", "loopback address to listen on")
	dataLoad := flag.Duration("data-load-duration", 3*time.Second, "how long a data-load operation runs")
	training := flag.Duration("training-duration", 10*time.Second, "how long a training operation runs")
	backend := flag.String("backend", fake.BackendHEAD, "backend version to answer as: head (2c5c7173) or 3ba55e75")
	flag.Parse()
	if *backend != fake.BackendHEAD && *backend != fake.Backend3ba55e75 {
		fmt.Fprintln(os.Stderr, "fake-ktrdr: -backend must be head or 3ba55e75")
		os.Exit(2)
	}

	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-ktrdr: bad -addr:", err)
		os.Exit(2)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintln(os.Stderr, "fake-ktrdr: -addr must be a loopback address (127.0.0.1, ::1 or localhost)")
		os.Exit(2)
	}
	srv := fake.New(fake.Options{Backend: *backend, Scripts: map[string]fake.Script{
		"data_load": {Duration: *dataLoad, Steps: 5},
		"training":  {Duration: *training, Steps: 10},
	}})
	fmt.Fprintf(os.Stderr, "fake-ktrdr: serving http://%s%s (faults: POST /_fake/faults)\n", *addr, fake.APIPrefix)
	dr, err := fakeupstream.DriftFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, fakeupstream.EnvDrift+":", err)
		os.Exit(2)
	}
	srv.Drift().Set(dr)
	hs := &http.Server{Addr: *addr, Handler: srv.Drift().Wrap(srv), ReadHeaderTimeout: 5 * time.Second}
	if err := hs.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "fake-ktrdr:", err)
		os.Exit(1)
	}
}
