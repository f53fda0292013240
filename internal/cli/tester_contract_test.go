package cli

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/serve"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestTesterChromiumSaysWhatCLISays opens the tester in headless Chromium
// where it must say what the command line says (issue 35, item 6): a site
// it cannot fetch (refused as a private address, or not answering) is an
// error panel naming the cause, the decisions derived from the failure
// folded under it; a profile the address misspells is reported with the
// one meant; a relative URL is read from the site's root as check reads
// it.
func TestTesterChromiumSaysWhatCLISays(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /private/\n"})
	down := fmt.Sprintf("http://127.0.0.1:%d", sitetest.RefusedPort(t))
	guarded := httptest.NewServer(serve.New(serve.Config{Logger: slog.New(slog.DiscardHandler)}).Handler())
	t.Cleanup(guarded.Close)
	open := testerServer(t)
	for _, tt := range []struct {
		name, server, site, cause string
	}{
		{"refused", guarded.URL, site.URL, "not a public one"},
		{"unreachable", open.URL, down, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := url.Values{"site": {tt.site + "/"}, "url": {"/private/x"}, "profile": {"rfc9309"}}
			dom := chromiumDOM(t, chrome, t.TempDir(), tt.server+"/?"+q.Encode())
			panel := regexp.MustCompile(`<div class="error-panel"><h2>Cannot fetch ` + regexp.QuoteMeta(tt.site) + `/robots.txt</h2><p>[^<]*` + regexp.QuoteMeta(tt.cause))
			if !panel.MatchString(dom) {
				i := strings.Index(dom, `id="status"`)
				t.Errorf("no error panel for %s:\n%.1200s", tt.site, dom[max(i, 0):])
			}
			if !strings.Contains(dom, `<p id="status" class="status error">Cannot fetch `) {
				t.Errorf("the status does not say the fetch failed")
			}
			if i, j := strings.Index(dom, `<details class="derived">`), strings.Index(dom, `data-profile="rfc9309"`); i < 0 || j < i {
				t.Errorf("the derived decisions are not folded under the panel (details at %d, row at %d)", i, j)
			}
		})
	}
	t.Run("address", func(t *testing.T) {
		q := url.Values{"robots": {"User-agent: *\nDisallow: /private/\n"}, "url": {"private/x"}, "profile": {"rfc9390", "google"}}
		dom := chromiumDOM(t, chrome, t.TempDir(), open.URL+"/?"+q.Encode())
		if !strings.Contains(dom, "names the profile \u201crfc9390\u201d, which does not exist (did you mean rfc9309?)") {
			i := strings.Index(dom, `id="results"`)
			t.Errorf("the misspelt profile is not reported:\n%.800s", dom[max(i, 0):])
		}
		if c := card(t, dom, "private/x"); !verdictRow("google", "disallowed", 2).MatchString(c) {
			t.Errorf("private/x is not read as /private/x (disallowed by line 2), as check reads it:\n%s", c)
		}
	})
}

// TestTesterChromiumAuditFits: the audit table of every known crawler
// fits the page's column in a 1280 px window (it scrolled sideways); in a
// 480 px one it cannot, and the page marks it so, which shows the
// measure runs.
func TestTesterChromiumAuditFits(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	ts := testerServer(t)
	q := url.Values{"robots": {"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"}, "url": {"/news/today", "/ai-ok/page", "/archive/2024/"}, "audit": {"1"}}
	for _, tt := range []struct {
		width    string
		overflow bool
	}{{"1280", false}, {"480", true}} {
		dom := chromiumDOM(t, chrome, t.TempDir(), ts.URL+"/?"+q.Encode(), "--window-size="+tt.width+",900")
		i := strings.Index(dom, `<div class="audit">`)
		if i < 0 {
			t.Fatalf("no audit table at %s px", tt.width)
		}
		wrap := regexp.MustCompile(`<div class="table-wrap( overflows)?">`).FindStringSubmatch(dom[i:])
		if wrap == nil || (wrap[1] != "") != tt.overflow {
			t.Errorf("at %s px the audit table's wrap is %q, want overflowing %v", tt.width, wrap, tt.overflow)
		}
	}
}
