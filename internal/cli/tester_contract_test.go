package cli

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/serve"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestTesterChromiumSaysWhatCLISays opens the tester in headless Chromium
// where it must say what the command line says (issue 35, item 6): a site
// that does not answer is an error panel naming the cause, the decisions
// derived from the failure folded under it; a site serve's guard refused
// (a private address) is a panel saying it was refused, with no decision
// (issue 50: no "unreachable" rows for a site never asked); either is
// said once (no status line repeating it, no "No problems found" for a
// file never read); a profile the address misspells is reported with the
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
		name, server, site, panel string
		derived                   bool
	}{
		{"refused", guarded.URL, site.URL, `<div class="refused-panel"><h2>Refused: ` + regexp.QuoteMeta(site.URL) + `/robots.txt was not fetched</h2><p>[^<]*not a public one`, false},
		{"unreachable", open.URL, down, `<div class="error-panel"><h2>Cannot fetch ` + regexp.QuoteMeta(down) + `/robots.txt</h2><p>[^<]*did not answer`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := url.Values{"site": {tt.site + "/"}, "url": {"/private/x"}, "profile": {"rfc9309"}}
			dom := chromiumDOM(t, chrome, t.TempDir(), tt.server+"/?"+q.Encode())
			if !regexp.MustCompile(tt.panel).MatchString(dom) {
				i := strings.Index(dom, `id="status"`)
				t.Errorf("no panel matching %s:\n%.1200s", tt.panel, dom[max(i, 0):])
			}
			for _, said := range []string{"Cannot fetch ", "Refused: ", "not a public one", "did not answer"} {
				if n := strings.Count(dom, said); n > 1 {
					t.Errorf("%q is said %d times, want once (in the panel)", said, n)
				}
			}
			for _, not := range []string{"No problems found", "Diagnostics (", `class="status error"`} {
				if strings.Contains(dom, not) {
					t.Errorf("the page shows %q beside a file that was never read", not)
				}
			}
			i, j := strings.Index(dom, `<details class="derived">`), strings.Index(dom, `data-profile="rfc9309"`)
			if tt.derived && (i < 0 || j < i) {
				t.Errorf("the derived decisions are not folded under the panel (details at %d, row at %d)", i, j)
			}
			if !tt.derived && (i >= 0 || j >= 0 || strings.Contains(dom, "everything is disallowed")) {
				t.Errorf("a refused site shows decisions (details at %d, row at %d): a site never asked is not unreachable", i, j)
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

// probeServer serves sitetxt serve's handler (fetching from loopback when
// allowPrivate) and, at their paths, probe pages: pages on the tester's
// own origin that open it in a window of their own (serve forbids
// framing), look at it as a user would, and write what they saw into
// their own DOM as JSON in <pre id="out"> (probed reads it).
func probeServer(t *testing.T, allowPrivate bool, probes map[string]string) *httptest.Server {
	t.Helper()
	h := serve.New(serve.Config{AllowPrivate: allowPrivate, Logger: slog.New(slog.DiscardHandler)}).Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if page, ok := probes[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, page)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// probed opens the probe page at probe in Chromium and decodes what it
// wrote into v (a struct with an Error field the probe sets when it saw
// nothing).
func probed(t *testing.T, chrome, probe string, v any) {
	t.Helper()
	dom := chromiumDOM(t, chrome, t.TempDir(), probe, "--disable-popup-blocking")
	i, j := strings.Index(dom, `<pre id="out">`), strings.Index(dom, "</pre>")
	var e struct{ Error string }
	if i < 0 || j < i {
		t.Fatalf("the probe wrote nothing:\n%.1500s", dom)
	}
	out := []byte(html.UnescapeString(dom[i+len(`<pre id="out">`) : j]))
	if err := json.Unmarshal(out, &e); err != nil || e.Error != "" {
		t.Fatalf("the probe saw nothing (%s %v):\n%.1500s", e.Error, err, dom)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatal(err)
	}
}

// exportProbe is a page on the tester's own origin that opens the tester
// at the address in its query (a window of its own: serve forbids
// framing), presses Export once the datasets are listed, keeps the
// document the page would download (its anchor's click is caught, the
// blob read back), and writes what it saw into its own DOM as JSON.
const exportProbe = `<!doctype html><body><pre id="out"></pre><script>
const out = document.getElementById("out");
const w = window.open(new URLSearchParams(location.search).get("tester"), "tester");
const finish = (v) => { out.textContent = JSON.stringify(v); };
let polls = 0, pressed = false, caught = null;
const poll = setInterval(async () => {
  if (++polls > 400) { clearInterval(poll); finish({error: "the tester did not list the datasets or export"}); return; }
  const d = w.document;
  if (!pressed) {
    if (!d || !d.querySelector("table.datasets")) return;
    w.HTMLAnchorElement.prototype.click = function () { caught = {download: this.download, href: this.href}; };
    d.getElementById("export").click();
    pressed = true;
    return;
  }
  const box = d.querySelector(".export-diags");
  if (!box || !caught) return;
  clearInterval(poll);
  const doc = await (await fetch(caught.href)).text();
  finish({heading: box.querySelector("h2").textContent, items: [...box.querySelectorAll("li")].map((li) => li.textContent),
    empty: box.querySelector("p") ? box.querySelector("p").textContent : "", status: d.getElementById("status").textContent,
    download: caught.download, doc});
}, 50);
</script>`

// TestTesterChromiumExport presses the data.txt tab's Export in headless
// Chromium and checks that it does what docs/tester.md promises: the
// catalog document downloaded is the one "sitetxt datasets -o dcat"
// writes for the same file, base and publisher, and the page lists, above
// the datasets, the diagnostics the command prints on standard error (it
// exits 1 for them), with their count; with the publisher given, the one
// about it is gone.
func TestTesterChromiumExport(t *testing.T) {
	chrome := findChromium(t, "the browser test of the tester's Export")
	const file, base = "../../testdata/datatxt/records.txt", "https://data.example.org/data.txt"
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ts := probeServer(t, false, map[string]string{"/export-probe": exportProbe})
	for _, publisher := range []string{"", "Example Statistics Office"} {
		t.Run("publisher="+publisher, func(t *testing.T) {
			args := []string{"datasets", "-o", "dcat", "--base", base}
			q := url.Values{"tab": {"datatxt"}, "datatxt": {string(text)}, "base": {base}}
			if publisher != "" {
				args = append(args, "--publisher", publisher)
				q.Set("publisher", publisher)
			}
			stdout, stderr, code := runCLI(t, "", append(args, file)...)
			var cliDiags []string
			for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if _, msg, ok := strings.Cut(l, ": error: "); ok {
					cliDiags = append(cliDiags, msg)
				}
			}
			if code != ExitFindings || len(cliDiags) == 0 {
				t.Fatalf("sitetxt %s = exit %d, stderr %q; want 1 and errors (the test's file lacks what DCAT-AP requires)", strings.Join(args, " "), code, stderr)
			}
			if named := !strings.Contains(stderr, "no publisher"); named != (publisher != "") {
				t.Errorf("sitetxt %s: stderr %q; want the error about the publisher only without --publisher", strings.Join(args, " "), stderr)
			}
			probe := ts.URL + "/export-probe?" + url.Values{"tester": {ts.URL + "/?" + q.Encode()}}.Encode()
			var got struct {
				Error, Heading, Empty, Status, Download, Doc string
				Items                                        []string
			}
			probed(t, chrome, probe, &got)
			noun := "errors"
			if len(cliDiags) == 1 {
				noun = "error"
			}
			if want := fmt.Sprintf("Export to dcat (%d %s)", len(cliDiags), noun); got.Heading != want {
				t.Errorf("the page's export heading = %q, want %q (the command's errors)", got.Heading, want)
			}
			if len(got.Items) != len(cliDiags) {
				t.Errorf("the page lists %d diagnostics %q, the command prints %d %q", len(got.Items), got.Items, len(cliDiags), cliDiags)
			}
			for k := range min(len(got.Items), len(cliDiags)) {
				if !strings.HasPrefix(got.Items[k], "error ") || !strings.HasSuffix(got.Items[k], " "+cliDiags[k]) || strings.Contains(got.Items[k], "line 0") {
					t.Errorf("the page's diagnostic %d = %q, want the command's %q (at its line, or \"the file\")", k+1, got.Items[k], cliDiags[k])
				}
			}
			if !strings.HasPrefix(got.Status, "Exported dcat, but ") || got.Download != "dcat.json" {
				t.Errorf("status %q, download %q; want the export said done with errors, as dcat.json", got.Status, got.Download)
			}
			var doc, want any
			if err := json.Unmarshal([]byte(got.Doc), &doc); err != nil {
				t.Fatalf("the downloaded document is not JSON: %v\n%.500s", err, got.Doc)
			}
			if err := json.Unmarshal([]byte(stdout), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(doc, want) {
				t.Errorf("the downloaded document differs from sitetxt datasets -o dcat's:\n got %.800s\nwant %.800s", got.Doc, stdout)
			}
		})
	}
}
