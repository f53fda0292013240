package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// postJSON posts body to path on h and returns the status and the body.
func postJSON(t *testing.T, h http.Handler, path string, body any) (int, []byte) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, jsonRequest(http.MethodPost, path, strings.NewReader(string(b))))
	return rec.Code, rec.Body.Bytes()
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTestREADMEExample posts the README's main example (fict.org's
// robots.txt, /org/plans.html and /org/about.html) to POST /v1/test and
// checks each profile's verdict and deciding line, and why norobots
// disagrees.
func TestTestREADMEExample(t *testing.T) {
	h := New(Config{Logger: quiet()}).Handler()
	text := readTestdata(t, "robots/fict.org.txt")
	code, body := postJSON(t, h, "/v1/test", map[string]any{"robots": text, "agent": "ExampleBot",
		"urls": []string{"/org/plans.html", "/org/about.html"}})
	if code != http.StatusOK {
		t.Fatalf("POST /v1/test = %d %s", code, body)
	}
	var resp testResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	type want struct {
		allowed bool
		line    int
	}
	tests := []struct {
		url   string
		agree bool
		want  map[string]want
	}{
		{"/org/plans.html", true, map[string]want{"rfc9309": {false, 12}, "google": {false, 12}, "draft": {false, 12}, "norobots": {false, 12}}},
		{"/org/about.html", false, map[string]want{"rfc9309": {true, 13}, "google": {true, 13}, "draft": {true, 13}, "norobots": {false, 16}}},
	}
	if len(resp.Results) != len(tests) {
		t.Fatalf("%d results, want %d", len(resp.Results), len(tests))
	}
	for i, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			r := resp.Results[i]
			if r.URL != tt.url || r.Agree != tt.agree {
				t.Errorf("result %d: url %q agree %v, want %q %v", i, r.URL, r.Agree, tt.url, tt.agree)
			}
			if len(r.Verdicts) != 4 {
				t.Fatalf("%d verdicts, want one per profile", len(r.Verdicts))
			}
			for _, v := range r.Verdicts {
				w := tt.want[v.Profile]
				if v.Rule == nil {
					t.Errorf("%s under %s: no rule, want line %d", tt.url, v.Profile, w.line)
					continue
				}
				if v.Allowed != w.allowed || v.Rule.Line != w.line || v.Rule.File != "robots.txt" {
					t.Errorf("Allowed(%q) under %s = %v by %s:%d, want %v by robots.txt:%d", tt.url, v.Profile, v.Allowed, v.Rule.File, v.Rule.Line, w.allowed, w.line)
				}
			}
			if !tt.agree && (len(r.Why) == 0 || !strings.Contains(r.Why[0], "norobots")) {
				t.Errorf("why = %q, want norobots named", r.Why)
			}
		})
	}
	if resp.Diagnostics == nil || resp.Sitemaps == nil {
		t.Errorf("diagnostics %v and sitemaps %v: want lists, never null", resp.Diagnostics, resp.Sitemaps)
	}
}

// TestTestFileFacts checks the parts of a /v1/test answer beside the
// verdicts: the diagnostics at their lines, the sitemaps, the group's
// pace, the usage preference and the audit table.
func TestTestFileFacts(t *testing.T) {
	h := New(Config{Logger: quiet()}).Handler()
	text := "User-agent: ExampleBot\nCrawl-delay: 3\nDisalow: /x\nDisallow: /private/\n\nUser-agent: *\nContent-Usage: train-ai=n\nSitemap: https://example.org/sitemap.xml\nLicense: https://example.org/license.xml\nLLM-Policy: https://example.org/llms.txt\n"
	code, body := postJSON(t, h, "/v1/test", map[string]any{"robots": text, "agent": "ExampleBot",
		"urls": []string{"/private/a", "/"}, "profiles": []string{"google", "rfc9309"}, "audit": true})
	if code != http.StatusOK {
		t.Fatalf("POST /v1/test = %d %s", code, body)
	}
	var resp testResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(resp.Profiles, ","); got != "google,rfc9309" {
		t.Errorf("profiles = %s, want google,rfc9309 (the reference first)", got)
	}
	if len(resp.Sitemaps) != 1 || resp.Sitemaps[0].Line != 8 {
		t.Errorf("sitemaps = %+v, want the one on line 8", resp.Sitemaps)
	}
	if len(resp.Licenses) != 1 || resp.Licenses[0].Line != 9 || resp.Licenses[0].Value != "https://example.org/license.xml" {
		t.Errorf("licenses = %+v, want the one on line 9", resp.Licenses)
	}
	if len(resp.LLMPolicy) != 1 || resp.LLMPolicy[0].Line != 10 || resp.LLMPolicy[0].Value != "https://example.org/llms.txt" {
		t.Errorf("llm_policy = %+v, want the one on line 10", resp.LLMPolicy)
	}
	found := false
	for _, d := range resp.Diagnostics {
		found = found || d.Line == 3
	}
	if !found {
		t.Errorf("diagnostics %+v: none at line 3 (Disalow)", resp.Diagnostics)
	}
	v := resp.Results[0].Verdicts[0]
	if v.CrawlDelay == nil || *v.CrawlDelay != 3 {
		t.Errorf("crawl_delay = %v, want 3", v.CrawlDelay)
	}
	if resp.Audit == nil || len(resp.Audit.Crawlers) == 0 {
		t.Fatalf("audit asked for, none given")
	}
	code, body = postJSON(t, h, "/v1/test", map[string]any{"robots": text, "agent": "Other", "urls": []string{"/a"}})
	if code != http.StatusOK || !strings.Contains(string(body), `"train_ai":"disallow"`) {
		t.Errorf("usage of the * group: %d %s", code, body)
	}
	code, body = postJSON(t, h, "/v1/test", map[string]any{"robots": text, "audit": true, "urls": make([]string, AuditMaxURLs+1)})
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "at most 20") {
		t.Errorf("an audit of %d URLs: %d %s, want 413 naming the bound", AuditMaxURLs+1, code, body)
	}
}

// TestTestRefusals checks what /v1/test, /v1/datasets and /v1/agents
// refuse, with /v1/check's words and codes.
func TestTestRefusals(t *testing.T) {
	h := New(Config{Logger: quiet(), MaxURLs: 2, MaxBody: 4096}).Handler()
	text := "User-agent: *\nDisallow: /\n"
	tests := []struct {
		name, path string
		body       any
		code       int
		msg        string
	}{
		{"both sources", "/v1/test", map[string]any{"robots": text, "site": "https://example.org/"}, 400, `not both`},
		{"no source", "/v1/test", map[string]any{"urls": []string{"/"}}, 400, `no \"robots\"`},
		{"unknown profile", "/v1/test", map[string]any{"robots": text, "profiles": []string{"bing"}}, 400, "profile"},
		{"too many URLs", "/v1/test", map[string]any{"robots": text, "urls": []string{"/a", "/b", "/c"}}, 413, "at most 2"},
		{"body too large", "/v1/test", map[string]any{"robots": strings.Repeat("#", 5000)}, 413, "larger than 4096"},
		{"unknown field", "/v1/agents", map[string]any{"robots": text, "url": "/"}, 400, "unknown field"},
		{"datasets format", "/v1/datasets", map[string]any{"datatxt": "Path: /a.csv\n", "format": "xml"}, 400, `\"format\" \"xml\"`},
		{"datasets base", "/v1/datasets", map[string]any{"datatxt": "Path: /a.csv\n", "base": "/data.txt"}, 400, "not an absolute URL"},
		{"private site", "/v1/test", map[string]any{"site": fmt.Sprintf("http://127.0.0.1:%d/", sitetest.RefusedPort(t)), "urls": []string{"/"}}, 200, "not a public one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := postJSON(t, h, tt.path, tt.body)
			if code != tt.code || !strings.Contains(string(body), tt.msg) {
				t.Errorf("POST %s = %d %s, want %d with %q", tt.path, code, body, tt.code, tt.msg)
			}
		})
	}
}

// TestTestSite fetches the robots.txt named by "site" from a loopback
// server (AllowPrivate), and gives its text for the page to show.
func TestTestSite(t *testing.T) {
	site, _ := newSite(t, nil, nil)
	h := New(Config{Logger: quiet(), AllowPrivate: true}).Handler()
	code, body := postJSON(t, h, "/v1/test", map[string]any{"site": site.URL, "agent": "ExampleBot",
		"urls": []string{"/private/x"}, "profiles": []string{"rfc9309"}})
	if code != http.StatusOK {
		t.Fatalf("POST /v1/test = %d %s", code, body)
	}
	var resp testResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	v := resp.Results[0].Verdicts[0]
	if resp.File != site.URL+"/robots.txt" || resp.Text == nil || *resp.Text != siteRobots {
		t.Errorf("file %q text %v, want the site's robots.txt and its text", resp.File, resp.Text)
	}
	if v.Allowed || v.Rule == nil || v.Rule.Line != 4 || v.Fetch == nil || v.Fetch.Status != 200 {
		t.Errorf("Allowed(/private/x) = %v by %+v fetch %+v, want disallowed by line 4 after HTTP 200", v.Allowed, v.Rule, v.Fetch)
	}
}

// TestOpenAPI checks that /openapi.json is OpenAPI 3.1 and names every
// route the service has, with its method.
func TestOpenAPI(t *testing.T) {
	s := New(Config{Logger: quiet()})
	code, body := get(t, s.Handler(), "/openapi.json")
	if code != http.StatusOK {
		t.Fatalf("GET /openapi.json = %d", code)
	}
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("openapi.json does not parse: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if len(s.routes) < 10 {
		t.Fatalf("%d routes: the list is not being kept", len(s.routes))
	}
	for _, r := range s.routes {
		method, path, _ := strings.Cut(r, " ")
		path = strings.TrimSuffix(path, "{$}")
		if _, ok := doc.Paths[path][strings.ToLower(method)]; !ok {
			t.Errorf("openapi.json does not describe %s %s", method, path)
		}
	}
}

// TestPageHeaders checks the page and its assets: served from the binary,
// with their media types, the Content-Security-Policy and nosniff.
func TestPageHeaders(t *testing.T) {
	h := New(Config{Logger: quiet()}).Handler()
	tests := []struct{ path, mediaType, contains string }{
		{"/", "text/html", `<script src="/tester.js" defer></script>`},
		{"/tester.js", "text/javascript", "textContent"},
		{"/tester.css", "text/css", ".verdict"},
		{"/v1/crawlers", "application/json", `"token":"GPTBot"`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			hd := rec.Header()
			if rec.Code != 200 || !strings.HasPrefix(hd.Get("Content-Type"), tt.mediaType) || !strings.Contains(rec.Body.String(), tt.contains) {
				t.Errorf("GET %s = %d %s, want 200 %s holding %q", tt.path, rec.Code, hd.Get("Content-Type"), tt.mediaType, tt.contains)
			}
			if csp := hd.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "unsafe-inline") {
				t.Errorf("GET %s: Content-Security-Policy %q", tt.path, csp)
			}
			if hd.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("GET %s: no X-Content-Type-Options: nosniff", tt.path)
			}
		})
	}
	page := readWeb(t, "index.html")
	for _, bad := range []string{`<script>`, `<style`, ` style=`, ` on[a-z]+=`, `(src|href)="[a-z]+:`} {
		if regexp.MustCompile(bad).MatchString(page) {
			t.Errorf("index.html holds %q: inline script or style, an event attribute, or something from elsewhere", bad)
		}
	}
	if js := readWeb(t, "tester.js"); strings.Contains(js, "innerHTML") || strings.Contains(js, "insertAdjacentHTML") || strings.Contains(js, "document.write") {
		t.Errorf("tester.js writes markup; it must build nodes from text only")
	}
}

func readWeb(t *testing.T, name string) string {
	t.Helper()
	b, err := web.ReadFile("web/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestManifestsSite fetches a data.txt and a robots.txt with
// Mobile-agent-server lines named by "site" from a loopback server.
func TestManifestsSite(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/data.txt":
			w.Write([]byte("Path: /a.csv\nName: a\n\nPath: sub/b.csv\n"))
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /no/\nMobile-agent-server: / atp://agents.example:8001\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	h := New(Config{Logger: quiet(), AllowPrivate: true}).Handler()
	tests := []struct {
		name, path string
		body       map[string]any
		want       []string
	}{
		{"datasets", "/v1/datasets", map[string]any{"site": site.URL}, []string{`"file":"` + site.URL + `/data.txt"`,
			`"urls":["` + site.URL + `/a.csv"]`, `"urls":["` + site.URL + `/sub/b.csv"]`, `"http_status":200`}},
		{"datasets base", "/v1/datasets", map[string]any{"site": site.URL, "base": "https://data.example/x/data.txt"},
			[]string{`"urls":["https://data.example/a.csv"]`, `"urls":["https://data.example/x/sub/b.csv"]`}},
		{"agents", "/v1/agents", map[string]any{"site": site.URL, "urls": []string{site.URL + "/x", site.URL + "/no/y"}},
			[]string{`"server":"atp://agents.example:8001"`, `"allowed":false`, `"line":3`, `"text":"User-agent: *`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := postJSON(t, h, tt.path, tt.body)
			if code != http.StatusOK {
				t.Fatalf("POST %s = %d %s", tt.path, code, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(body), w) {
					t.Errorf("POST %s: the answer lacks %s:\n%s", tt.path, w, body)
				}
			}
		})
	}
}

// TestTestRefusedSite: a site the guard refuses (an address that is not
// public, given in the URL) is said as refused by /v1/test and
// /v1/agents: "refused", each URL an error, meaning "error" (not asked for
// at all), and no RFC 9309 "unreachable" verdicts; a site that does not
// answer keeps the standard's derived decisions.
func TestTestRefusedSite(t *testing.T) {
	site, n := newSite(t, nil, nil)
	h := New(Config{Logger: quiet()}).Handler()
	for _, path := range []string{"/v1/test", "/v1/agents"} {
		code, body := postJSON(t, h, path, map[string]any{"site": site.URL, "urls": []string{"/private/x"}})
		if code != http.StatusOK {
			t.Fatalf("POST %s = %d %s", path, code, body)
		}
		var resp struct {
			Refused string
			Fetch   struct{ Meaning, Error string }
			Results []struct {
				Error    string
				Verdicts []any
			}
			Answers []struct{ Error string }
		}
		if err := json.Unmarshal(body, &resp); err != nil {
			t.Fatal(err)
		}
		errs := []string{}
		for _, r := range resp.Results {
			errs = append(errs, r.Error)
			if len(r.Verdicts) != 0 {
				t.Errorf("POST %s: verdicts %v for a refused site, want none", path, r.Verdicts)
			}
		}
		for _, a := range resp.Answers {
			errs = append(errs, a.Error)
		}
		if resp.Refused != refusedWords || resp.Fetch.Meaning != "error" || len(errs) != 1 || errs[0] != refusedWords ||
			strings.Contains(string(body), "unreachable") {
			t.Errorf("POST %s for a refused site = %s\nwant refused %q, meaning error, the URL's error that, no unreachable", path, body, refusedWords)
		}
	}
	if n.Load() != 0 {
		t.Errorf("the refused site was asked %d times", n.Load())
	}
	down := New(Config{Logger: quiet(), AllowPrivate: true}).Handler()
	_, body := postJSON(t, down, "/v1/test", map[string]any{"site": fmt.Sprintf("http://127.0.0.1:%d/", sitetest.RefusedPort(t)), "urls": []string{"/x"}, "profiles": []string{"rfc9309"}})
	if strings.Contains(string(body), `"refused"`) || !strings.Contains(string(body), "unreachable: everything is disallowed") {
		t.Errorf("POST /v1/test for a site that does not answer = %s; want RFC 9309's unreachable decision, not refused", body)
	}
}
