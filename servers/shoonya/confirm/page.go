package confirm

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Path is where the page is served: Path + ticket id.
const Path = "/shoonya/confirm/"

// Page shows a ticket's order and places it when the person presses the
// button (a POST carrying the order's exact fields); it also halts trading.
type Page struct {
	Tickets *Tickets
	// Place places the ticket's order (the person's yes) and says what happened.
	Place func(ctx context.Context, tk Ticket) (string, error)
	// Halt stops all trading (the kill switch) until `shoonya trading resume`.
	Halt func(ctx context.Context, reason string) error
	Log  zerolog.Logger

	mu   sync.Mutex
	base string // where the page is reached, e.g. http://127.0.0.1:41234
	lerr error
}

// SetBase sets where the page is reached (the HTTP transport's public URL).
func (p *Page) SetBase(base string) {
	p.mu.Lock()
	p.base = strings.TrimSuffix(base, "/")
	p.mu.Unlock()
}

// URL is the page of ticket id.
func (p *Page) URL(id string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.base + Path + id
}

// Listen serves the page on its own loopback listener (stdio transport:
// there is no HTTP server) unless a base is set already; once per process.
func (p *Page) Listen(ctx context.Context, addr string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.base != "" || p.lerr != nil {
		return p.lerr
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
		p.lerr = fmt.Errorf("the confirmation page listens on loopback only, not %q", addr)
		return p.lerr
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.lerr = fmt.Errorf("the confirmation page could not listen on %s: %w", addr, err)
		return p.lerr
	}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	p.base = "http://" + ln.Addr().String()
	p.Log.Info().Str("url", p.base+Path).Msg("order confirmation page listening on loopback")
	return nil
}

var pageTmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Shoonya order confirmation</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}
.order{font-size:1.2rem;padding:1rem;border:2px solid #444;border-radius:6px}.warn{background:#fff3cd;padding:.75rem;border-radius:6px}
.err{background:#f8d7da;padding:.75rem;border-radius:6px}.ok{background:#d1e7dd;padding:.75rem;border-radius:6px}
button{font-size:1rem;padding:.6rem 1.2rem;margin:.5rem .5rem 0 0}</style></head><body>
<h1>Confirm a Shoonya order</h1>
{{if .Message}}<p class="{{.Class}}">{{.Message}}</p>{{end}}
{{if .Ticket}}<p class="order">{{.Ticket.Summary}}</p>
{{if .Ticket.Legs}}<p>Sent in this order, each as its own order:</p><ol class="order">{{range .Ticket.Legs}}<li>{{.}}</li>{{end}}</ol>{{end}}
{{if .Ticket.Warning}}<p class="warn">{{.Ticket.Warning}}</p>{{end}}
{{if .Open}}<p>This link works once, until {{.Expires}}. Nothing is sent until you press the button.</p>
<form method="post"><input type="hidden" name="order" value="{{printf "%s" .Ticket.Order}}">
<button name="action" value="place">{{or .Ticket.Button "Place this order"}}</button></form>{{end}}
<form method="post"><button name="action" value="halt">Halt all trading</button></form>
<p><small>Halting refuses every new order from this server until a person runs <code>shoonya trading resume</code>.</small></p>{{end}}
</body></html>`))

type view struct {
	Ticket         *Ticket
	Open           bool
	Expires        string
	Message, Class string
}

func (p *Page) render(w http.ResponseWriter, status int, v view) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
	w.WriteHeader(status)
	_ = pageTmpl.Execute(w, v)
}

// sameOrigin refuses a cross-site POST (a form on another site aimed at the
// page): browsers send Origin on POST; a missing one (curl) is allowed,
// since the id in the path is the secret.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" || o == "null" {
		return o == ""
	}
	u, err := url.Parse(o)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}

func (p *Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.Path, Path)
	if !ok || !validID(id) {
		p.render(w, http.StatusNotFound, view{Message: "No such confirmation. Ask the assistant to place the order again for a fresh link.", Class: "err"})
		return
	}
	ctx := r.Context()
	tk, err := p.Tickets.Find(ctx, id)
	if err != nil {
		p.render(w, http.StatusServiceUnavailable, view{Message: "The server's state could not be read; reload in a moment.", Class: "err"})
		return
	}
	if tk == nil {
		p.render(w, http.StatusNotFound, view{Message: "No such confirmation. Ask the assistant to place the order again for a fresh link.", Class: "err"})
		return
	}
	now := p.Tickets.now()
	v := view{Ticket: tk, Open: !tk.Used && now.Before(tk.Expires), Expires: tk.Expires.In(ist).Format("15:04:05 IST")}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		switch {
		case tk.Used:
			v.Message, v.Class = "Already used: "+firstNonEmpty(tk.Outcome, "the order was sent when the button was pressed."), "ok"
		case !v.Open:
			v.Message, v.Class = "This confirmation expired; nothing was sent. Ask the assistant to place the order again.", "err"
		}
		p.render(w, http.StatusOK, v)
		return
	case http.MethodPost:
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if !sameOrigin(r) {
		p.render(w, http.StatusForbidden, view{Message: "Refused: the request came from another site.", Class: "err"})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		p.render(w, http.StatusBadRequest, view{Message: "Unreadable form.", Class: "err"})
		return
	}
	switch r.PostForm.Get("action") {
	case "halt":
		if err := p.Halt(ctx, "halted on the confirmation page"); err != nil {
			p.render(w, http.StatusServiceUnavailable, view{Ticket: tk, Message: "Could not halt: " + err.Error(), Class: "err"})
			return
		}
		p.Log.Warn().Msg("trading halted on the confirmation page")
		p.render(w, http.StatusOK, view{Ticket: tk, Message: "Trading is halted: every new order is refused until a person runs `shoonya trading resume`.", Class: "ok"})
		return
	case "place":
	default:
		p.render(w, http.StatusBadRequest, view{Ticket: tk, Open: v.Open, Expires: v.Expires, Message: "Unknown action.", Class: "err"})
		return
	}
	got, err := p.Tickets.Redeem(ctx, id, "", DigestFor(tk.Tool, []byte(r.PostForm.Get("order"))))
	if err != nil {
		status, msg := http.StatusConflict, "Nothing was sent: "
		switch {
		case errors.Is(err, ErrUsed):
			msg += "this confirmation was already used."
			status = http.StatusGone
		case errors.Is(err, ErrExpired):
			msg += "this confirmation expired. Ask the assistant to place the order again."
			status = http.StatusGone
		case errors.Is(err, ErrAltered):
			msg += "the order posted differs from the one to confirm."
		default:
			msg += "the confirmation could not be checked (" + err.Error() + ")."
			status = http.StatusServiceUnavailable
		}
		p.render(w, status, view{Ticket: tk, Message: msg, Class: "err"})
		return
	}
	// The person pressed the button: finish the order even if the browser goes away.
	outcome, err := p.Place(context.WithoutCancel(ctx), got)
	if err != nil {
		outcome = "Not placed: " + err.Error()
	}
	p.Tickets.Finish(ctx, id, outcome)
	class := "ok"
	if err != nil {
		class = "err"
	}
	p.render(w, http.StatusOK, view{Ticket: &got, Message: outcome, Class: class})
}

var ist = time.FixedZone("IST", 5*3600+1800)

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
