// Command fake-shoonya runs the fake Noren (Shoonya) OMS on loopback for
// demos and manual testing. Every credential it prints is FAKE.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9600", "loopback listen address")
	seed := flag.Uint64("seed", 1, "random-walk seed")
	tick := flag.Duration("tick", 100*time.Millisecond, "tick interval per subscribed token (negative: off)")
	autoApprove := flag.Bool("oauth-auto-approve", false, "OAuth authorize page redirects at once with a code")
	legacyGone := flag.Bool("legacy-gone", false, "answer 502 on /NorenWClientTP/ (post 2026-04-01 behaviour)")
	noRateLimit := flag.Bool("no-rate-limit", false, "disable the 20/s, 200/min limiter")
	allowMarket := flag.Bool("allow-market-orders", false, "let MKT/SL-MKT orders fill (the real OMS rejects them from the API)")
	echoState := flag.Bool("oauth-echo-state", false, "copy state into the OAuth redirect (the real one carries only ?code=)")
	verbose := flag.Bool("v", false, "debug logging")
	lastHoliday := flag.Bool("last-holiday", false, "print the latest listed exchange holiday on or before today (IST) as YYYY-MM-DD and exit (make test runs the date-sensitive tests on it)")
	flag.Parse()
	if *lastHoliday {
		h := fake.LastHoliday(time.Now())
		if h.IsZero() {
			fmt.Fprintln(os.Stderr, "fake-shoonya: no listed holiday before today: extend nseHolidays in servers/shoonya/fake/calendar.go")
			os.Exit(1)
		}
		fmt.Println(h.Format("2006-01-02"))
		return
	}

	log := zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, TimeFormat: time.RFC3339, NoColor: true}).With().Timestamp().Logger()
	if !*verbose {
		log = log.Level(zerolog.InfoLevel)
	}
	if err := fake.CheckLoopback(*addr); err != nil {
		log.Fatal().Err(err).Msg("refusing to start")
	}
	cfg := fake.Config{
		Seed: *seed, TickInterval: *tick, OAuthAutoApprove: *autoApprove, LegacyGone: *legacyGone,
		RateLimit: fake.RateLimit{Disabled: *noRateLimit}, Logger: &log, AllowMarketOrders: *allowMarket, OAuthEchoState: *echoState,
	}
	srv := fake.New(cfg)
	dr, err := fakeupstream.DriftFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, fakeupstream.EnvDrift+":", err)
		os.Exit(2)
	}
	srv.Drift().Set(dr)
	urls, err := srv.StartAt(*addr)
	if err != nil {
		log.Fatal().Err(err).Msg("listen")
	}
	demo := fake.DemoAccount()
	fmt.Fprintf(os.Stderr, `fake-shoonya: a FAKE Noren OMS for tests — nothing here touches a real broker.
  REST (legacy QuickAuth) %s
  REST (OAuth, Bearer)    %s
  WS   (legacy, t:"c")    %s
  WS   (OAuth, t:"a")     %s
  OAuth authorize page    %s?client_id=%s&redirect_uri=<loopback url>
  control (faults etc.)   %s
FAKE demo account (not a real login):
  uid=%s password=%s vc=%s api_secret=%s
  totp_secret=%s (RFC 6238, 6 digits, 30 s)
  oauth client_id=%s client_secret=%s
`, urls.LegacyREST, urls.OAuthREST, urls.LegacyWS, urls.OAuthWS, urls.Authorize, demo.ClientID, urls.Control,
		demo.UID, demo.Password, demo.VendorCode, demo.APISecret, demo.TOTPSecret, demo.ClientID, demo.ClientSecret)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	log.Info().Msg("shutting down")
	srv.Close()
}
