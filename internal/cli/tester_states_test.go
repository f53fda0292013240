package cli

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// revealProbe is a probe page (probeServer) that opens the tester at the
// address in its query and, once it has answered, reports where the
// editor, its gutter and marks, and the view of a fetched file are
// scrolled, where line "line" of the fetched file stands, and the facts
// each result card lists.
const revealProbe = `<!doctype html><body><pre id="out"></pre><script>
const q = new URLSearchParams(location.search);
const w = window.open(q.get("tester"), "tester");
const out = document.getElementById("out");
let polls = 0;
const poll = setInterval(() => {
  if (++polls > 400) { clearInterval(poll); out.textContent = JSON.stringify({error: "the tester showed no answer"}); return; }
  const d = w.document, st = d && d.getElementById("status");
  if (!st || !/URL/.test(st.textContent)) return;
  clearInterval(poll);
  const ta = d.getElementById("text"), ol = d.getElementById("file"), li = d.getElementById("L" + q.get("line"));
  const facts = {};
  for (const c of d.querySelectorAll(".card")) facts[c.dataset.url] = [...c.querySelectorAll("dl.facts dt")].map((dt) => dt.textContent);
  out.textContent = JSON.stringify({
    lineHeight: parseFloat(w.getComputedStyle(ta).lineHeight), textTop: ta.scrollTop, textHeight: ta.clientHeight,
    marksTop: d.getElementById("marks").scrollTop, gutterTop: d.getElementById("gutter").scrollTop,
    fileTop: ol.scrollTop, fileHeight: ol.clientHeight, lineTop: li ? li.offsetTop : -1, lineBox: li ? li.offsetHeight : 0, facts});
}, 50);
</script>`

// revealed is what revealProbe reports.
type revealed struct {
	Error                                 string
	LineHeight, TextTop, TextHeight       float64
	MarksTop, GutterTop                   float64
	FileTop, FileHeight, LineTop, LineBox float64
	Facts                                 map[string][]string
}

// TestTesterChromiumReveal: the deciding line is scrolled into view in
// the file the user edits (the textarea, its gutter and its marks
// following it), and in the view of a fetched file beside the results;
// a card lists usage rows only where a usage line applies to its URL,
// and no facts at all where neither the group nor a line says anything.
func TestTesterChromiumReveal(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	var b strings.Builder
	b.WriteString("User-agent: *\nContent-Usage: /news/ train-ai=n\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "Disallow: /dir%d/\n", i) // line 3+i
	}
	site := sitetest.New(t, map[string]string{"/robots.txt": b.String()})
	ts := probeServer(t, true, map[string]string{"/reveal-probe": revealProbe})
	probe := func(t *testing.T, tester url.Values, frag url.Values, line int) revealed {
		addr := ts.URL + "/?" + tester.Encode()
		if frag != nil {
			addr += "#" + frag.Encode()
		}
		var got revealed
		probed(t, chrome, ts.URL+"/reveal-probe?"+url.Values{"tester": {addr}, "line": {fmt.Sprint(line)}}.Encode(), &got)
		return got
	}
	t.Run("editor", func(t *testing.T) {
		got := probe(t, url.Values{"url": {"/dir1990/x", "/news/a", "/other"}, "profile": {"rfc9309"}}, url.Values{"robots": {b.String()}}, 0)
		top := (1993 - 1) * got.LineHeight // line 1993 decides /dir1990/x
		if got.LineHeight == 0 || top < got.TextTop || top+got.LineHeight > got.TextTop+got.TextHeight+1 {
			t.Errorf("line 1993 (from %.0f px) is not in the editor's view (%.0f to %.0f px)", top, got.TextTop, got.TextTop+got.TextHeight)
		}
		if got.MarksTop != got.TextTop || got.GutterTop != got.TextTop {
			t.Errorf("the marks (%.0f) and the gutter (%.0f) do not follow the text (%.0f)", got.MarksTop, got.GutterTop, got.TextTop)
		}
		if f := strings.Join(got.Facts["/news/a"], ","); f != "Content-Usage" {
			t.Errorf("the card of /news/a lists %q, want Content-Usage only (no Content-Signal line applies)", f)
		}
		if f := got.Facts["/other"]; len(f) != 0 {
			t.Errorf("the card of /other lists %q, want nothing (no pace, no usage line applies)", f)
		}
	})
	t.Run("fetched", func(t *testing.T) {
		got := probe(t, url.Values{"site": {site.URL + "/"}, "url": {"/dir1990/x"}, "profile": {"rfc9309"}}, nil, 1993)
		if got.LineTop < 0 || got.LineTop < got.FileTop || got.LineTop+got.LineBox > got.FileTop+got.FileHeight {
			t.Errorf("line 1993 (%.0f px) is not in the fetched file's view (%.0f to %.0f px)", got.LineTop, got.FileTop, got.FileTop+got.FileHeight)
		}
	})
}

// TestTesterChromiumAgentsNone: the Mobile-agent-server tab tells a URL
// whose line names the server "none" (no agent is sent, by that line)
// from one no line matches (the file says nothing about it).
func TestTesterChromiumAgentsNone(t *testing.T) {
	chrome := findChromium(t, "the browser tests of the tester page")
	ts := testerServer(t)
	q := url.Values{"tab": {"agents"}, "robots": {"Mobile-agent-server: /home/ none\nMobile-agent-server: /home/user1/ atp://user1.example:854\n"},
		"url": {"/home/user1/x", "/home/z", "/about"}}
	dom := chromiumDOM(t, chrome, t.TempDir(), ts.URL+"/?"+q.Encode())
	for u, want := range map[string]string{
		"/home/user1/x": `<td class="mono">atp://user1.example:854</td><td><a class="line-link" href="#L2">line 2</a></td>`,
		"/home/z":       `<td><code class="server-none">none</code>: line 1 names no server, so no mobile agent is sent</td><td><a class="line-link" href="#L1">line 1</a></td>`,
		"/about":        `<td class="muted">no Mobile-agent-server line matches this URL</td><td><span class="muted">—</span></td>`,
	} {
		i := strings.Index(dom, `<tr data-url="`+u+`">`)
		if i < 0 {
			t.Fatalf("no row for %s:\n%.1500s", u, dom)
		}
		if row := dom[i : i+strings.Index(dom[i:], "</tr>")]; !strings.Contains(row, want) {
			t.Errorf("the row of %s = %s\nwant %s", u, row, want)
		}
	}
}
