package cli

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sitetxt/sitetxt/internal/serve"
)

// testerServer serves sitetxt serve's real handler, fetching from
// loopback (AllowPrivate) so that a test's own sites can be named.
func testerServer(t *testing.T) *httptest.Server {
	t.Helper()
	s := serve.New(serve.Config{AllowPrivate: true, Logger: slog.New(slog.DiscardHandler)})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}

// verdictRow matches the row of the profiles (space-separated) that
// share one outcome in the card of one URL on the tester page: its
// verdict and the link to its deciding line ("all: " before the names
// when the row is the card's only one).
func verdictRow(profiles, verdict string, line int) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`<tr data-profile="%s"><td class="profile">(<span class="all">all: </span>)?%s</td><td><span class="verdict %s">%s</span></td><td class="rule"><a class="line-link" href="#L%d">line %d</a>`,
		profiles, strings.ReplaceAll(profiles, " ", ", "), verdict, verdict, line, line))
}

// card returns the part of dom that is the result card of u.
func card(t *testing.T, dom, u string) string {
	t.Helper()
	start := strings.Index(dom, `data-url="`+u+`"`)
	if start < 0 {
		i := strings.Index(dom, `id="status"`)
		t.Fatalf("the page shows no result for %s; status: %.300s", u, dom[max(i, 0):])
	}
	end := strings.Index(dom[start:], "</section>")
	return dom[start : start+end]
}

// TestTesterChromium opens the tester with the README's example in its
// address and checks, in the DOM Chromium renders, the verdict and
// deciding line for each URL (one row where the profiles agree, a row
// for each outcome where they differ, as Search Console's tester showed
// one verdict), the reason the profiles disagree, and the deciding lines
// marked in the editor the file was pasted into (its gutter and the
// layer under its text).
func TestTesterChromium(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	ts := testerServer(t)
	text, err := os.ReadFile("../../testdata/robots/fict.org.txt")
	if err != nil {
		t.Fatal(err)
	}
	q := url.Values{"robots": {string(text)}, "agent": {"ExampleBot"}, "url": {"/org/plans.html", "/org/about.html"}}
	dom := chromiumDOM(t, chrome, t.TempDir(), ts.URL+"/?"+q.Encode())
	tests := []struct {
		url, profiles, verdict string
		line, rows             int
	}{
		{"/org/plans.html", "rfc9309 google draft norobots", "disallowed", 12, 1},
		{"/org/about.html", "rfc9309 google draft", "allowed", 13, 2},
		{"/org/about.html", "norobots", "disallowed", 16, 2},
	}
	for _, tt := range tests {
		t.Run(tt.url+"/"+tt.profiles, func(t *testing.T) {
			c := card(t, dom, tt.url)
			if !verdictRow(tt.profiles, tt.verdict, tt.line).MatchString(c) {
				t.Errorf("the card of %s does not show %s %s by line %d:\n%s", tt.url, tt.profiles, tt.verdict, tt.line, c)
			}
			if n := strings.Count(c, "<tr data-profile="); n != tt.rows {
				t.Errorf("the card of %s has %d verdict rows, want %d", tt.url, n, tt.rows)
			}
		})
	}
	if c := card(t, dom, "/org/about.html"); !strings.Contains(c, "The profiles disagree:") || !strings.Contains(c, "norobots ignores them (line 13)") {
		t.Errorf("the card of /org/about.html does not say why the profiles disagree:\n%s", c)
	}
	for _, tt := range []struct {
		line int
		text string
	}{{12, "Disallow: /org/plans.html"}, {13, "Allow: /org/"}, {16, "Disallow: /"}} {
		for _, want := range []string{fmt.Sprintf(`<div class="decides">%d</div>`, tt.line), `<div class="decides">` + tt.text + `</div>`} {
			if !strings.Contains(dom, want) {
				t.Errorf("the editor does not mark line %d as deciding (%s)", tt.line, want)
			}
		}
	}
	if strings.Contains(dom, `<li class="decides"`) {
		t.Errorf("pasted text is shown a second time, in the view of a fetched file")
	}
}

// TestTesterChromiumSite opens the tester with site= naming a loopback
// server: the page fetches its robots.txt through serve, shows the
// verdict and the deciding line, and the fetched file.
func TestTesterChromiumSite(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "User-agent: *\nAllow: /open/\n\nUser-agent: LoopBot\nCrawl-delay: 4\nDisallow: /private/\n")
	}))
	t.Cleanup(site.Close)
	ts := testerServer(t)
	q := url.Values{"site": {site.URL + "/"}, "agent": {"LoopBot"}, "url": {"/private/x"}, "profile": {"rfc9309", "google"}}
	dom := chromiumDOM(t, chrome, t.TempDir(), ts.URL+"/?"+q.Encode())
	c := card(t, dom, "/private/x")
	if re := verdictRow("rfc9309 google", "disallowed", 6); !re.MatchString(c) {
		t.Errorf("the card of /private/x does not match %s:\n%s", re, c)
	}
	if strings.Contains(c, "draft") {
		t.Errorf("draft shown though the address names rfc9309 and google only")
	}
	if !strings.Contains(c, "<dt>Crawl-delay</dt><dd>4 s</dd>") {
		t.Errorf("the group's Crawl-delay is not shown:\n%s", c)
	}
	if !strings.Contains(dom, `<li class="decides" id="L6" tabindex="-1"><span class="n">6</span><span class="t">Disallow: /private/</span>`) ||
		!strings.Contains(dom, "Fetched "+site.URL+"/robots.txt: HTTP 200") {
		t.Errorf("the fetched file, its deciding line marked, or its fetch is not shown")
	}
}

// TestTesterChromiumHostile gives the tester a robots.txt, an agent and a
// URL holding markup: the page shows them as text and creates no element
// from them.
func TestTesterChromiumHostile(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	ts := testerServer(t)
	robots := "User-agent: <b>bot</b>\nDisallow: /<img src=x onerror=alert(1)>\n# <script>alert(2)</script>\nSitemap: https://example.org/<svg onload=alert(3)>\nUser-agent: *\nDisallow: /x\n"
	q := url.Values{"robots": {robots}, "agent": {"<b>bot</b>"}, "url": {"/<img src=y onerror=alert(4)>", "/<script>alert(5)</script>"}}
	dom := chromiumDOM(t, chrome, t.TempDir(), ts.URL+"/?"+q.Encode())
	if !regexp.MustCompile(`id="gutter"[^>]*>(<div[^>]*>\d+</div>){6}`).MatchString(dom) {
		t.Fatalf("the page did not number the file's lines; nothing to check:\n%.2000s", dom)
	}
	for _, bad := range []string{"<img", "<script>alert", "<svg", "<b>bot"} {
		if strings.Contains(strings.ToLower(dom), bad) {
			i := strings.Index(strings.ToLower(dom), bad)
			t.Errorf("the page created markup from the site's text (%q): %.200s", bad, dom[max(i-100, 0):])
		}
	}
	if !strings.Contains(dom, "Disallow: /&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("the hostile line is not shown as text")
	}
}

// TestTesterChromiumFragment gives the tester a large file in the
// address's fragment (where the page keeps files too long for a query):
// the page reads it from there and decides with it.
func TestTesterChromiumFragment(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	ts := testerServer(t)
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "Disallow: /dir%d/\n", i)
	}
	q := url.Values{"url": {"/dir1999/x"}, "profile": {"rfc9309"}}
	frag := url.Values{"robots": {b.String()}}
	dom := chromiumDOM(t, chrome, t.TempDir(), ts.URL+"/?"+q.Encode()+"#"+frag.Encode())
	if c := card(t, dom, "/dir1999/x"); !verdictRow("rfc9309", "disallowed", 2001).MatchString(c) {
		t.Errorf("the card of /dir1999/x does not show disallowed by line 2001:\n%s", c)
	}
}

// TestTesterChromiumAudit opens the tester with audit=1: the page shows
// the audit table of every known crawler, with its verdict and deciding
// line for "/" and each URL.
func TestTesterChromiumAudit(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	ts := testerServer(t)
	q := url.Values{"robots": {"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"}, "url": {"/page"}, "audit": {"1"}}
	dom := chromiumDOM(t, chrome, t.TempDir(), ts.URL+"/?"+q.Encode())
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`<h2>All known crawlers \(\d+, under rfc9309\)</h2>`),
		regexp.MustCompile(`<tr data-token="GPTBot"><td class="mono">GPTBot</td><td>ai-training</td><td><span class="verdict disallowed">disallowed</span> <a class="line-link" href="#L2">line 2</a></td><td><span class="verdict disallowed">disallowed</span> <a class="line-link" href="#L2">line 2</a></td>`),
		regexp.MustCompile(`<tr data-token="Googlebot"><td class="mono">Googlebot</td><td>search-engine</td><td><span class="verdict allowed">allowed</span> <a class="line-link" href="#L5">line 5</a></td>`),
	} {
		if !want.MatchString(dom) {
			i := strings.Index(dom, `class="audit"`)
			t.Errorf("the audit table does not match %s:\n%.1500s", want, dom[max(i, 0):])
		}
	}
}

// TestTesterChromiumTabs opens the data.txt and Mobile-agent-server tabs
// from their addresses: the page lists the datasets of testdata's
// data.txt with their deciding lines, and the server each URL is
// dispatched to with the line that decides.
func TestTesterChromiumTabs(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	ts := testerServer(t)
	read := func(name string) string {
		b, err := os.ReadFile("../../testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name  string
		q     url.Values
		wants []string
	}{
		{"datatxt", url.Values{"tab": {"datatxt"}, "datatxt": {read("datatxt/records.txt")}, "agent": {"archiver"}},
			[]string{`<table class="datasets">`, `<td>population-2020</td>`, `href="#L10"`, `<span class="verdict disallowed">disallowed</span>`}},
		{"agents", url.Values{"tab": {"agents"}, "robots": {read("mobileagent/fict.org.txt")}, "url": {"/home/user1/x", "/home/z"}},
			[]string{`<table class="answers">`, `atp://user1.fict.org:854`, `href="#L3"`, `<code class="server-none">none</code>: line 2 names no server`, `href="#L2"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dom := chromiumDOM(t, chrome, t.TempDir(), ts.URL+"/?"+tt.q.Encode())
			for _, want := range tt.wants {
				if !strings.Contains(dom, want) {
					i := strings.Index(dom, `id="results"`)
					t.Errorf("the %s tab does not show %s:\n%.1500s", tt.name, want, dom[max(i, 0):])
				}
			}
		})
	}
}

// TestTesterChromiumCrossSite opens, in Chromium, a page on another
// origin that posts to serve every way a page may without asking (no-cors
// fetches with a text/plain body, a Blob with no type, a form), naming a
// site for serve to fetch; then opens serve under a name that resolves to
// it (DNS rebinding, mapped by --host-resolver-rules). Serve receives the
// requests and refuses each: the site is never fetched.
func TestTesterChromiumCrossSite(t *testing.T) {
	chrome := findChromium(t, "the cross-site browser test of serve")
	var fetched, posts atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
	}))
	t.Cleanup(site.Close)
	h := serve.New(serve.Config{AllowPrivate: true, Logger: slog.New(slog.DiscardHandler)}).Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	check := fmt.Sprintf(`{"agent":"X","urls":["%s/a"]}`, site.URL)
	test := fmt.Sprintf(`{"site":"%s/"}`, site.URL)
	page := `<!doctype html><body><iframe name="sink"></iframe>
<form id="f" method="POST" enctype="text/plain" target="sink" action="` + ts.URL + `/v1/test"><input name='{"site":"` + site.URL + `/","x":"' value='"}'></form>
<script>
const serve = ` + strconv.Quote(ts.URL) + `;
fetch(serve + "/v1/check", {method: "POST", mode: "no-cors", body: ` + strconv.Quote(check) + `}).catch(() => {});
fetch(serve + "/v1/check", {method: "POST", mode: "no-cors", body: new Blob([` + strconv.Quote(check) + `])}).catch(() => {});
fetch(serve + "/v1/test", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: ` + strconv.Quote(test) + `}).catch(() => {});
document.getElementById("f").submit();
</script>`
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	}))
	t.Cleanup(attacker.Close)
	chromiumDOM(t, chrome, t.TempDir(), attacker.URL+"/")
	if n := posts.Load(); n < 4 {
		t.Fatalf("serve received %d of the page's 4 posts: the test did not run as meant", n)
	}
	_, port, _ := net.SplitHostPort(ts.Listener.Addr().String())
	q := url.Values{"site": {site.URL + "/"}, "url": {"/a"}}
	dom := chromiumDOM(t, chrome, t.TempDir(), "http://rebind.test:"+port+"/?"+q.Encode(), "--host-resolver-rules=MAP rebind.test 127.0.0.1")
	if !strings.Contains(dom, "is not a name this service answers to") {
		t.Errorf("serve under a rebound name answered %.300s; want the Host refused", dom)
	}
	if n := fetched.Load(); n != 0 {
		t.Errorf("cross-site pages made serve fetch the site %d times, want 0", n)
	}
}

// TestTesterChromiumUsage: the tester page shows a URL's usage
// preference under vocab-08's three categories, Content Signals' use=,
// and, for a crawler whose purpose is search, that search governs its
// use whatever train-ai and ai-use say.
func TestTesterChromiumUsage(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	ts := testerServer(t)
	robots := "User-agent: *\nAllow: /\nContent-Usage: train-ai=n, ai-use=n, search=y\nContent-Signal: search=yes,ai-train=no,use=reference\nLLM-Policy: https://example.org/llms.txt\n"
	q := url.Values{"robots": {robots}, "agent": {"Googlebot"}, "url": {"/page"}}
	dom := chromiumDOM(t, chrome, t.TempDir(), ts.URL+"/?"+q.Encode())
	c := card(t, dom, "/page")
	for _, want := range []string{
		"train-ai disallow, ai-use disallow, search allow",
		"ai-train disallow, use reference",
		"this crawler's use (search): allow (search governs it whatever train-ai and ai-use say: vocab-08 4.3)",
		"LLM-Policy", "https://example.org/llms.txt",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("the card of /page lacks %q:\n%s", want, c)
		}
	}
}
