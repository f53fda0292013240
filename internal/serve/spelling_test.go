package serve_test

import (
	"bytes"
	"encoding/json"
	"encoding/pem"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sitetxt/sitetxt/internal/cli"
	"github.com/sitetxt/sitetxt/internal/serve"
)

// runCLICode runs sitetxt with args in memory and returns its standard
// output, standard error and exit status.
func runCLICode(args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	ios := &cli.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut,
		Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false }}
	code := cli.Run(ios, args)
	return out.String(), errOut.String(), code
}

// withoutClock drops the fields of a decision object that say when its
// robots.txt was fetched, which differ between two fetches.
func withoutClock(v any) any {
	if m, ok := v.(map[string]any); ok {
		if f, ok := m["fetch"].(map[string]any); ok {
			delete(f, "fetched_at")
			delete(f, "expires")
		}
	}
	return v
}

// TestSiteSpellingsAsCLI: a site typed as a bare host, a host with a
// path, a relative path, or with a URL on another origin is read the same
// way by "sitetxt check" (its SOURCE) and POST /v1/test (its "site"),
// both through package input: the same robots.txt fetched, the same
// decisions, the same refusals; and a base typed as a bare host is
// refused by "datasets --base" and POST /v1/datasets alike.
func TestSiteSpellingsAsCLI(t *testing.T) {
	var hits atomic.Int64
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/sitemap.xml" {
			io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://`+r.Host+`/a</loc></url></urlset>`)
			return
		}
		io.WriteString(w, "User-agent: *\nDisallow: /private/\nSitemap: https://"+r.Host+"/sitemap.xml\n")
	}))
	defer ts.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	newServe := func() http.Handler {
		return serve.New(serve.Config{Logger: slog.New(slog.DiscardHandler), Transport: ts.Client().Transport}).Handler()
	}
	host := strings.TrimPrefix(ts.URL, "https://")
	urls := []string{"/private/x", "/public", "https://other.example/no"}
	tests := []struct {
		name, site string
		refused    bool // neither reads it as a site: nothing is fetched
	}{
		{"bare host", host, false},
		{"host/path", host + "/private/x", false},
		{"URL of robots.txt, a URL on another origin", ts.URL + "/robots.txt", false},
		{"relative path", "private/x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := hits.Load()
			stdout, stderr, code := runCLICode(append([]string{"check", "-o", "json", "--no-cache", "--ca-file", ca, tt.site}, urls...)...)
			b, _ := json.Marshal(map[string]any{"site": tt.site, "urls": urls, "profiles": []string{"rfc9309"}})
			rec := httptest.NewRecorder()
			newServe().ServeHTTP(rec, apiRequest("/v1/test", b)) // each with its own cache, as the CLI's
			if tt.refused {
				if code != cli.ExitError || stdout != "" || rec.Code != http.StatusBadRequest || hits.Load() != before {
					t.Errorf("site %q: check = exit %d %q %q; POST /v1/test = %d %s; %d fetches; want both refused, nothing fetched",
						tt.site, code, stdout, stderr, rec.Code, rec.Body, hits.Load()-before)
				}
				return
			}
			if rec.Code != http.StatusOK {
				t.Fatalf("POST /v1/test site %q = %d %s, want 200", tt.site, rec.Code, rec.Body)
			}
			var resp struct {
				File    string `json:"file"`
				Results []struct {
					Verdicts []any  `json:"verdicts"`
					Error    string `json:"error"`
				} `json:"results"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
				t.Fatal(err)
			}
			want := jsonLines(t, stdout)
			if resp.File != ts.URL+"/robots.txt" || len(want) != len(urls) || len(resp.Results) != len(urls) {
				t.Fatalf("site %q: POST /v1/test read %s with %d results, check printed %d (stderr %q); want %s/robots.txt, %d each",
					tt.site, resp.File, len(resp.Results), len(want), stderr, ts.URL, len(urls))
			}
			for i, r := range resp.Results {
				var got any = map[string]any{"url": urls[i], "error": r.Error}
				if r.Error == "" && len(r.Verdicts) == 1 {
					got = r.Verdicts[0]
				}
				same(t, "site "+tt.site+", URL "+urls[i], withoutClock(got), withoutClock(want[i]))
			}
		})
	}
	// A bare host as the site of "sitemaps" and POST /v1/sitemaps: its
	// robots.txt's sitemaps, the same URLs listed.
	stdout, stderr, code := runCLICode("sitemaps", "-o", "json", "--no-cache", "--ca-file", ca, host)
	b, _ := json.Marshal(map[string]any{"site": host})
	rec := httptest.NewRecorder()
	newServe().ServeHTTP(rec, apiRequest("/v1/sitemaps", b))
	lines := jsonLines(t, rec.Body.String())
	if want := jsonLines(t, stdout); code != cli.ExitOK || rec.Code != http.StatusOK || len(want) != 1 || len(lines) != 3 {
		t.Fatalf("sitemaps %s = exit %d %q (stderr %q); POST /v1/sitemaps = %d %s; want 1 URL each", host, code, stdout, stderr, rec.Code, rec.Body)
	} else {
		same(t, "sitemaps of the bare host "+host, lines[1], want[0]) // after the header line
	}

	// A base names the file a text is published at: a bare host is
	// refused the same way at both.
	file := filepath.Join("..", "..", "testdata", "datatxt", "list.yaml.txt")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runCLICode("datasets", "-o", "json", "--base", "example.org", file)
	b, _ = json.Marshal(map[string]any{"datatxt": string(text), "base": "example.org"})
	rec = httptest.NewRecorder()
	newServe().ServeHTTP(rec, apiRequest("/v1/datasets", b))
	const why = `"example.org" is not an absolute URL`
	if code != cli.ExitError || !strings.Contains(stderr, why) || rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), strings.ReplaceAll(why, `"`, `\"`)) {
		t.Errorf("base example.org: datasets = exit %d %q; POST /v1/datasets = %d %s; want both refused with %s", code, stderr, rec.Code, rec.Body, why)
	}
}
