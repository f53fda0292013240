package cli

import (
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCAFileEveryCommand: every command that fetches (each command with
// the fetch flags) trusts the certificate authority --ca-file names, and
// without it fails on the certificate: one transport, made in one place
// (fetchFlags), means --ca-file the same everywhere. A command that gains
// the fetch flags must gain a row here.
func TestCAFileEveryCommand(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /x\nSitemap: " + srv.URL + "/sitemap.xml\n"))
		case "/data.txt":
			w.Write([]byte("- path: census/population.csv\n  name: population\n  title: Population\n  description: Resident population.\n  license: https://creativecommons.org/licenses/by/4.0/\n"))
		case "/sitemap.xml":
			w.Write([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + srv.URL + `/a</loc></url></urlset>`))
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes refused without --ca-file
	srv.StartTLS()
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	site := srv.URL + "/"
	commands := map[string][]string{
		"agents":   {"agents", site, srv.URL + "/a"},
		"audit":    {"audit", site},
		"check":    {"check", site, "/a"},
		"datasets": {"datasets", site},
		"diff":     {"diff", site, "/a"},
		"explain":  {"explain", site},
		"fetch":    {"fetch", site},
		"lint":     {"lint", site},
		"matrix":   {"matrix", site, "/a"},
		"parse":    {"parse", site},
		"prefs":    {"prefs", srv.URL + "/a"},
		"sitemaps": {"sitemaps", site},
		"summary":  {"summary", site},
		"probe":    {"datasets", "--probe", "-o", "json", site}, // the data.txt, then a HEAD of its file
	}
	var fetching []string
	for _, c := range NewRootCmd(&IOStreams{}).Commands() {
		if c.Flags().Lookup("ca-file") != nil {
			fetching = append(fetching, c.Name())
		}
	}
	for _, name := range fetching {
		if commands[name] == nil {
			t.Errorf("command %s has --ca-file but no case in TestCAFileEveryCommand", name)
		}
	}
	for name, args := range commands {
		if name != "probe" && !slices.Contains(fetching, name) {
			t.Errorf("command %s has a case in TestCAFileEveryCommand but no --ca-file", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			flags := []string{"--no-cache", "--timeout", "10s"}
			with := append(append(append([]string{}, args[0]), flags...), append([]string{"--ca-file", ca}, args[1:]...)...)
			stdout, stderr, code := runCLI(t, "", with...)
			if code == ExitError || strings.Contains(stderr+stdout, "certificate") {
				t.Errorf("sitetxt %q = exit %d, %q, stderr %q; want the CA trusted", with, code, stdout, stderr)
			}
			without := append(append([]string{}, args[0]), append(flags, args[1:]...)...)
			if _, stderr, code := runCLI(t, "", without...); !strings.Contains(stderr, "certificate") {
				t.Errorf("sitetxt %q = exit %d, stderr %q; want a certificate error without --ca-file", without, code, stderr)
			}
		})
	}
}
