package serve

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestSitemaps: POST /v1/sitemaps answers a header line saying the site,
// agent and profile once, then a site's sitemap URLs as JSON Lines, each
// with its decision (less the agent) when an agent is given, then a
// summary; without AllowPrivate the loopback site is refused, as for
// /v1/check.
func TestSitemaps(t *testing.T) {
	files := map[string]string{
		"/robots.txt":  "User-agent: TestBot\nDisallow: /private/\nSitemap: $SITE/index.xml\n",
		"/index.xml":   `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>$SITE/pages.xml</loc></sitemap></sitemapindex>`,
		"/pages.xml":   `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>$SITE/a</loc><priority>0.4</priority></url><url><loc>$SITE/private/b</loc></url></urlset>`,
		"/sitemap.xml": "",
	}
	site := sitetest.New(t, files)
	ask := func(h http.Handler, body string) (int, []map[string]any) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, jsonRequest("POST", "/v1/sitemaps", strings.NewReader(body)))
		var lines []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(rec.Body.String()), "\n") {
			var v map[string]any
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Fatalf("%v: %q", err, l)
			}
			lines = append(lines, v)
		}
		return rec.Code, lines
	}
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	code, lines := ask(h, `{"site": "`+site.URL+`/", "agent": "TestBot"}`)
	if code != 200 || len(lines) != 4 {
		t.Fatalf("status %d, %d lines: %v", code, len(lines), lines)
	}
	if hd, _ := lines[0]["header"].(map[string]any); hd["site"] != site.URL+"/" || hd["agent"] != "TestBot" || hd["profile"] != "rfc9309" {
		t.Errorf("header line %v, want the site, agent TestBot and profile rfc9309", lines[0])
	}
	if l := lines[1]; l["url"] != site.URL+"/a" || l["priority"] != 0.4 || l["allowed"] != true || l["sitemap"] != site.URL+"/pages.xml" {
		t.Errorf("first URL line %v", l)
	}
	if l := lines[2]; l["url"] != site.URL+"/private/b" || l["allowed"] != false || l["rule"].(map[string]any)["pattern"] != "/private/" {
		t.Errorf("second URL line %v", l)
	}
	for _, l := range lines[1:3] {
		if _, ok := l["agent"]; ok || l["profile"] != "rfc9309" {
			t.Errorf("URL line %v: want no \"agent\" (the header says it), its profile", l)
		}
	}
	sum := lines[3]["summary"].(map[string]any)
	if sum["urls"] != 2.0 || sum["disallowed"] != 1.0 || len(sum["files"].([]any)) != 2 || sum["error"] != "" {
		t.Errorf("summary %v", sum)
	}

	code, lines = ask(h, `{"site": "`+site.URL+`/index.xml", "max_urls": 1}`)
	if sum := lines[len(lines)-1]["summary"].(map[string]any); code != 200 || len(lines) != 3 || !strings.Contains(sum["stopped"].(string), "max_urls") {
		t.Fatalf("max_urls 1: %d, %v", code, lines)
	}
	if hd, _ := lines[0]["header"].(map[string]any); hd == nil || hd["agent"] != nil {
		t.Errorf("without an agent the header's agent is null: %v", lines[0])
	}
	if _, ok := lines[1]["allowed"]; ok {
		t.Errorf("without an agent a line has no decision: %v", lines[1])
	}

	code, lines = ask(New(Config{Logger: quiet()}).Handler(), `{"site": "`+site.URL+`/"}`)
	if sum := lines[len(lines)-1]["summary"].(map[string]any); code != 200 || len(lines) != 2 || sum["error"] != notPublic {
		t.Errorf("a private address: %d, %v", code, lines)
	}
	for _, body := range []string{`{}`, `{"site": "ftp://x/"}`, `{"site": "https://x/", "extra": 1}`, `{"site": "https://x/", "profile": "bogus"}`} {
		if code, _ := ask(h, body); code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", body, code)
		}
	}
}

// TestSitemapsPublicErrors: a sitemap listed at a service that is not
// HTTP (it answers with a banner) is told in public words in the
// summary, as a robots.txt is: no banner, no cause, the detail logged.
func TestSitemapsPublicErrors(t *testing.T) {
	banner := sitetest.Raw(t, func(c net.Conn) {
		http.ReadRequest(bufio.NewReader(c))
		io.WriteString(c, "-ERR wrong number of arguments SECRETBANNER\r\n")
		c.Close()
	})
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nSitemap: http://" + banner + "/s.xml\n"})
	rec := httptest.NewRecorder()
	New(Config{AllowPrivate: true, Logger: quiet()}).Handler().ServeHTTP(rec, jsonRequest("POST", "/v1/sitemaps", strings.NewReader(`{"site": "`+site.URL+`/"}`)))
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, `"error":"could not fetch the file: the site did not answer over HTTP"`) {
		t.Errorf("POST /v1/sitemaps with a sitemap at a banner service = %d %s; want the file's error in public words", rec.Code, body)
	}
	for _, leak := range []string{"SECRETBANNER", "malformed", "ERR"} {
		if strings.Contains(body, leak) {
			t.Errorf("the answer says %q: %s", leak, body)
		}
	}
}
