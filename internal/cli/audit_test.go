package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/internal/shareddata"
)

const auditFile = "testdata/robots/aipref.txt"

func TestAuditGolden(t *testing.T) {
	chdirRoot(t)
	for _, format := range []string{"text", "json", "csv", "html"} {
		t.Run(format, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", "audit", "-o", format, "--path", "/ai-ok/x", "--path", "/archive/old", auditFile)
			// The profiles disagree about some crawlers of this file: exit 1.
			if code != ExitFindings || errOut != "" {
				t.Fatalf("audit -o %s: exit %d, stderr %q; want exit %d", format, code, errOut, ExitFindings)
			}
			golden(t, "audit/aipref."+format, out)
		})
	}
}

// TestAuditTextFits holds the text of a small file to one screen or two:
// at most 80 lines of at most 120 columns (a group shows its count and
// the names that fit a line), and --all to every crawler's name.
func TestAuditTextFits(t *testing.T) {
	chdirRoot(t)
	out, _, _ := runCLI(t, "", "audit", auditFile)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) > 80 {
		t.Errorf("audit %s: %d lines, want at most 80", auditFile, len(lines))
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > auditWidth {
			t.Errorf("audit %s: line %d has %d columns, want at most %d: %q", auditFile, i+1, n, auditWidth, l)
		}
	}
	if !strings.Contains(out, "76 crawlers: ClaudeBot (Anthropic), ") || !strings.Contains(out, "--all names every crawler") {
		t.Errorf("audit %s: no group with its count and its first names, or no word of --all:\n%s", auditFile, out)
	}
	all, _, _ := runCLI(t, "", "audit", "--all", auditFile)
	for _, c := range audit.DefaultRegistry().Crawlers {
		if !strings.Contains(all, c.Token+" (") {
			t.Errorf("audit --all %s does not name %q", auditFile, c.Token)
		}
	}
	if n := strings.Count(all, "\n"); n <= len(lines) {
		t.Errorf("audit --all: %d lines, want more than the %d without it", n, len(lines))
	}
	for i, l := range strings.Split(strings.TrimSuffix(all, "\n"), "\n") {
		if n := len([]rune(l)); n > auditWidth {
			t.Errorf("audit --all %s: line %d has %d columns, want at most %d", auditFile, i+1, n, auditWidth)
		}
	}
}

func TestAuditJSON(t *testing.T) {
	chdirRoot(t)
	out, _, _ := runCLI(t, "", "audit", "-o", "json", auditFile, "testdata/robots/fict.org.txt")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("audit -o json with 2 sources printed %d lines, want 2 (JSON Lines)", len(lines))
	}
	var rep struct {
		Source   string `json:"file"`
		Crawlers []struct {
			Token    string `json:"token"`
			Category string `json:"category"`
			Allowed  bool   `json:"allowed"`
			Usage    *struct {
				Derived struct {
					TrainAI string `json:"train_ai"`
				} `json:"derived"`
			} `json:"usage"`
		} `json:"crawlers"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Source != auditFile {
		t.Errorf("source = %q, want %q", rep.Source, auditFile)
	}
	got := map[string]string{}
	for _, c := range rep.Crawlers {
		s := "disallowed"
		if c.Allowed {
			s = "allowed"
		}
		if c.Usage != nil {
			s += " train-ai " + c.Usage.Derived.TrainAI
		}
		got[c.Token] = c.Category + " " + s
	}
	for tok, want := range map[string]string{
		"GPTBot":          "ai-training disallowed",
		"Google-Extended": "ai-training allowed train-ai disallow",
		"Googlebot":       "search-engine allowed train-ai disallow",
		"CCBot":           "archive disallowed",
	} {
		if got[tok] != want {
			t.Errorf("crawler %s = %q, want %q", tok, got[tok], want)
		}
	}
}

func TestAuditErrors(t *testing.T) {
	chdirRoot(t)
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"audit", "-o", "yaml", auditFile}, ExitError, "unknown output format"},
		{[]string{"audit", "--summary", "-o", "html", auditFile}, ExitError, "unknown output format"},
		{[]string{"audit", "--path", "https://example.org/x", auditFile}, ExitError, `--path "https://example.org/x" is not a path`},
		{[]string{"audit", "--profile", "nope", auditFile}, ExitError, "unknown profile"},
		{[]string{"audit", "testdata/robots/no-such-file.txt"}, ExitError, "no-such-file.txt"},
		{[]string{"audit", "--summary", "testdata/robots/no-such-file.txt"}, ExitError, "no-such-file.txt"},
		{[]string{"audit", "-o", "JSON", "testdata/robots/fict.org.txt"}, ExitOK, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errOut, code := runCLI(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.err) {
				t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut, tt.code, tt.err)
			}
		})
	}
}

// TestAuditSummaryGolden audits the repository's robots.txt test files,
// named three ways: a directory, a list on standard input, and a WARC file
// holding captures of them.
func TestAuditSummaryGolden(t *testing.T) {
	chdirRoot(t)
	files, _ := filepath.Glob("testdata/robots/*.txt")
	var caps []audit.Capture
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		caps = append(caps, audit.Capture{URL: "https://" + filepath.Base(f) + "/robots.txt", Body: string(b)})
	}
	caps = append(caps, audit.Capture{URL: "https://gone.example/robots.txt", Status: 404})
	warc := filepath.Join(t.TempDir(), "robots.warc")
	var buf bytes.Buffer
	if err := audit.WriteWARC(&buf, caps); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(warc, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json", "csv"} {
		t.Run(format, func(t *testing.T) {
			dir, errOut, code := runCLI(t, "", "audit", "--summary", "-o", format, "testdata/robots")
			if code != ExitOK || errOut != "" {
				t.Fatalf("audit --summary testdata/robots: exit %d, stderr %q", code, errOut)
			}
			golden(t, "audit/summary."+format, dir)
			list, _, code := runCLI(t, strings.Join(files, "\n")+"\n", "audit", "--summary", "-o", format, "-")
			if code != ExitOK || list != dir {
				t.Errorf("audit --summary - (a list) differs from the directory (exit %d):\n%s", code, list)
			}
			w, _, code := runCLI(t, "", "audit", "--summary", "-o", format, warc)
			if code != ExitOK {
				t.Fatalf("audit --summary WARC: exit %d", code)
			}
			golden(t, "audit/summary-warc."+format, w)
		})
	}
}

// TestAuditHTMLChromium renders the report in headless Chromium and checks
// what the page shows: its script ran (the totals line), the matrix has a
// row per crawler with the verdict words, and opening a cell (as a click
// does) shows its deciding line and usage preference.
func TestAuditHTMLChromium(t *testing.T) {
	chrome := findChromium(t, "the browser check of the HTML report")
	chdirRoot(t)
	out, _, _ := runCLI(t, "", "audit", "-o", "html", "--path", "/archive/old", auditFile)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := func(fragment string) string {
		t.Helper()
		return chromiumDOM(t, chrome, dir, "file://"+page+fragment)
	}
	got := dom("")
	for _, want := range []string{
		`1 source, 388 answers, 7 disallowed.`, // written by the page's script
		`AI training crawlers: 2 of 81 blocked from /`,
		`data-token="GPTBot"`,
		`title="testdata/robots/aipref.txt:8: Disallow: /"`,
		`>disallowed</td>`,
		`License (RSL): <a href="https://news.example/license.xml">`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
	got = dom("#show=Google-Extended@/")
	want := `<div class="detail" aria-live="polite">Google-Extended /: allowed — no rule matched
usage: Content-Usage train-ai=n (line 11)`
	if !strings.Contains(got, want) {
		i := strings.Index(got, `class="detail"`)
		t.Errorf("after opening a cell the detail panel shows\n%.300s\nwant it to start %q", got[max(i, 0):], want)
	}
	if !strings.Contains(got, `class="cell allowed selected"`) {
		t.Errorf("the opened cell is not marked selected")
	}
}

func TestCheckUsage(t *testing.T) {
	chdirRoot(t)
	tests := []struct {
		agent, url, text, json string
	}{
		{"*", "/ai-ok/x", "  usage: Content-Usage train-ai=y (line 20); Content-Signal search allow, ai-input disallow, ai-train disallow (line 21); derived by sitetxt (its own mapping): train-ai disallow (Content-Signal ai-train disallow is stricter than Content-Usage)\n",
			`"usage":{"content_usage":{"train_ai":"allow","ai_use":"unknown","search":"unknown","lines":[{"value":"/ai-ok/ train-ai=y","file":"testdata/robots/aipref.txt","line":20,"column":1}]},"content_signal":{"search":"allow","ai_input":"disallow","ai_train":"disallow","use":"unknown","lines":[{"value":"search=yes, ai-input=no, ai-train=no","file":"testdata/robots/aipref.txt","line":21,"column":1}]},"derived":{"by":"sitetxt","train_ai":"disallow","ai_use":"disallow","search":"allow","train_ai_from":"content-signal","ai_use_from":"content-signal","search_from":"content-signal"}}`},
		{"Google-Extended", "/x", "  usage: Content-Usage train-ai=n (line 11); derived by sitetxt (its own mapping): train-ai use disallow\n",
			`"usage":{"content_usage":{"train_ai":"disallow","ai_use":"unknown","search":"unknown","lines":[{"value":"/ train-ai=n","file":"testdata/robots/aipref.txt","line":11,"column":1}]},"content_signal":{"search":"unknown","ai_input":"unknown","ai_train":"unknown","use":"unknown","lines":[]},"derived":{"by":"sitetxt","train_ai":"disallow","ai_use":"unknown","search":"unknown","train_ai_from":"content-usage","ai_use_from":"none","search_from":"none","purpose":"train-ai","answer":"disallow"}}`},
		{"*", "/never/x", "", ""}, // disallowed: no preference
	}
	for _, tt := range tests {
		t.Run(tt.agent+tt.url, func(t *testing.T) {
			out, _, _ := runCLI(t, "", "check", "--agent", tt.agent, auditFile, tt.url)
			lines := strings.SplitAfterN(out, "\n", 3) // the agent header, the decision, its usage
			if len(lines) < 3 || lines[2] != tt.text {
				t.Errorf("check --agent %s %s printed %q, want the usage line %q", tt.agent, tt.url, out, tt.text)
			}
			out, _, _ = runCLI(t, "", "check", "-o", "json", "--agent", tt.agent, auditFile, tt.url)
			if tt.json == "" && strings.Contains(out, `"usage"`) || !strings.Contains(out, tt.json) {
				t.Errorf("check -o json --agent %s %s = %s, want %s", tt.agent, tt.url, out, tt.json)
			}
		})
	}
}

// TestAuditURLSource: a fetched robots.txt whose status decides everything
// gives every crawler that answer, with the status as the reason.
func TestAuditURLSource(t *testing.T) {
	var code int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(code)
		io.WriteString(w, "User-agent: GPTBot\nDisallow: /\n")
	}))
	defer srv.Close()
	tests := []struct {
		code    int
		blocked string // the AI training verdict
	}{
		{200, "AI training crawlers: 1 of 81 blocked from /"},
		{404, "AI training crawlers: 0 of 81 blocked from /"},
		{503, "AI training crawlers: 81 of 81 blocked from /"},
	}
	for _, tt := range tests {
		code = tt.code
		_, out, errOut := runFetchCLI(t, "audit", "--no-cache", "-o", "json", srv.URL+"/")
		if !strings.Contains(out, tt.blocked) {
			t.Errorf("audit (HTTP %d): %s (stderr %q), want %q", tt.code, out, errOut, tt.blocked)
		}
	}
}

// TestAuditPathUsage: the text of audit --path P shows P's usage lines
// (issue: it showed those of "/"), and where Content-Usage and
// Content-Signal disagree it says which wins and why.
func TestAuditPathUsage(t *testing.T) {
	chdirRoot(t)
	out, _, _ := runCLI(t, "", "audit", "--path", "/ai-ok/page", auditFile)
	out = unwrapAudit(out)
	for _, want := range []string{
		"    /: usage: Content-Usage train-ai=n, search=y (line 19); Content-Signal search allow, ai-input disallow, ai-train disallow (line 21)",
		"    /ai-ok/page: usage: Content-Usage train-ai=y (line 20); Content-Signal search allow, ai-input disallow, ai-train disallow (line 21); derived by sitetxt: train-ai disallow (Content-Signal ai-train disallow is stricter than Content-Usage)",
		"profiles disagree: /: draft, norobots read Content-Usage line 11 (train-ai=n) where rfc9309 reads Content-Usage line 19",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("audit --path /ai-ok/page lacks %q", want)
		}
	}
}

// unwrapAudit joins the lines audit's text wraps (continued with six
// spaces) back into one.
func unwrapAudit(s string) string { return strings.ReplaceAll(s, "\n      ", " ") }

// TestAuditGroupsCrawlers: audit's text groups the crawlers that read the
// same lines, so the 21-line aipref.txt reads at a glance (before issue 35
// item 7 each crawler had a row and its usage lines under it: 123 lines
// for the 50 crawlers known then): fewer lines than known crawlers, every
// crawler named once (with --all), a usage line said at most once per
// group, and the search engines that read line 17 one group.
func TestAuditGroupsCrawlers(t *testing.T) {
	chdirRoot(t)
	out, _, code := runCLI(t, "", "audit", "--all", "testdata/robots/aipref.txt")
	if code != ExitFindings {
		t.Fatalf("audit aipref.txt: exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	out = unwrapAudit(out)
	crawlers := audit.DefaultRegistry().Crawlers
	if len(lines) >= len(crawlers) {
		t.Errorf("audit aipref.txt: %d lines for %d crawlers, want fewer:\n%s", len(lines), len(crawlers), out)
	}
	for _, c := range crawlers {
		if n := strings.Count(out, " "+c.Token+" ("); n != 1 {
			t.Errorf("audit aipref.txt names %s %d times, want once", c.Token, n)
		}
	}
	rows := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "  / ") {
			rows++
		}
	}
	if n := strings.Count(out, "/: usage: Content-Usage train-ai=n, search=y (line 19)"); n > rows {
		t.Errorf("audit aipref.txt says the usage of line 19 %d times for %d groups, want at most once per group", n, rows)
	}
	i := strings.Index(out, "  / allowed  testdata/robots/aipref.txt:17: Allow: /\n    11 crawlers: Googlebot (Google), ")
	if i < 0 {
		t.Fatalf("audit aipref.txt: no group of the search engines that read line 17:\n%s", out)
	}
	group := out[i+4:]
	if j := strings.Index(group, "\n  / "); j >= 0 {
		group = group[:j]
	}
	if j := strings.Index(group, "\n\n"); j >= 0 {
		group = group[:j]
	}
	for _, name := range []string{"Bingbot (Microsoft)", "DuckDuckBot (DuckDuckGo)", "SeznamBot (Seznam.cz)"} {
		if !strings.Contains(group, name) {
			t.Errorf("%s is not in the group of Googlebot:\n%s", name, group)
		}
	}
}

// TestAuditMerge splits real robots.txt files into parts, counts each
// part with audit --summary -o json as separate runs would, and holds
// audit --merge of the parts to exactly what one run over all the files
// prints (a sample of the corpus; the slow tier, all of it).
func TestAuditMerge(t *testing.T) {
	names := shareddata.SampleEveryN(t, shareddata.Files(t, "corpus", "robots"), 256)
	all := strings.Join(names, "\n") + "\n"
	tmp := t.TempDir()
	// Three parts of uneven size, as a batch engine's tasks would be.
	cuts := []int{0, len(names) / 5, len(names) / 2, len(names)}
	var parts []string
	for i := 0; i+1 < len(cuts); i++ {
		out, errOut, code := runCLI(t, strings.Join(names[cuts[i]:cuts[i+1]], "\n")+"\n", "audit", "--summary", "-o", "json", "-")
		if code != ExitOK {
			t.Fatalf("audit --summary of part %d: exit %d, %s", i, code, errOut)
		}
		p := filepath.Join(tmp, fmt.Sprintf("part%d.json", i))
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	for _, format := range []string{"json", "text"} { // csv is written from the same counts as text
		t.Run(format, func(t *testing.T) {
			one, _, code := runCLI(t, all, "audit", "--summary", "-o", format, "-")
			if code != ExitOK {
				t.Fatalf("audit --summary of all: exit %d", code)
			}
			merged, errOut, code := runCLI(t, "", append([]string{"audit", "--merge", "-o", format}, parts...)...)
			if code != ExitOK || merged != one {
				t.Errorf("audit --merge of %d parts: exit %d (%s), output %s; want exit 0 and what one run over the %d files prints:\n%s",
					len(parts), code, errOut, merged, len(names), one)
			}
		})
	}
	// A part cut short, another registry, a crawler twice: exit 2, at the line.
	whole, _ := os.ReadFile(parts[0])
	lines := strings.SplitAfter(string(whole), "\n")
	for _, tt := range []struct{ name, in, want string }{
		{"cut", strings.Join(lines[:3], ""), "no counts for crawler"},
		{"no totals", strings.Join(lines[:len(lines)-2], ""), "no line of totals"},
		{"crawler twice", lines[0] + string(whole), ":2: crawler"},
		{"not JSON", "audited 3 files\n", ":1: not a line of audit --summary -o json"},
		{"other registry", strings.Replace(string(whole), `"crawler_count":`, `"crawler_count":1`, 1), "counted with another registry"},
		{"unknown crawler", strings.Replace(string(whole), `{"crawler":"Googlebot"`, `{"crawler":"NoSuchBot"`, 1), `crawler "NoSuchBot" is not in this sitetxt's registry`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, tt.in, "audit", "--merge", "-")
			if code != ExitError || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "<stdin>:") {
				t.Errorf("audit --merge of a bad part: exit %d, stderr %q; want exit 2 and %q at <stdin>", code, errOut, tt.want)
			}
		})
	}
}
