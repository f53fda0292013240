package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestURLSources runs the commands that read a robots.txt on a site served
// over HTTP: each fetches it once and reads the response as its profile's
// access method says.
func TestURLSources(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("User-agent: *\nDisallow: /private\nMobile-agent-server: / atp://agents.example:434\n"))
	})
	mux.HandleFunc("/forbidden/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cache := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string // a substring of standard output
	}{
		{"parse", []string{"parse", srv.URL + "/ok/robots.txt"}, ExitOK, "disallowline   Disallow: \"/private\""},
		{"lint", []string{"lint", srv.URL + "/ok/robots.txt"}, ExitOK, ""},
		{"matrix", []string{"matrix", "--agent", "a", srv.URL + "/ok/robots.txt", "/private", "/public"}, ExitFindings, "disallowed  /private\n  why: a: "},
		{"agents", []string{"agents", srv.URL + "/ok/robots.txt", "/public"}, ExitOK, "atp://agents.example:434"},
		{"diff agrees", []string{"diff", srv.URL + "/ok/robots.txt", "/private"}, ExitOK, "disallowed :2"},
		{"diff 403", []string{"diff", "--profiles", "rfc9309,draft", srv.URL + "/forbidden/robots.txt", "/x"}, ExitFindings, "why: access method: HTTP 403"},
		{"matrix 403 draft", []string{"matrix", "--profile", "draft", srv.URL + "/forbidden/robots.txt", "/x"}, ExitFindings, "disallowed  /x"},
		{"matrix 403 rfc9309", []string{"matrix", srv.URL + "/forbidden/robots.txt", "/x"}, ExitOK, "allowed     /x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{}, tt.args...)
			args = append(args[:1], append([]string{"--cache-dir", cache}, args[1:]...)...)
			out, errOut, code := runCLI(t, "", args...)
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("sitetxt %s: exit %d, stdout:\n%s\nstderr: %s\nwant exit %d and %q", strings.Join(tt.args, " "), code, out, errOut, tt.code, tt.want)
			}
		})
	}
}

func TestDatasetsURL(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/a/data.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("- path: sales.csv\n  name: sales\n"))
	})
	mux.HandleFunc("/a/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /a/\n"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cache := t.TempDir()
	out, errOut, code := runCLI(t, "", "datasets", "--cache-dir", cache, "-o", "csv", "--robots", srv.URL+"/a/robots.txt", srv.URL+"/a/data.txt")
	if code != ExitOK || !strings.Contains(out, srv.URL+"/a/sales.csv") || !strings.Contains(out, "disallowed") {
		t.Errorf("datasets over HTTP: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "datasets", "--cache-dir", cache, srv.URL+"/none/")
	if code != ExitOK || !strings.Contains(errOut, "404") {
		t.Errorf("datasets on a site without data.txt: exit %d, stdout %q, stderr %q; want exit 0 and the 404 reason", code, out, errOut)
	}
}

// TestFetchedWithoutBody checks the commands that show a file itself
// (parse, lint) on a response that has none, and lint --type datatxt on a
// site, which must read its data.txt.
func TestFetchedWithoutBody(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/down/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/data.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("- name: no-path\n"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cache := t.TempDir()
	for _, cmd := range []string{"parse", "lint"} {
		_, errOut, code := runCLI(t, "", cmd, "--cache-dir", cache, srv.URL+"/down/robots.txt")
		if code != ExitError || !strings.Contains(errOut, "no file to read") {
			t.Errorf("sitetxt %s on a 503: exit %d, stderr %q; want exit 2 and the reason", cmd, code, errOut)
		}
	}
	out, errOut, code := runCLI(t, "", "lint", "--cache-dir", cache, "--type", "datatxt", srv.URL+"/")
	if code != ExitFindings || !strings.Contains(out, "has no path") {
		t.Errorf("lint --type datatxt on a site: exit %d, stdout %q, stderr %q; want the data.txt's error", code, out, errOut)
	}
}
