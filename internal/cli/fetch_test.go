package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/manifest"
)

var updateFetch = flag.Bool("update-fetch", false, "rewrite the golden files of the fetch tests")

// runFetchCLI runs sitetxt with args in memory.
func runFetchCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ios := &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut,
		Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false }}
	code = Run(ios, args)
	return code, out.String(), errOut.String()
}

// fetchSites serves three sites: /ok/ (robots.txt 200, data.txt 200, a
// Web Bot Auth key directory),
// /html/ (an HTML robots.txt, no data.txt) and /down/ (5xx everywhere).
// They share one host, so the tests pass manifest URLs or use the
// handler's paths below the root.
type fetchSites struct {
	ok, html, down, moved *httptest.Server
	hits                  atomic.Int64
}

func newFetchSites(t *testing.T) *fetchSites {
	s := &fetchSites{}
	handler := func(kind string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			s.hits.Add(1)
			switch kind + r.URL.Path {
			case "ok/robots.txt":
				w.Header().Set("Content-Type", "text/plain")
				w.Header().Set("Cache-Control", "max-age=3600")
				io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
			case "ok/data.txt":
				w.Header().Set("Content-Type", "text/plain")
				io.WriteString(w, "Path: /data/census.csv\nName: Census\n")
			case "ok/.well-known/http-message-signatures-directory":
				w.Header().Set("Content-Type", "application/http-message-signatures-directory+json")
				io.WriteString(w, `{"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}`)
			case "html/robots.txt":
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<!DOCTYPE html><html><body>Welcome</body></html>\n")
			case "down/robots.txt", "down/data.txt":
				w.WriteHeader(http.StatusServiceUnavailable)
			default:
				http.NotFound(w, r)
			}
		}
	}
	s.ok = httptest.NewServer(handler("ok"))
	s.html = httptest.NewServer(handler("html"))
	s.down = httptest.NewServer(handler("down"))
	s.moved = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, s.ok.URL+r.URL.Path, http.StatusMovedPermanently)
	}))
	t.Cleanup(func() { s.ok.Close(); s.html.Close(); s.down.Close(); s.moved.Close() })
	return s
}

var (
	timeRE = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	portRE = regexp.MustCompile(`127\.0\.0\.1:\d+`)
)

// normalize replaces the servers' addresses and times so output can be
// compared with golden files.
func (s *fetchSites) normalize(out string) string {
	out = strings.ReplaceAll(out, s.ok.URL, "http://ok.test")
	out = strings.ReplaceAll(out, s.html.URL, "http://html.test")
	out = strings.ReplaceAll(out, s.down.URL, "http://down.test")
	out = strings.ReplaceAll(out, s.moved.URL, "http://moved.test")
	out = portRE.ReplaceAllString(out, "127.0.0.1:PORT")
	return timeRE.ReplaceAllString(out, "TIME")
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "fetch", name)
	if *updateFetch {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update-fetch)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

func TestFetchCmd(t *testing.T) {
	s := newFetchSites(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		golden string
	}{
		{"ok", []string{s.ok.URL + "/"}, ExitOK, "ok.txt"},
		{"ok json", []string{"-o", "json", s.ok.URL}, ExitOK, "ok.json"},
		{"ok csv", []string{"-o", "csv", s.ok.URL}, ExitOK, "ok.csv"},
		{"html", []string{s.html.URL + "/some/page.html"}, ExitFindings, "html.txt"},
		{"down", []string{s.down.URL}, ExitError, "down.txt"},
		{"moved", []string{s.moved.URL}, ExitOK, "moved.txt"},
		{"several sites in order", []string{s.down.URL, s.ok.URL, s.html.URL}, ExitError, "several.txt"},
		{"down draft", []string{"--profile", "draft", "-o", "json", s.down.URL}, ExitError, "down-draft.json"},
		{"refused", []string{"--timeout", "2s", "http://127.0.0.1:1/"}, ExitError, "refused.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"fetch", "--no-cache"}, tt.args...)
			code, out, errOut := runFetchCLI(t, args...)
			if code != tt.code {
				t.Errorf("sitetxt %s: exit %d, want %d (stderr %q)", strings.Join(args, " "), code, tt.code, errOut)
			}
			checkGolden(t, tt.golden, s.normalize(out))
		})
	}
}

func TestFetchCmdCache(t *testing.T) {
	s := newFetchSites(t)
	dir := t.TempDir()
	var reports [2][]fetchReport
	for i := range reports {
		code, out, errOut := runFetchCLI(t, "fetch", "-o", "json", "--cache-dir", dir, s.ok.URL)
		if code != ExitOK {
			t.Fatalf("run %d: exit %d, stderr %q", i, code, errOut)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			var r fetchReport
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("run %d: bad JSON line: %v\n%s", i, err, out)
			}
			reports[i] = append(reports[i], r)
		}
	}
	for i, r := range reports[0] {
		if r.FromCache {
			t.Errorf("first run, %s: from_cache = true, want false", r.Manifest)
		}
		if !reports[1][i].FromCache || reports[1][i].Size != r.Size {
			t.Errorf("second run, %s: from_cache %v, size %d; want a cached copy of %d bytes", r.Manifest, reports[1][i].FromCache, reports[1][i].Size, r.Size)
		}
	}
	kinds := int64(len(manifest.Shown("fetch"))) // the manifests fetch reports on for a site
	if n := s.hits.Load(); n != kinds {
		t.Errorf("server hits for two runs = %d, want %d", n, kinds)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.cache"))
	if int64(len(files)) != kinds {
		t.Errorf("cache directory holds %d entries, want %d", len(files), kinds)
	}
	// A corrupt entry is refetched, not fatal.
	for _, f := range files {
		os.WriteFile(f, []byte("garbage"), 0o644)
	}
	if code, _, errOut := runFetchCLI(t, "fetch", "--cache-dir", dir, s.ok.URL); code != ExitOK || s.hits.Load() != 2*kinds {
		t.Errorf("run over corrupt cache: exit %d, hits %d, stderr %q; want exit 0 and %d more hits", code, s.hits.Load(), errOut, kinds)
	}
	// --no-cache fetches again.
	runFetchCLI(t, "fetch", "--no-cache", "--cache-dir", dir, s.ok.URL)
	if n := s.hits.Load(); n != 3*kinds {
		t.Errorf("server hits after --no-cache = %d, want %d", n, 3*kinds)
	}
}

func TestFetchCmdUsage(t *testing.T) {
	for _, args := range [][]string{
		{"fetch"},
		{"fetch", "--profile", "datatxt", "https://example.org/"},
		{"fetch", "--profile", "nonsense", "https://example.org/"},
		{"fetch", "-o", "yaml", "https://example.org/"},
		{"fetch", "ftp://example.org/"},
		{"fetch", "--timeout", "soon", "https://example.org/"},
	} {
		code, out, errOut := runFetchCLI(t, args...)
		if code != ExitError || out != "" || !strings.HasPrefix(errOut, "sitetxt: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("sitetxt %s: exit %d, stdout %q, stderr %q; want exit 2 and one error line", strings.Join(args, " "), code, out, errOut)
		}
	}
}

func TestResolveSource(t *testing.T) {
	s := newFetchSites(t)
	file := filepath.Join(t.TempDir(), "robots.txt")
	os.WriteFile(file, []byte("User-agent: *\n"), 0o644)
	ios := &IOStreams{In: strings.NewReader("from stdin")}
	tests := []struct {
		arg     string
		kind    *manifest.Kind
		profile string
		name    string // source name (the URL fetched)
		data    string
		status  fetch.Status
		fetched bool
	}{
		{file, manifest.Robots, "", file, "User-agent: *\n", 0, false},
		{"-", manifest.Robots, "", "<stdin>", "from stdin", 0, false},
		{s.ok.URL, manifest.Robots, "", s.ok.URL + "/robots.txt", "User-agent: *\nDisallow: /private/\n", fetch.Parse, true},
		{s.ok.URL + "/", manifest.DataTxt, "", s.ok.URL + "/data.txt", "Path: /data/census.csv\nName: Census\n", fetch.Parse, true},
		{s.ok.URL + "/robots.txt", manifest.Robots, "", s.ok.URL + "/robots.txt", "User-agent: *\nDisallow: /private/\n", fetch.Parse, true},
		{s.html.URL + "/", manifest.DataTxt, "", s.html.URL + "/data.txt", "", fetch.NotFound, true},
		{s.html.URL + "/missing/robots.txt", manifest.Robots, "draft", s.html.URL + "/missing/robots.txt", "", fetch.AllowAll, true},
		{s.down.URL + "/", manifest.Robots, "rfc9309", s.down.URL + "/robots.txt", "", fetch.DisallowAll, true},
		{s.down.URL + "/", manifest.Robots, "draft", s.down.URL + "/robots.txt", "", fetch.Defer, true},
	}
	for _, tt := range tests {
		ff := &fetchFlags{NoCache: true, Profile: tt.profile}
		src, err := resolveSource(ios, ff, tt.arg, tt.kind)
		if err != nil {
			t.Errorf("resolveSource(%q, %s): %v", tt.arg, tt.kind.Name, err)
			continue
		}
		if src.name != tt.name || string(src.data) != tt.data || (src.fetched != nil) != tt.fetched {
			t.Errorf("resolveSource(%q, %s) = %q %q fetched %v, want %q %q fetched %v", tt.arg, tt.kind.Name, src.name, src.data, src.fetched != nil, tt.name, tt.data, tt.fetched)
		}
		if src.fetched != nil && src.fetched.Status != tt.status {
			t.Errorf("resolveSource(%q, %s).fetched.Status = %s, want %s", tt.arg, tt.kind.Name, src.fetched.Status, tt.status)
		}
	}
	// Failures that have no meaning are errors exiting with ExitError.
	for _, tt := range []struct {
		arg     string
		kind    *manifest.Kind
		profile string
	}{
		{s.down.URL, manifest.DataTxt, ""},
		{s.ok.URL, manifest.Robots, "nonsense"},
		{"/no/such/file", manifest.Robots, ""},
	} {
		_, err := resolveSource(ios, &fetchFlags{NoCache: true, Profile: tt.profile}, tt.arg, tt.kind)
		var ee *exitError
		if !asExit(err, &ee) || ee.code != ExitError {
			t.Errorf("resolveSource(%q, %s, profile %q) = %v, want an error exiting %d", tt.arg, tt.kind.Name, tt.profile, err, ExitError)
		}
	}
}

func asExit(err error, ee **exitError) bool {
	e, ok := err.(*exitError)
	*ee = e
	return ok
}

func TestFetchedTruncated(t *testing.T) {
	big := strings.Repeat("Disallow: /x\n", fetch.DefaultMaxSize/13+100)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "User-agent: *\n"+big) }))
	defer srv.Close()
	src, err := resolveSource(nil, &fetchFlags{NoCache: true}, srv.URL, manifest.Robots)
	if err != nil {
		t.Fatal(err)
	}
	f := src.parse(grammarOptions())
	found := false
	for _, d := range f.Diagnostics {
		found = found || d.Code == "too-large"
	}
	if len(src.data) != fetch.DefaultMaxSize || !found {
		t.Errorf("a body over the limit gave %d bytes and too-large diagnostic %v; want %d bytes and the diagnostic", len(src.data), found, fetch.DefaultMaxSize)
	}
}

func grammarOptions() grammar.Options { return grammar.Options{} }

func TestInterpretAs(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusForbidden)
	}))
	defer srv.Close()
	ff := &fetchFlags{NoCache: true}
	src, err := resolveSource(nil, ff, srv.URL, manifest.Robots)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]fetch.Status{"rfc9309": fetch.AllowAll, "google": fetch.AllowAll, "draft": fetch.DisallowAll, "norobots": fetch.DisallowAll}
	for p, st := range want {
		r, err := ff.interpretAs(src, p)
		if err != nil || r.Status != st {
			t.Errorf("interpretAs(403, %s) = %v, %v, want %s", p, r, err, st)
		}
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("server hits for four profiles = %d, want 1", n)
	}
	if _, err := ff.interpretAs(src, "datatxt"); err == nil {
		t.Errorf("interpretAs(datatxt) succeeded, want an error")
	}
}
