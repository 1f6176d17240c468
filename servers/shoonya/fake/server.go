package fake

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"

	"github.com/rs/zerolog"
)

// Base paths of the two generations (ShoonyaApi-py api_helper.py; deepak-dhyani8742/Shoonya_oAuthAPI-py api_helper.py).
const (
	PathLegacyREST = "/NorenWClientTP/"
	PathOAuthREST  = "/NorenWClientAPI/"
	PathLegacyWS   = "/NorenWSTP/"
	PathOAuthWS    = "/NorenWSAPI/"
	PathAuthorize  = "/OAuthlogin/authorize/oauth"
	PathControl    = "/_fake/"
)

// Server is the fake Noren OMS. Create it with New; serve Handler() yourself
// or call Start for a loopback listener.
type Server struct {
	drift fakeupstream.Drifter
	cfg   Config
	log   zerolog.Logger
	now   func() time.Time
	cat   *catalog
	mkt   *market

	accounts   map[string]*Account // by UID
	byClientID map[string]*Account

	mu        sync.Mutex // guards everything below
	sessions  map[string]*session
	codes     map[string]*authCode
	orders    map[string]*order    // by norenordno
	orderSeq  []*order             // placement order
	trades    []trade              // fills
	positions map[string]*position // uid|exch|token|prd
	converted []string             // position keys a ProductConversion made, in order
	gtts      []*gtt               // pending GTTs (gtt.go)
	ledger    []LedgerEntry
	watch     map[string]map[string][]string // uid → market watch → EXCH|token (watchlist.go)
	seq       int64
	alerts    alertBook // alerts.go

	faults  fakeupstream.Queue[routed]
	limiter *limiter
	hub     *wsHub

	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
	srv      *http.Server
	urls     URLs
}

// New builds a fake server from cfg (zero fields get defaults) and starts
// its tick generator; call Close to stop it.
func New(cfg Config) *Server {
	cfg.applyDefaults()
	s := &Server{
		cfg:        cfg,
		now:        cfg.Now,
		accounts:   map[string]*Account{},
		byClientID: map[string]*Account{},
		sessions:   map[string]*session{},
		codes:      map[string]*authCode{},
		orders:     map[string]*order{},
		positions:  map[string]*position{},
		stop:       make(chan struct{}),
	}
	s.log = zerolog.Nop()
	if cfg.Logger != nil {
		s.log = *cfg.Logger
	}
	for i := range cfg.Accounts {
		a := &s.cfg.Accounts[i]
		s.accounts[a.UID] = a
		s.byClientID[a.ClientID] = a
	}
	s.cat = newCatalog(cfg.Instruments, cfg.Prices)
	s.mkt = newMarket(s.cat, cfg.Seed, cfg.Now)
	s.limiter = newLimiter(cfg.RateLimit)
	s.hub = newHub(s)
	if cfg.TickInterval > 0 {
		s.wg.Add(1)
		go s.tickLoop(cfg.TickInterval)
	}
	return s
}

// Handler serves every fake route. It does its own path routing because
// http.ServeMux would redirect the "//" that real clients send.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, PathControl):
		s.serveControl(w, r, strings.TrimPrefix(p, PathControl))
	case strings.HasPrefix(p, "/OAuthlogin/"):
		s.serveAuthorize(w, r)
	case strings.HasPrefix(p, PathLegacyREST):
		s.serveREST(w, r, EraLegacy, strings.Trim(strings.TrimPrefix(p, PathLegacyREST), "/"))
	case strings.HasPrefix(p, PathOAuthREST):
		s.serveREST(w, r, EraOAuth, strings.Trim(strings.TrimPrefix(p, PathOAuthREST), "/"))
	case strings.HasPrefix(p, PathLegacyWS):
		s.serveWS(w, r, EraLegacy)
	case strings.HasPrefix(p, PathOAuthWS):
		s.serveWS(w, r, EraOAuth)
	default:
		for _, extra := range s.cfg.WSExtraPaths {
			if extra != "" && strings.HasPrefix(p, extra) {
				s.serveWS(w, r, EraOAuth)
				return
			}
		}
		http.NotFound(w, r)
	}
}

// route is one Noren REST endpoint.
type route struct {
	auth bool // needs a live session token
	h    func(s *Server, c *call) reply
}

var routes = map[string]route{
	"QuickAuth":       {false, (*Server).quickAuth},
	"GenAcsTok":       {false, (*Server).genAcsTok},
	"Logout":          {true, (*Server).logout},
	"UserDetails":     {true, (*Server).userDetails},
	"Limits":          {true, (*Server).limits},
	"PlaceOrder":      {true, (*Server).placeOrder},
	"ModifyOrder":     {true, (*Server).modifyOrder},
	"CancelOrder":     {true, (*Server).cancelOrder},
	"OrderBook":       {true, (*Server).orderBook},
	"SingleOrdHist":   {true, (*Server).singleOrdHist},
	"TradeBook":       {true, (*Server).tradeBook},
	"PositionBook":    {true, (*Server).positionBook},
	"Holdings":        {true, (*Server).holdings},
	"SearchScrip":     {true, (*Server).searchScrip},
	"GetSecurityInfo": {true, (*Server).securityInfo},
	"GetQuotes":       {true, (*Server).getQuotes},
	"GetOptionChain":  {true, (*Server).optionChain},
	"TPSeries":        {true, (*Server).tpSeries},
	"EODChartData":    {true, (*Server).eodChartData},
	// exit.go
	"ExitSNOOrder":      {true, (*Server).exitSNOOrder},
	"ProductConversion": {true, (*Server).productConversion},
	// gtt.go
	"PlaceGTTOrder":      {true, (*Server).placeGTTOrder},
	"CancelGTTOrder":     {true, (*Server).cancelGTTOrder},
	"GetPendingGTTOrder": {true, (*Server).getPendingGTTOrder},
	// The trader's day (margin.go).
	"GetOrderMargin":  {true, (*Server).getOrderMargin},
	"GetBasketMargin": {true, (*Server).getBasketMargin},
	"GetOptionGreek":  {true, (*Server).getOptionGreek}, // greeks.go
	// watchlist.go
	"MWList":              {true, (*Server).mwList},
	"MarketWatch":         {true, (*Server).marketWatch},
	"AddMultiScripsToMW":  {true, (*Server).addMultiScripsToMW},
	"DeleteMultiMWScrips": {true, (*Server).deleteMultiMWScrips},
	"SetAlert":            {true, (*Server).setAlert},
	"ModifyAlert":         {true, (*Server).modifyAlert},
	"CancelAlert":         {true, (*Server).cancelAlert},
	"GetPendingAlert":     {true, (*Server).pendingAlerts},
}

// Routes lists the REST route names the fake serves.
func Routes() []string {
	out := make([]string, 0, len(routes))
	for k := range routes {
		out = append(out, k)
	}
	return out
}

const maxBody = 1 << 20

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request, era Era, name string) {
	if era == EraLegacy && s.cfg.LegacyGone {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, badGatewayHTML)
		return
	}
	rt, ok := routes[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		writeReply(w, s.notOkStatus(http.StatusMethodNotAllowed, EmsgInvalidInput))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return
	}
	c := parseCall(r, body, name, era)
	if !s.limiter.allow(s.rateKey(c), s.now()) {
		writeReply(w, s.notOkStatus(http.StatusTooManyRequests, EmsgRateLimited))
		return
	}
	f, hasFault := s.take(name)
	if hasFault {
		s.log.Debug().Str("route", name).Str("fault", string(f.Kind)).Msg("fault")
		if f.Latency > 0 && !s.sleep(r.Context(), f.Latency) {
			return
		}
		switch f.Kind {
		case FaultStatus:
			st := f.Status
			if st == 0 {
				st = http.StatusBadGateway
			}
			body := f.Body
			if body == "" {
				body = fmt.Sprintf("<html><body><h1>%d %s</h1></body></html>", st, http.StatusText(st))
			}
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(st)
			_, _ = io.WriteString(w, body)
			return
		case FaultSessionExpired:
			writeReply(w, s.sessionExpired())
			return
		case FaultRateLimit:
			writeReply(w, s.notOkStatus(http.StatusTooManyRequests, EmsgRateLimited))
			return
		case FaultRefuse:
			writeReply(w, s.notOk(f.Body))
			return
		case FaultTimeout, FaultCloseConn, FaultMalformed, FaultTruncated:
			rp := s.dispatch(c, rt, f.Kind)
			s.deliverFaulty(w, r, f, encodeReply(rp))
			return
		}
	}
	writeReply(w, s.dispatch(c, rt, ""))
}

func (s *Server) rateKey(c *call) string {
	if c.token != "" {
		return "t:" + c.token
	}
	host, _, _ := net.SplitHostPort(c.remote)
	return "ip:" + host
}

// dispatch runs the endpoint: jData checks, session check, handler.
func (s *Server) dispatch(c *call, rt route, fk FaultKind) reply {
	var le *LedgerEntry
	if c.route == "PlaceOrder" {
		le = &LedgerEntry{Time: s.now(), Era: c.era, Raw: c.raw, Fields: c.fieldsAsStrings(), Fault: fk}
		le.UID, le.Remarks = c.str("uid"), c.str("remarks")
		if le.Remarks == "None" {
			le.Remarks = ""
		}
	}
	rp := s.dispatchInner(c, rt)
	if le != nil {
		if m, ok := rp.body.(map[string]any); ok {
			le.NorenOrdNo, _ = m["norenordno"].(string)
			le.Emsg, _ = m["emsg"].(string)
		}
		s.mu.Lock()
		le.Seq = len(s.ledger) + 1
		s.ledger = append(s.ledger, *le)
		s.mu.Unlock()
	}
	return rp
}

func (s *Server) dispatchInner(c *call, rt route) reply {
	if !c.hasJData {
		return s.notOk(EmsgJDataMissing)
	}
	if rt.auth {
		sess := s.lookupSession(c.token)
		if sess == nil {
			return s.sessionExpired()
		}
		if uid := c.str("uid"); uid != "" && uid != sess.uid {
			return s.sessionExpired()
		}
		c.sess = sess
	}
	if c.badJSON {
		return s.notOk(EmsgInvalidInput)
	}
	return rt.h(s, c)
}

func (s *Server) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.stop:
		return false
	}
}

const badGatewayHTML = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n"

// URLs are the addresses of a started fake.
type URLs struct {
	Base       string // http://127.0.0.1:port
	LegacyREST string // .../NorenWClientTP/
	OAuthREST  string // .../NorenWClientAPI/
	LegacyWS   string // ws://.../NorenWSTP/
	OAuthWS    string // ws://.../NorenWSAPI/
	Authorize  string // .../OAuthlogin/authorize/oauth
	Control    string // .../_fake/
}

// URLsFor derives the URLs from a host:port, e.g. when serving Handler()
// through httptest.NewServer (pass strings.TrimPrefix(ts.URL, "http://")).
func URLsFor(addr string) URLs { return urlsFor(addr) }

func urlsFor(addr string) URLs {
	base := "http://" + addr
	return URLs{
		Base: base, LegacyREST: base + PathLegacyREST, OAuthREST: base + PathOAuthREST,
		LegacyWS: "ws://" + addr + PathLegacyWS, OAuthWS: "ws://" + addr + PathOAuthWS,
		Authorize: base + PathAuthorize, Control: base + PathControl,
	}
}

// Start listens on 127.0.0.1 with a free port and serves the fake.
func (s *Server) Start() (URLs, error) { return s.StartAt("127.0.0.1:0") }

// StartAt listens on addr, which must be a loopback address.
func (s *Server) StartAt(addr string) (URLs, error) {
	if err := CheckLoopback(addr); err != nil {
		return URLs{}, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return URLs{}, err
	}
	s.srv = &http.Server{Handler: s.drift.Wrap(s.Handler()), ReadHeaderTimeout: 10 * time.Second}
	s.urls = urlsFor(ln.Addr().String())
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error().Err(err).Msg("serve")
		}
	}()
	return s.urls, nil
}

// Drift is the switch that makes this fake drift from Noren (deprecation
// headers, a renamed field, a new enum value, a new error body; websocket
// frames are left alone) and counts requests by method and path; Start
// serves through it.
func (s *Server) Drift() *fakeupstream.Drifter { return &s.drift }

// URLs returns the addresses after Start (zero before).
func (s *Server) URLs() URLs { return s.urls }

// CheckLoopback refuses any listen address that is not loopback.
func CheckLoopback(addr string) error { return fakeupstream.CheckLoopback(addr) }

// Close stops the tick generator, drops websockets, releases hung requests
// and closes the listener.
func (s *Server) Close() {
	s.stopOnce.Do(func() {
		close(s.stop)
		s.hub.dropAll()
		if s.srv != nil {
			_ = s.srv.Close()
		}
	})
	s.wg.Wait()
}
