package serve

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// gateCase is one request the gate must refuse on every route it applies
// to, and the status it answers.
type gateCase struct {
	name  string
	post  bool // applies to JSON endpoints only
	setup func(r *http.Request)
	body  func(rt *route) string // nil: a valid empty object
	code  int
}

var gateCases = []gateCase{
	{name: "Host of another name (DNS rebinding)", setup: func(r *http.Request) { r.Host = "attacker.example" }, code: http.StatusMisdirectedRequest},
	{name: "Origin of another site", setup: func(r *http.Request) { r.Header.Set("Origin", "http://attacker.example") }, code: http.StatusForbidden},
	{name: "Origin null (a sandboxed page)", setup: func(r *http.Request) { r.Header.Set("Origin", "null") }, code: http.StatusForbidden},
	{name: "Sec-Fetch-Site cross-site", setup: func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }, code: http.StatusForbidden},
	{name: "Sec-Fetch-Site same-site (another port)", setup: func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "same-site") }, code: http.StatusForbidden},
	{name: "no bearer token", setup: func(r *http.Request) {}, code: http.StatusUnauthorized},
	{name: "text/plain body (a form across sites)", post: true, setup: func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, code: http.StatusUnsupportedMediaType},
	{name: "no content type", post: true, setup: func(r *http.Request) { r.Header.Del("Content-Type") }, code: http.StatusUnsupportedMediaType},
	{name: "form body", post: true, setup: func(r *http.Request) { r.Header.Set("Content-Type", "application/x-www-form-urlencoded") }, code: http.StatusUnsupportedMediaType},
	{name: "body over MaxBody", post: true, body: func(*route) string { return `{"x":"` + strings.Repeat("a", 5000) + `"}` }, code: http.StatusRequestEntityTooLarge},
	{name: "agent over MaxAgent", post: true, body: func(rt *route) string {
		if !hasField(rt, "agent") {
			return ""
		}
		return `{"agent":"` + strings.Repeat("A", DefaultMaxAgent+1) + `"}`
	}, code: http.StatusBadRequest},
	{name: "urls over MaxURLs", post: true, body: func(rt *route) string {
		if !hasField(rt, "urls") {
			return ""
		}
		return `{"urls":["/1","/2","/3","/4"]}`
	}, code: http.StatusRequestEntityTooLarge},
}

func hasField(rt *route, name string) bool {
	for _, f := range rt.fields {
		if f.name == name {
			return true
		}
	}
	return false
}

// TestEveryRouteGated lists the routes from the router (every route
// registered, and every path /openapi.json describes) and sends each the
// requests the gate refuses: another site's Host, Origin or
// Sec-Fetch-Site, no token, and for the JSON endpoints a body that is not
// JSON, too large, an agent or too many URLs past the limits. Each must
// be refused with the gate's status, in JSON, with X-Frame-Options: DENY;
// a route the mux serves but the gate does not know is not answered, and
// no non-test file of the package registers one (muxRegistrations).
func TestEveryRouteGated(t *testing.T) {
	s := New(Config{Logger: quiet(), Token: "s3cret", MaxBody: 4096, MaxURLs: 3})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	patterns := map[string]bool{}
	for _, p := range s.routes {
		patterns[p] = true
	}
	for _, p := range openAPIRoutes(t, s) {
		if !patterns[p] {
			t.Errorf("openapi.json describes %s, which is not a route of the gate", p)
		}
	}
	for _, p := range s.routes {
		rt := s.routeTable[p]
		if rt == nil {
			t.Errorf("route %s is not in the gate's table", p)
			continue
		}
		method, path, _ := strings.Cut(p, " ")
		path = strings.TrimSuffix(path, "{$}")
		post := rt.body != nil
		if post != (method == http.MethodPost) {
			t.Errorf("route %s: a JSON endpoint is a POST, and a POST a JSON endpoint", p)
		}
		for _, tc := range gateCases {
			if tc.post && !post || tc.name == "no bearer token" && rt.open {
				continue
			}
			body := "{}"
			if tc.body != nil {
				if body = tc.body(rt); body == "" {
					continue
				}
			}
			t.Run(p+"/"+tc.name, func(t *testing.T) {
				req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
				if post {
					req.Header.Set("Content-Type", "application/json")
				}
				if tc.name != "no bearer token" {
					req.Header.Set("Authorization", "Bearer s3cret")
				}
				if tc.setup != nil {
					tc.setup(req)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.code || !strings.HasPrefix(string(b), `{"error":`) {
					t.Errorf("%s %s, %s = %d %.200s; want %d {\"error\": ...}", method, path, tc.name, resp.StatusCode, b, tc.code)
				}
				if resp.Header.Get("X-Frame-Options") != "DENY" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
					t.Errorf("%s %s: X-Frame-Options %q, CSP %q; want DENY beside frame-ancestors 'none'", method, path,
						resp.Header.Get("X-Frame-Options"), resp.Header.Get("Content-Security-Policy"))
				}
			})
		}
	}
	// No handler is put on a mux but by addRoute: the gate would refuse
	// it (below), and nothing above would notice.
	for _, at := range muxRegistrations(t) {
		t.Errorf("%s: a handler registered beside the gate (use jsonRoute, streamRoute or getRoute)", at)
	}
	// A handler put on the mux past the gate is never run.
	ran := false
	s.mux.HandleFunc("GET /ungated", func(w http.ResponseWriter, r *http.Request) { ran = true })
	resp, err := http.Get(ts.URL + "/ungated")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ran || resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("GET /ungated (on the mux, not through the gate) = %d, ran %v; want 500, not run", resp.StatusCode, ran)
	}
}

// muxRegistrations returns the positions, in the package's non-test
// files, of calls to a Handle or HandleFunc method or function outside
// addRoute.
func muxRegistrations(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "addRoute" {
					continue
				}
				ast.Inspect(d, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Handle" || sel.Sel.Name == "HandleFunc") {
							out = append(out, fset.Position(call.Pos()).String())
						}
					}
					return true
				})
			}
		}
	}
	return out
}

// openAPIRoutes returns the routes /openapi.json describes, as patterns.
func openAPIRoutes(t *testing.T, s *Server) []string {
	t.Helper()
	_, body := get(t, s.Handler(), "/openapi.json")
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	var out []string
	for path, ops := range doc.Paths {
		for m := range ops {
			if p := strings.ToUpper(m) + " " + path; path == "/" {
				out = append(out, p+"{$}")
			} else {
				out = append(out, p)
			}
		}
	}
	return out
}

// TestOwnRequestsPass: what the tester page sends (its own Origin,
// Sec-Fetch-Site same-origin, JSON), what a crawler's client sends (no
// Origin, no Sec-Fetch-Site), a link followed from another site to the
// page, and a Host the service was told it answers to all pass the gate.
func TestOwnRequestsPass(t *testing.T) {
	for _, tc := range []struct {
		name   string
		hosts  []string
		method string
		path   string
		setup  func(r *http.Request, base string)
	}{
		{"tester page", nil, "POST", "/v1/test", func(r *http.Request, base string) {
			r.Header.Set("Origin", base)
			r.Header.Set("Sec-Fetch-Site", "same-origin")
			r.Header.Set("Sec-Fetch-Mode", "cors")
		}},
		{"crawler", nil, "POST", "/v1/test", func(*http.Request, string) {}},
		{"localhost", nil, "POST", "/v1/test", func(r *http.Request, _ string) { r.Host = "LocalHost." }},
		{"link to the page", nil, "GET", "/", func(r *http.Request, _ string) {
			r.Header.Set("Sec-Fetch-Site", "cross-site")
			r.Header.Set("Sec-Fetch-Mode", "navigate")
		}},
		{"--host", []string{"Tester.Example"}, "POST", "/v1/test", func(r *http.Request, _ string) {
			r.Host = "tester.example:8080"
			r.Header.Set("Origin", "https://tester.example:8080")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(New(Config{Logger: quiet(), Hosts: tc.hosts}).Handler())
			defer ts.Close()
			req, _ := http.NewRequest(tc.method, ts.URL+tc.path, strings.NewReader(`{"robots":"User-agent: *\nDisallow: /x\n","urls":["/x"]}`))
			req.Header.Set("Content-Type", "application/json; charset=utf-8")
			tc.setup(req, ts.URL)
			resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("%s %s (%s) = %d %.300s, want 200", tc.method, tc.path, tc.name, resp.StatusCode, b)
			}
		})
	}
	// Told its names, the service refuses the address it listens on.
	ts := httptest.NewServer(New(Config{Logger: quiet(), Hosts: []string{"tester.example"}}).Handler())
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("GET /healthz by address with --host tester.example = %d, want 421", resp.StatusCode)
	}
}

// TestGateRequestTimeout: the gate gives a JSON endpoint's run a context
// that ends Config.RequestTimeout after the request was read, so an
// endpoint sets no time of its own; a route registered like any other
// (a probe here) has it.
func TestGateRequestTimeout(t *testing.T) {
	const timeout = time.Hour
	type probeRequest struct {
		Agent string `json:"agent"`
	}
	type probeResponse struct{}
	for _, stream := range []bool{false, true} {
		s := New(Config{Logger: quiet(), RequestTimeout: timeout})
		var deadline time.Time
		var has bool
		if stream {
			streamRoute(s, "POST /v1/probe", Limits{}, func(ctx context.Context, w http.ResponseWriter, _ *probeRequest) *apiError {
				deadline, has = ctx.Deadline()
				s.writeJSON(w, probeResponse{})
				return nil
			})
		} else {
			jsonRoute(s, "POST /v1/probe", Limits{}, func(ctx context.Context, _ *probeRequest) (*probeResponse, *apiError) {
				deadline, has = ctx.Deadline()
				return &probeResponse{}, nil
			}, nil)
		}
		before := time.Now()
		req := httptest.NewRequest("POST", "/v1/probe", strings.NewReader(`{"agent":"ExampleBot"}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		after := time.Now()
		if rec.Code != 200 {
			t.Fatalf("POST /v1/probe (stream %v) = %d %s, want 200", stream, rec.Code, rec.Body)
		}
		if !has || deadline.Before(before.Add(timeout)) || deadline.After(after.Add(timeout)) {
			t.Errorf("run's deadline (stream %v) = %v, %v; want between %v and %v", stream, deadline, has, before.Add(timeout), after.Add(timeout))
		}
	}
}
