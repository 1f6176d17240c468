// Package fake is a faithful, in-process fake of the Shoonya (Finvasia) Noren
// OMS: REST under both auth generations (legacy QuickAuth on /NorenWClientTP/,
// OAuth GenAcsTok + Bearer on /NorenWClientAPI/), the market data websocket
// for both eras, an order state machine, and switchable faults. It follows
// the public Noren API sources (official Python SDK and docs); every reply text it uses is listed in
// errors.go.
package fake

import (
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"time"

	"github.com/rs/zerolog"
)

// Account is one fake Noren login. All credentials are fake.
type Account struct {
	UID        string // e.g. "FA12345"; also the actid
	Password   string // plain text; QuickAuth expects sha256_hex(Password)
	TOTPSecret string // base32 RFC 6238 secret for factor2
	VendorCode string // "vc"; default UID+"_U"
	APISecret  string // legacy appkey = sha256_hex(UID + "|" + APISecret)
	IMEI       string // informational; not checked (Noren does not either)

	ClientID     string // OAuth client_id; default UID+"_U"
	ClientSecret string // OAuth secret code used in the GenAcsTok checksum
	RedirectURL  string // registered OAuth redirect; empty = accept any loopback redirect_uri

	Name   string // uname
	Email  string
	Mobile string
	Cash   float64 // Limits "cash"; default 1,000,000

	Exchanges   []string // exarr; default NSE NFO BSE MCX
	AccessTypes []string // accepted QuickAuth source/access_type; default API WEB MOB

	APIDisabled     bool // QuickAuth → "Invalid Input : User Not enabled on : API"
	PasswordExpired bool // QuickAuth → "Invalid Input : Password Expired"
	APIOnly         bool // OAuth login page → "Access Restricted for API Only Users"

	Holdings []Holding // demat holdings served by /Holdings
}

// Holding is a demat position carried into the day.
type Holding struct {
	Exch     string
	TSym     string
	Qty      int
	AvgPrice float64 // upldprc
}

// RateLimit mirrors Noren's documented 20 requests/second and 200/minute
// (per user, or per remote address before login). Over the limit the fake
// answers HTTP 429.
type RateLimit struct {
	Disabled  bool
	PerSecond int // 0 → 20
	PerMinute int // 0 → 200
}

// Config configures a fake server. The zero value is usable: it serves the
// demo account and the default instrument universe.
type Config struct {
	Accounts    []Account          // empty → DemoAccount()
	Instruments []Instrument       // empty → DefaultInstruments(Now())
	Prices      map[string]float64 // "NSE|2885" → starting LTP, overrides Instrument.Price
	Seed        uint64             // random-walk seed; the same seed gives the same walk

	Now          func() time.Time // clock for the market calendar, sessions, timestamps; nil → clock.MustFromEnv (MCPFLEET_FAKE_NOW, else the wall clock)
	TOTPNow      func() time.Time // clock TOTP codes are checked against; nil → Now when Now is set, else the wall clock (whoever logs in makes codes from it)
	TOTPSkew     int              // accepted 30 s steps either side; 0 → 1, negative → 0
	SessionTTL   time.Duration    // token lifetime; 0 → 24h
	BrokerName   string           // brkname; "" → "FINVASIA"
	OAuthCodeTTL time.Duration    // auth code lifetime; 0 → 5m

	// OAuthAutoApprove makes GET on the authorize page redirect at once with
	// a code (as if the user had logged in). Per request: add auto=1.
	OAuthAutoApprove bool
	// OAuthEchoState copies a state parameter into the redirect. Off by
	// default: the real redirect carries only ?code= (kambalatech 0.0.33; auto_login.py).
	OAuthEchoState bool
	// ChartsRequireJKey makes OAuth-era TPSeries and EODChartData refuse a
	// request without &jKey= in the body (openalgo's claim in
	// broker/shoonya/api/data.py; the vendor SDK sends the Bearer header only).
	ChartsRequireJKey bool
	// LegacyGone makes /NorenWClientTP/ answer 502 Bad Gateway, as the real
	// host does after the 2026-04-01 OAuth switch.
	LegacyGone bool
	// SessionExpiredStatus is the HTTP status sent with "Session Expired :
	// Invalid Session Key"; 0 → 200 (the live docs say 403; samples show the body only).
	SessionExpiredStatus int

	// AllowMarketOrders lets MKT / SL-MKT orders fill. By default they are
	// accepted and then REJECTED, as the real OMS does for API orders since
	// 2026 (openalgo broker/shoonya/mapping/transform_data.py "Shoonya blocks both
	// MKT and SL-MKT order types for API orders").
	AllowMarketOrders bool
	NoDataEmsg        string // emsg for empty books; "" → `Error Occurred : 5 "no data"`
	EmptyBooksAsArray bool   // answer empty books with [] instead of Not_Ok
	LimitsMTMField    string // "urmtom" (sample, default) or "unmtom" (field table)
	RateLimit         RateLimit
	// TPSeriesMaxCandles: a TPSeries request that would make more candles
	// answers 504 "Server Timeout :  " (the limit is a count of candles, not
	// days: Shoonya-Dev/ShoonyaApi-py#58; marketcalls/openalgo
	// broker/shoonya/api/data.py). 0 → 5000. assumed: the live limit is not
	// published; openalgo's live-checked 1-minute window of 5 days (about
	// 1,875 NSE candles) is answered, and 28 days (about 7,500) is not.
	TPSeriesMaxCandles int
	// EODFirstDay is the oldest daily bar EODChartData holds; zero → 2 August
	// 2021. assumed: marketcalls/openalgo commit b5cdf635e (2026-08-05)
	// reports the live daily store reaching back only to about August 2021.
	EODFirstDay time.Time

	TickInterval time.Duration // random-walk step per active token; 0 → 100ms (10 ticks/s); <0 → off

	WSAckStatus         string   // "s" in ck/ak; "" → "OK"
	WSExtraPaths        []string // more websocket paths, e.g. "/NorenWS/"
	WSAnswerHeartbeat   bool     // reply {"t":"h"} to text heartbeats (default: ignore)
	WSNoUnsubscribeAcks bool     // do not send uk/udk
	WSOrdersUnasked     bool     // push "om" without a prior {"t":"o"}

	Logger *zerolog.Logger // nil → no logging
}

const demoTOTPSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

// DemoAccount returns the fake demo login (documented as fake everywhere).
func DemoAccount() Account {
	return Account{
		UID:          "FA12345",
		Password:     "fake-Passw0rd",
		TOTPSecret:   demoTOTPSecret,
		VendorCode:   "FA12345_U",
		APISecret:    "fake-api-secret-0000",
		IMEI:         "abc1234",
		ClientID:     "FA12345_U",
		ClientSecret: "fake-oauth-secret-0000",
		Name:         "DEMO USER",
		Email:        "demo@example.invalid",
		Mobile:       "9999999999",
		Cash:         1_000_000,
		Holdings: []Holding{
			{Exch: "NSE", TSym: "RELIANCE-EQ", Qty: 10, AvgPrice: 1250.40},
			{Exch: "NSE", TSym: "INFY-EQ", Qty: 5, AvgPrice: 1480.00},
		},
	}
}

func (a *Account) applyDefaults() {
	if a.VendorCode == "" {
		a.VendorCode = a.UID + "_U"
	}
	if a.ClientID == "" {
		a.ClientID = a.UID + "_U"
	}
	if a.Cash == 0 {
		a.Cash = 1_000_000
	}
	if len(a.Exchanges) == 0 {
		a.Exchanges = []string{"NSE", "NFO", "BSE", "MCX"}
	}
	if len(a.AccessTypes) == 0 {
		a.AccessTypes = []string{"API", "WEB", "MOB"}
	}
	if a.Name == "" {
		a.Name = a.UID
	}
}

func (c *Config) applyDefaults() {
	if c.TOTPNow == nil {
		c.TOTPNow = c.Now
	}
	if c.Now == nil {
		c.Now = clock.MustFromEnv().Now
	}
	if c.TOTPNow == nil {
		c.TOTPNow = time.Now
	}
	if len(c.Accounts) == 0 {
		c.Accounts = []Account{DemoAccount()}
	}
	for i := range c.Accounts {
		c.Accounts[i].applyDefaults()
	}
	if len(c.Instruments) == 0 {
		c.Instruments = DefaultInstruments(c.Now())
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	switch {
	case c.TOTPSkew == 0:
		c.TOTPSkew = 1
	case c.TOTPSkew < 0:
		c.TOTPSkew = 0
	}
	if c.SessionTTL == 0 {
		c.SessionTTL = 24 * time.Hour
	}
	if c.OAuthCodeTTL == 0 {
		c.OAuthCodeTTL = 5 * time.Minute
	}
	if c.BrokerName == "" {
		c.BrokerName = "FINVASIA"
	}
	if c.SessionExpiredStatus == 0 {
		c.SessionExpiredStatus = 200
	}
	if c.NoDataEmsg == "" {
		c.NoDataEmsg = EmsgNoData
	}
	if c.LimitsMTMField == "" {
		c.LimitsMTMField = "urmtom"
	}
	if c.RateLimit.PerSecond == 0 {
		c.RateLimit.PerSecond = 20
	}
	if c.RateLimit.PerMinute == 0 {
		c.RateLimit.PerMinute = 200
	}
	if c.TPSeriesMaxCandles == 0 {
		c.TPSeriesMaxCandles = 5000
	}
	if c.EODFirstDay.IsZero() {
		c.EODFirstDay = time.Date(2021, time.August, 2, 0, 0, 0, 0, IST)
	}
	if c.TickInterval == 0 {
		c.TickInterval = 100 * time.Millisecond
	}
	if c.WSAckStatus == "" {
		c.WSAckStatus = "OK"
	}
}
