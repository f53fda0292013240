package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// robotsSite serves robots.txt (counting its fetches) and an HTML page
// everywhere else.
func robotsSite(t *testing.T, robots string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			n.Add(1)
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte(robots))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!DOCTYPE html>\n<html><body>a page</body></html>\n"))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestCheckPageURL: a page URL as SOURCE means its site's robots.txt, with
// a note, never the page read as a robots.txt (issue 15, point 2).
func TestCheckPageURL(t *testing.T) {
	srv, n := robotsSite(t, "User-agent: *\nDisallow: /org/\n")
	stdout, stderr, code := runCLI(t, "", "check", "--no-cache", srv.URL+"/index.html", "/org/plans.html")
	if code != ExitFindings || !strings.HasPrefix(stdout, "for \"*\" (the rules for every crawler) under rfc9309:\ndisallowed /org/plans.html: "+srv.URL+"/robots.txt:2: Disallow: /org/") {
		t.Errorf("check PAGE /org/plans.html = exit %d, %q; want exit 1, disallowed by the site's robots.txt", code, stdout)
	}
	if want := "sitetxt: note: " + srv.URL + "/index.html is a page, not a robots.txt: reading its site's robots.txt " + srv.URL + "/robots.txt\n"; stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
	if n.Load() != 1 {
		t.Errorf("robots.txt fetched %d times, want 1", n.Load())
	}
	_, stderr, _ = runCLI(t, "", "check", "-q", "--no-cache", srv.URL+"/index.html", "/org/plans.html")
	if stderr != "" {
		t.Errorf("check -q: stderr %q, want no note", stderr)
	}
}

// TestCheckHTMLWarning: an HTML body served as robots.txt, or an HTML file,
// is read as the standard says, with one warning.
func TestCheckHTMLWarning(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html><head><title>Not found</title></head></html>\n"))
	}))
	defer srv.Close()
	for _, args := range [][]string{
		{"check", "--no-cache", srv.URL + "/", "/x"},
		{"check", "--no-cache", srv.URL + "/x", srv.URL + "/y"}, // each URL against its site's: said once
		{"check", "-", "/x"},
		{"diff", "-", "/x"},
		{"matrix", "-", "/x"},
		{"agents", "-", "/x"},
	} {
		stdout, stderr, code := runCLI(t, "<html><head><title>Not found</title></head></html>\n", args...)
		if strings.Count(stderr, "sitetxt: warning: ") != 1 || !strings.Contains(stderr, "HTML") || !strings.Contains(stdout, "allowed") {
			t.Errorf("sitetxt %q on HTML = exit %d, %q, stderr %q; want a warning naming HTML", args, code, stdout, stderr)
		}
	}
}

// TestCheckPerSite: without a SOURCE, each absolute URL is checked against
// its own site's robots.txt, fetched once per site.
func TestCheckPerSite(t *testing.T) {
	a, na := robotsSite(t, "User-agent: *\nDisallow: /private/\n")
	b, nb := robotsSite(t, "User-agent: *\nDisallow: /\n")
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		out   string
	}{
		{"arguments", "", []string{"check", "--no-cache", a.URL + "/public", b.URL + "/public", a.URL + "/private/x", b.URL + "/x"}, ExitFindings,
			"for \"*\" (the rules for every crawler) under rfc9309:\n" +
				"allowed    " + a.URL + "/public: no rule matched (group at " + a.URL + "/robots.txt:1)\n" +
				"disallowed " + b.URL + "/public: " + b.URL + "/robots.txt:2: Disallow: /\n" +
				"disallowed " + a.URL + "/private/x: " + a.URL + "/robots.txt:2: Disallow: /private/\n" +
				"disallowed " + b.URL + "/x: " + b.URL + "/robots.txt:2: Disallow: /\n"},
		{"urls only", a.URL + "/public\n# skip\n\n" + a.URL + "/y\n", []string{"check", "--no-cache", "--urls", "-"}, ExitOK,
			"for \"*\" (the rules for every crawler) under rfc9309:\n" +
				"allowed    " + a.URL + "/public: no rule matched (group at " + a.URL + "/robots.txt:1)\n" +
				"allowed    " + a.URL + "/y: no rule matched (group at " + a.URL + "/robots.txt:1)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			na.Store(0)
			nb.Store(0)
			stdout, stderr, code := runCLI(t, tt.stdin, tt.args...)
			if code != tt.code || stdout != tt.out || stderr != "" {
				t.Errorf("sitetxt %q = exit %d\n%s%s\nwant exit %d\n%s", tt.args, code, stdout, stderr, tt.code, tt.out)
			}
			if na.Load() != 1 || (tt.name == "arguments" && nb.Load() != 1) {
				t.Errorf("robots.txt fetches: %d and %d, want one per site", na.Load(), nb.Load())
			}
		})
	}
	// A path cannot name its site: a clear error, exit 2, the others decided.
	stdout, stderr, code := runCLI(t, "/relative\n"+a.URL+"/public\n", "check", "--no-cache", "--urls", "-")
	if code != ExitError || !strings.Contains(stderr, `<stdin>:1: "/relative" is not an absolute http(s) URL`) || !strings.Contains(stdout, a.URL+"/public") {
		t.Errorf("check --urls with a path and no SOURCE = exit %d, %q, stderr %q; want exit 2, an error naming the path, the other URL decided", code, stdout, stderr)
	}
}

// TestCheckPerSiteOnce: without a SOURCE, URLs are decided through
// robots.Client, the site's robots.txt read once for the run however
// short its life (Cache-Control: no-store), with the notes on what was
// read of it said once (a line past the line limit), as they are for a
// SOURCE.
func TestCheckPerSiteOnce(t *testing.T) {
	var n atomic.Int32
	body := "User-agent: *\nDisallow: /private/\nDisallow: /long" + strings.Repeat("x", 20000) + "\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Cache-Control", "no-store")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	stdout, stderr, code := runCLI(t, "", "check", "--no-cache", srv.URL+"/private/a", srv.URL+"/b", srv.URL+"/private/c")
	if code != ExitFindings || strings.Count(stdout, "disallowed ") != 2 || strings.Count(stdout, "allowed    ") != 1 {
		t.Errorf("check three URLs of one site = exit %d\n%s%s\nwant two disallowed, one allowed", code, stdout, stderr)
	}
	if want := "sitetxt: note: " + srv.URL + "/robots.txt: 1 line longer than the line limit; each is read up to it\n"; stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
	if n.Load() != 1 {
		t.Errorf("robots.txt fetched %d times, want once for the run", n.Load())
	}
}
