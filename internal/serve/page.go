package serve

import (
	"embed"
	"io/fs"
	"net/http"
)

// web holds the tester page (GET /): its HTML, style sheet and script,
// and the service's OpenAPI description, all served from the binary: the
// page needs nothing from anywhere else and works offline.
//
//go:embed web
var web embed.FS

// contentSecurity is the Content-Security-Policy of every answer: the
// page runs its own script and style sheet only (no inline script or
// style, nothing from another origin), talks to its own service, and may
// not be framed; a JSON answer opened in a browser runs nothing.
const contentSecurity = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// secured sets the headers every answer carries: the Content-Security-
// Policy, and X-Frame-Options for the browsers that do not read its
// frame-ancestors, no content sniffing (a robots.txt echoed in JSON is
// never taken for HTML), no referrer (a tester URL holds the file
// tested).
func secured(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurity)
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// routePage adds the tester's routes to the mux: the page, its assets,
// the OpenAPI description, and the endpoints it calls.
func (s *Server) routePage() {
	assets, err := fs.Sub(web, "web")
	if err != nil {
		panic(err) // the embedded directory is there: go:embed checked it
	}
	files := http.FileServerFS(assets)
	s.getRoute("GET /{$}", serveFile(files, "/index.html", "text/html; charset=utf-8"), true)
	s.getRoute("GET /tester.js", serveFile(files, "/tester.js", "text/javascript; charset=utf-8"), true)
	s.getRoute("GET /tester.css", serveFile(files, "/tester.css", "text/css; charset=utf-8"), true)
	s.getRoute("GET /openapi.json", serveFile(files, "/openapi.json", "application/json"), true)
	tester := Limits{MaxURLs: TesterMaxURLs, Work: windowCost}
	jsonRoute(s, "POST /v1/test", tester, s.runTest, func(r *testRequest) int { return len(r.URLs) })
	jsonRoute(s, "POST /v1/datasets", tester, s.runDatasets, nil)
	jsonRoute(s, "POST /v1/agents", tester, s.runAgents, func(r *agentsRequest) int { return len(r.URLs) })
	s.getRoute("GET /v1/crawlers", http.HandlerFunc(s.crawlers), true)
}

// serveFile serves one embedded file at its route, with its media type
// asked again each time (a new binary may bring a new page).
func serveFile(files http.Handler, name, mediaType string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", mediaType)
		w.Header().Set("Cache-Control", "no-cache")
		r2 := r.Clone(r.Context())
		r2.URL.Path = name
		if name == "/index.html" {
			// FileServer redirects /index.html to the directory: ask for
			// the directory, which it answers with its index.
			r2.URL.Path = "/"
		}
		files.ServeHTTP(w, r2)
	})
}
