package serve

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
)

// The gate is the one layer every request passes before an endpoint runs
// (Handler): a request whose pattern was not registered through it is not
// answered at all. In order, it
//
//   - sets the headers every answer carries (secured);
//   - refuses a request that a browser sent for another site: a Host that
//     is none of the names the service answers to (Config.Hosts), an
//     Origin that is not the service's own, a Sec-Fetch-Site other than
//     same-origin or none (a link followed to a page is let through);
//   - requires the bearer token, unless the route is open;
//   - for a JSON endpoint: requires a JSON content type (a browser sends
//     text/plain and forms across sites without asking), refuses a body
//     declared larger than Config.MaxBody, admits the request within the
//     memory budget and charges the body to it as its bytes arrive
//     (admission), bounds every "agent" and "urls" field of the request
//     (limitedFields), and charges the answer's memory once the body is
//     read;
//   - gives the endpoint a context that carries the process-wide fetch
//     cap (Config.MaxFetches), and whose every fetch goes through the
//     guarded transport (the SSRF guard, guard.go); a JSON endpoint's
//     context ends Config.RequestTimeout after its request is admitted
//     and read, so no endpoint sets its own;
//   - answers errors in public words (fail, publicError), and logs one
//     line per request.
//
// Registering a route (New): getRoute for a GET endpoint, jsonRoute for a
// JSON endpoint whose answer is written whole, streamRoute for one that
// writes its answer as it goes.

// route is an endpoint behind the gate.
type route struct {
	pattern string
	h       http.Handler
	// open routes are answered without the bearer token (the page and its
	// assets, /healthz, the crawler registry).
	open bool
	// body is the JSON request type of a JSON endpoint; nil for GET.
	body   reflect.Type
	limits Limits
	fields []limitedField
}

// Limits are what a JSON endpoint's requests may ask beyond the gate's
// own limits (Config.MaxBody, MaxAgent, MaxURLs).
type Limits struct {
	// MaxURLs bounds the "urls" of one request below Config.MaxURLs (an
	// answer written whole); 0 means Config.MaxURLs.
	MaxURLs int
	// Work is the memory the answer takes beyond the request (a window of
	// results being written, a sitemap being read), charged to the budget
	// once the body is read, before the endpoint runs.
	Work int64
	// Open lets the route answer without the bearer token.
	Open bool
}

// getRoute registers a GET endpoint; open ones need no bearer token.
func (s *Server) getRoute(pattern string, h http.Handler, open bool) {
	s.addRoute(&route{pattern: pattern, h: h, open: open})
}

// jsonRoute registers a POST endpoint whose request is the JSON object
// Req and whose answer is written whole as JSON (or by the answer itself,
// when it is a selfWriter); urls counts the URLs a request asks about for
// the access log (nil: none). The gate decodes the request and applies
// every limit before run is called.
func jsonRoute[Req, Resp any](s *Server, pattern string, lim Limits, run func(context.Context, *Req) (*Resp, *apiError), urls func(*Req) int) {
	streamRoute(s, pattern, lim, func(ctx context.Context, w http.ResponseWriter, req *Req) *apiError {
		resp, aerr := run(ctx, req)
		if aerr != nil {
			return aerr
		}
		if rec, ok := w.(*recorder); ok && urls != nil {
			rec.urls = urls(req)
		}
		if sw, ok := any(resp).(selfWriter); ok {
			sw.writeAnswer(s, w)
			return nil
		}
		s.writeJSON(w, resp)
		return nil
	})
}

// streamRoute registers a POST endpoint whose request is the JSON object
// Req and whose answer run writes itself, as it goes; an error it returns
// before writing is answered as every error is. run's context ends
// Config.RequestTimeout after the request was read (the one place the
// request's time is bounded).
func streamRoute[Req any](s *Server, pattern string, lim Limits, run func(context.Context, http.ResponseWriter, *Req) *apiError) {
	rt := &route{pattern: pattern, open: lim.Open, limits: lim, body: reflect.TypeFor[Req]()}
	rt.fields = limitedFieldsOf(rt.body)
	rt.h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req Req
		if aerr := s.decodeJSON(r, &req, rt.body); aerr != nil {
			s.failAPI(w, aerr)
			return
		}
		if aerr := s.checkFields(rt, reflect.ValueOf(&req).Elem()); aerr != nil {
			s.failAPI(w, aerr)
			return
		}
		if adm := admissionOf(r.Context()); adm != nil && lim.Work > 0 {
			if err := adm.take(lim.Work); err != nil {
				s.busy(w, r)
				return
			}
		}
		ctx, cancel := context.WithTimeout(withCaller(r.Context(), r.RemoteAddr), s.cfg.RequestTimeout)
		defer cancel()
		if aerr := run(ctx, w, &req); aerr != nil {
			s.failAPI(w, aerr)
		}
	})
	s.addRoute(rt)
}

// failAPI answers aerr as every error is answered, with its Retry-After.
func (s *Server) failAPI(w http.ResponseWriter, aerr *apiError) {
	if aerr.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64(roundUp(aerr.retryAfter)/time.Second), 10))
	}
	s.fail(w, aerr.code, aerr.msg)
}

// selfWriter is an answer that is not always written as JSON (a catalog
// document of POST /v1/datasets).
type selfWriter interface {
	writeAnswer(s *Server, w http.ResponseWriter)
}

func (s *Server) addRoute(rt *route) {
	if _, dup := s.routeTable[rt.pattern]; dup {
		panic("serve: route " + rt.pattern + " registered twice")
	}
	s.mux.Handle(rt.pattern, rt.h)
	s.routeTable[rt.pattern] = rt
	s.routes = append(s.routes, rt.pattern)
}

// Handler returns the service's HTTP handler: the gate, routing, metrics
// and one log line per request.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.gate) }

func (s *Server) gate(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	conn := connOf(r)
	var before int64
	if conn != nil {
		before = conn.written.Load()
	}
	secured(w.Header())
	rec := &recorder{ResponseWriter: w, code: http.StatusOK}
	h, pattern := s.mux.Handler(r)
	rt := s.routeTable[pattern]
	switch {
	case pattern == "":
		pattern = "other"
		s.notRouted(h).ServeHTTP(rec, r)
	case rt == nil:
		// Handled by the mux, but not registered through the gate: never
		// answered (TestEveryRouteGated).
		pattern = "other"
		s.fail(rec, http.StatusInternalServerError, "this endpoint is not behind the gate")
	default:
		s.pass(rec, r, rt)
	}
	if err := http.NewResponseController(w).Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) && rec.cut == nil {
		rec.cut = err
	}
	if rec.cut == nil && r.Context().Err() != nil {
		rec.cut = errClientLeft
	}
	if conn != nil {
		rec.n = conn.written.Load() - before
	}
	s.logRequest(r, rec, pattern, time.Since(start))
}

// pass runs the gate's checks for rt, then rt.
func (s *Server) pass(w *recorder, r *http.Request, rt *route) {
	if code, msg := s.crossSite(r); code != 0 {
		s.fail(w, code, msg)
		return
	}
	if !rt.open && !s.tokenOK(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="sitetxt"`)
		s.fail(w, http.StatusUnauthorized, "missing or wrong bearer token")
		return
	}
	ctx := fetch.WithLimit(r.Context(), s.flights)
	if rt.body == nil {
		rt.h.ServeHTTP(w, r.WithContext(ctx))
		return
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		s.fail(w, http.StatusUnsupportedMediaType, "the request body must be JSON, sent with Content-Type: application/json")
		return
	}
	if r.ContentLength > s.cfg.MaxBody {
		s.fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes (Content-Length: %d)", s.cfg.MaxBody, r.ContentLength))
		return
	}
	adm, err := s.admit(r.Context())
	if err != nil {
		s.busy(w, r)
		return
	}
	defer adm.release()
	r2 := r.WithContext(context.WithValue(ctx, admissionKey{}, adm))
	r2.Body = http.MaxBytesReader(w, &chargedBody{ReadCloser: r.Body, adm: adm}, s.cfg.MaxBody)
	rt.h.ServeHTTP(w, r2)
}

// isJSON reports whether a Content-Type is JSON's: application/json, with
// any parameters.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// tokenOK reports whether r carries the bearer token, when there is one.
func (s *Server) tokenOK(r *http.Request) bool {
	if s.cfg.Token == "" {
		return true
	}
	want := []byte("Bearer " + s.cfg.Token)
	return subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) == 1
}

// crossSite refuses, with its status and message, a request a browser
// made for another site: one whose Host is not a name the service answers
// to (a DNS rebinding: attacker.example made to resolve to this host), or
// whose Origin or Sec-Fetch-Site says another site's page sent it. A
// crawler's client sends neither header; a browser sends them on every
// POST. A link followed from another site to a page (GET, Sec-Fetch-Mode:
// navigate, no Origin) is let through: the page only calls its own
// origin.
func (s *Server) crossSite(r *http.Request) (int, string) {
	if !s.hostAllowed(r) {
		return http.StatusMisdirectedRequest, fmt.Sprintf("Host %q is not a name this service answers to (serve --host)", truncate(r.Host, 100))
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
			return http.StatusForbidden, "cross-site request refused: Origin is not this service's own"
		}
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		navigate := (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.Header.Get("Sec-Fetch-Mode") == "navigate"
		if !navigate {
			return http.StatusForbidden, "cross-site request refused: Sec-Fetch-Site is " + truncate(site, 20)
		}
	}
	return 0, ""
}

// hostAllowed reports whether r's Host names this service: one of
// Config.Hosts when set, else "localhost" or the address the connection
// came to (its listen address). A request that came over no connection
// (the handler called in process) has no Host to check.
func (s *Server) hostAllowed(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.Unmap().WithZone("").String()
	}
	if len(s.cfg.Hosts) > 0 {
		for _, name := range s.cfg.Hosts {
			if host == name {
				return true
			}
		}
		return false
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true
	}
	if host == "localhost" {
		return true
	}
	ap, err := netip.ParseAddrPort(local.String())
	return err == nil && ap.Addr().Unmap().WithZone("").String() == host
}

// canonicalHosts writes the names of Config.Hosts as hostAllowed compares
// them.
func canonicalHosts(names []string) []string {
	var out []string
	for _, n := range names {
		n = strings.ToLower(strings.TrimSuffix(strings.Trim(strings.TrimSpace(n), "[]"), "."))
		if a, err := netip.ParseAddr(n); err == nil {
			n = a.Unmap().WithZone("").String()
		}
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// truncate returns at most n bytes of s, for quoting a stranger's header.
func truncate(s string, n int) string {
	if len(s) > n {
		return prefix(s, n) + "..."
	}
	return s
}

// busy answers a request the memory budget could not take in time: 503
// with Retry-After, unless its client left.
func (s *Server) busy(w http.ResponseWriter, r *http.Request) {
	if r.Context().Err() != nil {
		return
	}
	w.Header().Set("Retry-After", strconv.Itoa(1))
	s.fail(w, http.StatusServiceUnavailable, "busy: the requests in progress hold all the memory this process gives requests (--max-memory); try again")
}

// limitedField is a field of a request type the gate bounds: its JSON
// name ("agent" or "urls") and its index.
type limitedField struct {
	name  string
	index []int
}

// limitedFieldsOf finds the fields of t (a struct) the gate bounds: an
// "agent" (string or *string) and "urls" ([]string).
func limitedFieldsOf(t reflect.Type) []limitedField {
	var out []limitedField
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "agent" && (f.Type.Kind() == reflect.String || f.Type == reflect.TypeFor[*string]()):
		case name == "urls" && f.Type == reflect.TypeFor[[]string]():
		default:
			continue
		}
		out = append(out, limitedField{name: name, index: f.Index})
	}
	return out
}

// checkFields applies the gate's field limits to a decoded request: an
// agent of at most MaxAgent bytes (a product token or a User-Agent
// header; a longer one would be copied into every result), at most
// MaxURLs URLs (or the route's own lower bound).
func (s *Server) checkFields(rt *route, v reflect.Value) *apiError {
	for _, f := range rt.fields {
		fv := v.FieldByIndex(f.index)
		switch f.name {
		case "agent":
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				fv = fv.Elem()
			}
			if n := fv.Len(); n > s.cfg.MaxAgent {
				return badRequest(`"agent" is %d bytes long; at most %d (a product token or a User-Agent header)`, n, s.cfg.MaxAgent)
			}
		case "urls":
			limit := s.cfg.MaxURLs
			if rt.limits.MaxURLs > 0 {
				limit = min(limit, rt.limits.MaxURLs)
			}
			if n := fv.Len(); n > limit {
				return &apiError{code: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("%d URLs in one request; at most %d", n, limit)}
			}
		}
	}
	return nil
}
