package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// sitemapSite serves robots.txt -> a sitemap index -> a gzip urlset and a
// text sitemap, listing URLs the robots.txt disallows for TestBot, and one
// URL twice.
func sitemapSite(t *testing.T) *sitetest.Site {
	t.Helper()
	files := map[string]string{
		"/robots.txt": "User-agent: TestBot\nDisallow: /private/\nAllow: /private/open\n\nSitemap: $SITE/sitemap_index.xml\n",
		"/sitemap_index.xml": `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>$SITE/sitemaps/pages.xml.gz</loc><lastmod>2025-01-01</lastmod></sitemap>
  <sitemap><loc>$SITE/sitemaps/more.txt</loc></sitemap>
  <sitemap><loc>$SITE/sitemap_index.xml</loc></sitemap>
</sitemapindex>
`,
		"/sitemaps/pages.xml.gz": `gz:<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>$SITE/</loc><lastmod>2025-06-01T10:00:00+02:00</lastmod><changefreq>daily</changefreq><priority>0.9</priority></url>
  <url><loc>$SITE/private/secret</loc></url>
  <url><loc>$SITE/private/open</loc></url>
</urlset>
`,
		"/sitemaps/more.txt": "$SITE/about\n$SITE/private/other\n$SITE/\n",
	}
	return sitetest.New(t, files)
}

// TestSitemapsAgent: "sitetxt sitemaps --agent TestBot SITE" lists every
// URL once, with the robots.txt decision check -o json gives it, and the
// summary counts the disallowed URLs per sitemap.
func TestSitemapsAgent(t *testing.T) {
	srv := sitemapSite(t)
	stdout, stderr, code := runCLI(t, "", "sitemaps", "--no-cache", "--agent", "TestBot", "-o", "json", srv.URL+"/")
	if code != ExitFindings {
		t.Errorf("exit %d, want 1 (URLs disallowed); stderr %q", code, stderr)
	}
	type line struct {
		URL        string   `json:"url"`
		LastMod    *string  `json:"lastmod"`
		ChangeFreq *string  `json:"changefreq"`
		Priority   *float64 `json:"priority"`
		Sitemap    string   `json:"sitemap"`
		Agent      string   `json:"agent"`
		Profile    string   `json:"profile"`
		Allowed    bool     `json:"allowed"`
		Reason     string   `json:"reason"`
		Rule       *struct {
			Directive, Pattern, File string
			Line                     int
		} `json:"rule"`
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var v line
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		rule := "-"
		if v.Rule != nil {
			rule = fmt.Sprintf("%s:%d %s %s", strings.TrimPrefix(v.Rule.File, srv.URL), v.Rule.Line, v.Rule.Directive, v.Rule.Pattern)
		}
		got = append(got, fmt.Sprintf("%s %v %s <- %s", strings.TrimPrefix(v.URL, srv.URL), v.Allowed, rule, strings.TrimPrefix(v.Sitemap, srv.URL)))
		if v.Agent != "TestBot" || v.Profile != "rfc9309" {
			t.Errorf("agent %q profile %q", v.Agent, v.Profile)
		}
		if v.URL == srv.URL+"/" && (v.LastMod == nil || *v.LastMod != "2025-06-01T08:00:00Z" || *v.ChangeFreq != "daily" || *v.Priority != 0.9) {
			t.Errorf("the first URL's fields: %s", l)
		}
	}
	want := []string{
		"/ true - <- /sitemaps/pages.xml.gz",
		"/private/secret false /robots.txt:2 Disallow /private/ <- /sitemaps/pages.xml.gz",
		"/private/open true /robots.txt:3 Allow /private/open <- /sitemaps/pages.xml.gz",
		"/about true - <- /sitemaps/more.txt",
		"/private/other false /robots.txt:2 Disallow /private/ <- /sitemaps/more.txt",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("URLs\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, s := range []string{
		"sitetxt: note: 5 URLs from 3 sitemap files (0 errors, 1 warning); 1 URL listed again, printed once\n",
		"sitetxt: note: 2 of 5 listed URLs are disallowed for TestBot by robots.txt (rfc9309)\n",
		"sitetxt: note:   " + srv.URL + "/sitemaps/pages.xml.gz: 1 of 3 disallowed\n",
		"sitetxt: note:   " + srv.URL + "/sitemaps/more.txt: 1 of 2 disallowed\n",
		"[cycle]",
	} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}

	// The same in text, and as CSV.
	stdout, _, code = runCLI(t, "", "sitemaps", "--no-cache", "--agent", "TestBot", srv.URL+"/")
	if code != ExitFindings || !strings.Contains(stdout, "disallowed "+srv.URL+"/private/secret: "+srv.URL+"/robots.txt:2: Disallow: /private/\n") ||
		!strings.Contains(stdout, "2 of 5 listed URLs are disallowed for TestBot") {
		t.Errorf("text: exit %d\n%s", code, stdout)
	}
	stdout, _, _ = runCLI(t, "", "sitemaps", "--no-cache", "--agent", "TestBot", "-o", "csv", srv.URL+"/")
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(rows) != 6 || rows[0] != "url,lastmod,changefreq,priority,sitemap,agent,profile,verdict,reason,directive,pattern,file,line,column,group_line" ||
		!strings.HasPrefix(rows[2], srv.URL+"/private/secret,,,,"+srv.URL+"/sitemaps/pages.xml.gz,TestBot,rfc9309,disallowed,") {
		t.Errorf("csv:\n%s", stdout)
	}
}

// TestSitemapsNoAgent: without --agent, one line per URL, and the URL of a
// sitemap given directly starts there.
func TestSitemapsNoAgent(t *testing.T) {
	srv := sitemapSite(t)
	stdout, stderr, code := runCLI(t, "", "sitemaps", "--no-cache", srv.URL+"/sitemap_index.xml")
	want := srv.URL + "/  lastmod=2025-06-01T08:00:00Z  changefreq=daily  priority=0.9\n" + srv.URL + "/private/secret\n" + srv.URL + "/private/open\n" +
		srv.URL + "/about\n" + srv.URL + "/private/other\n5 URLs from 3 sitemap files (0 errors, 1 warning); 1 URL listed again, printed once\n"
	if code != ExitOK || stdout != want {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s\nstderr %s", code, stdout, want, stderr)
	}
	// A sitemap robots.txt does not name may list only URLs under its
	// directory ("Sitemap file location").
	stdout, stderr, code = runCLI(t, "", "sitemaps", "--no-cache", srv.URL+"/sitemaps/more.txt")
	if code != ExitFindings || !strings.HasPrefix(stdout, "0 URLs") || strings.Count(stderr, "[out-of-scope]") != 3 {
		t.Errorf("more.txt alone: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	_, stderr, code = runCLI(t, "", "sitemaps", "--no-cache", srv.URL+"/sitemaps/missing.xml")
	if code != ExitError || !strings.Contains(stderr, "sitetxt: cannot fetch "+srv.URL+"/sitemaps/missing.xml: HTTP 404 Not Found") {
		t.Errorf("a missing sitemap: exit %d, stderr %q", code, stderr)
	}
}

// TestSitemapsFile reads files, standard input and --base, with the text
// escaped.
func TestSitemapsFile(t *testing.T) {
	stdout, stderr, code := runCLI(t, "https://www.example.org/a\u202eb\nhttps://shop.example.org/b\n", "sitemaps", "--base", "https://www.example.org/", "-")
	if code != ExitFindings || stdout != "https://www.example.org/a\\u202eb\n1 URL from 1 sitemap file (1 error, 1 warning)\n" ||
		!strings.Contains(stderr, "<stdin>:2:1: error: ") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	_, _, code = runCLI(t, "", "sitemaps", "testdata/none.xml")
	if code != ExitError {
		t.Errorf("a missing file: exit %d", code)
	}
	_, stderr, code = runCLI(t, "", "sitemaps", "--max-files", "0", "-")
	if code != ExitError || !strings.Contains(stderr, "--max-files") {
		t.Errorf("--max-files 0: exit %d, %q", code, stderr)
	}
}

// TestLintSitemaps: lint --sitemaps reports, at each Sitemap line, a
// sitemap that 404s, one that is not XML, and one that lists URLs the
// robots.txt disallows, and the sitemaps' own problems.
func TestLintSitemaps(t *testing.T) {
	files := map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\n\nSitemap: $SITE/gone.xml\nSitemap: $SITE/page.html\nSitemap: $SITE/s.xml\n",
		"/page.html":  "<!DOCTYPE html>\n<html><body>Not here</body></html>\n",
		"/s.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>$SITE/ok</loc><priority>2</priority></url>
<url><loc>$SITE/private/a</loc></url>
<url><loc>$SITE/private/b</loc></url>
</urlset>`,
	}
	srv := sitetest.New(t, files)
	stdout, stderr, code := runCLI(t, "", "lint", "--no-cache", "--sitemaps", srv.URL+"/robots.txt")
	robots := srv.URL + "/robots.txt"
	for _, want := range []string{
		robots + ":4:1: error: Sitemap " + srv.URL + "/gone.xml cannot be fetched: HTTP 404 Not Found [sitemap-fetch]",
		robots + ":5:1: error: Sitemap " + srv.URL + "/page.html is not a sitemap: the root element <html> is not a sitemap's",
		robots + ":6:1: error: Sitemap " + srv.URL + "/s.xml lists 2 URLs that this robots.txt disallows for every crawler (*), the first " + srv.URL + "/private/a: " + robots + ":2: Disallow: /private/ [sitemap-blocked]",
		fmt.Sprintf("%s/s.xml:2:%d: warning: priority \"2\" is not a number from 0.0 to 1.0", srv.URL, len("<url><loc>"+srv.URL+"/ok</loc>")+1),
		srv.URL + "/page.html:1:1: warning: DOCTYPE declaration",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("lint --sitemaps lacks\n%s\nin\n%s", want, stdout)
		}
	}
	if code != ExitFindings {
		t.Errorf("exit %d, want 1; stderr %q", code, stderr)
	}
	stdout, _, code = runCLI(t, "", "lint", "--no-cache", srv.URL+"/robots.txt")
	if strings.Contains(stdout, "sitemap-") || code != ExitOK {
		t.Errorf("without --sitemaps: exit %d\n%s", code, stdout)
	}
}

// TestSitemapsRobotsFile: --robots decides a sitemap file's URLs by a
// robots.txt on disk, for the site of --base (or of the first URL); URLs
// of another site are judged by their own robots.txt, and --robots
// without --agent is refused.
func TestSitemapsRobotsFile(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	rf := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(rf, []byte("User-agent: *\nDisallow: /catalog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args     []string
		code     int
		verdicts string // allowed (a) or disallowed (d), URL by URL
	}{
		{[]string{"--agent", "Googlebot", "--robots", rf, "testdata/sitemap/urlset.xml"}, 1, "adddd"},
		{[]string{"--agent", "Googlebot", "--robots", rf, "--base", "https://www.example.org/sitemap.xml", "testdata/sitemap/urlset.xml"}, 1, "adddd"},
		{[]string{"--robots", rf, "testdata/sitemap/urlset.xml"}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", append([]string{"sitemaps", "-o", "json"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			var got strings.Builder
			for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
				if line == "" {
					continue
				}
				var v struct {
					URL     string `json:"url"`
					Allowed bool   `json:"allowed"`
					Rule    *struct {
						File string `json:"file"`
					} `json:"rule"`
				}
				if err := json.Unmarshal([]byte(line), &v); err != nil {
					t.Fatal(err)
				}
				if v.Allowed {
					got.WriteByte('a')
				} else {
					got.WriteByte('d')
					if v.Rule == nil || v.Rule.File != rf {
						t.Errorf("Allowed(%q) decided by %+v, want a rule of %s", v.URL, v.Rule, rf)
					}
				}
			}
			if got.String() != tt.verdicts {
				t.Errorf("verdicts %q, want %q", got.String(), tt.verdicts)
			}
		})
	}
}
