package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/prefs"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestPrefs: sitetxt prefs on a loopback site reports the Content-Usage
// header of a URL's response and combines it with the site's robots.txt
// (draft-ietf-aipref-vocab-08 section 5.1); a disallowed URL is not
// fetched and its answer says so; exit 1 then.
func TestPrefs(t *testing.T) {
	site := sitetest.New(t, map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\nContent-Usage: search=y\nContent-Signal: search=yes,ai-train=no,use=reference\n",
		"/article":    "text",
		"/private/x":  "secret",
	})
	site.SetHeader("/article", "Content-Usage", "train-ai=n")
	site.SetHeader("/private/x", "Content-Usage", "train-ai=y")
	out, errOut, code := runCLI(t, "", "prefs", "--no-cache", "--agent", "ExampleBot", "-o", "json", site.URL+"/article", site.URL+"/private/x")
	if code != ExitFindings {
		t.Errorf("prefs exit = %d, want %d (a URL is disallowed); stderr %q", code, ExitFindings, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("prefs -o json printed %d lines, want 2:\n%s", len(lines), out)
	}
	var got [2]prefs.Result
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &got[i]); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	a := got[0]
	if h := a.Headers; h == nil || h.ContentUsage == nil || h.ContentUsage.TrainAI != "disallow" {
		t.Errorf("prefs /article headers = %+v, want Content-Usage train-ai disallow", a.Headers)
	}
	if c := a.ContentUsage; c.TrainAI != "disallow" || c.Search != "allow" || strings.Join(c.Statements, ", ") != "robots.txt line 3, Content-Usage header" {
		t.Errorf("prefs /article content_usage = %+v, want train-ai disallow (header), search allow (robots.txt line 3)", c)
	}
	// The statements' names are "statements": "sources" is datasets' list
	// of {"kind", "url"}, and a key has one type in every command.
	if want := `"statements":["robots.txt line 3","Content-Usage header"]`; !strings.Contains(lines[0], want) || strings.Contains(lines[0], `"sources"`) {
		t.Errorf("prefs -o json line 1 lacks %s (or still says \"sources\"):\n%s", want, lines[0])
	}
	if s := a.ContentSignal; s.AITrain != "disallow" || s.Use != "reference" {
		t.Errorf("prefs /article content_signal = %+v, want ai-train disallow, use reference (kept apart)", s)
	}
	p := got[1]
	if p.Allowed || p.Fetched || p.NotFetched == "" || p.ContentUsage.TrainAI != "unknown" {
		t.Errorf("prefs /private/x = %+v, want disallowed, not fetched, no preference", p)
	}
	if p.Rule == nil || p.Rule.Line != 2 || p.Rule.Pattern != "/private/" || p.Group == nil || p.Fetch == nil || p.Fetch.URL != site.URL+"/robots.txt" {
		t.Errorf("prefs /private/x decision = rule %+v, group %+v, fetch %+v; want check's: line 2's Disallow /private/, its group and the fetch", p.Rule, p.Group, p.Fetch)
	}
	if n := site.Hits()["/private/x"]; n != 0 {
		t.Errorf("/private/x was asked for %d times, want 0", n)
	}
	text, _, _ := runCLI(t, "", "prefs", "--no-cache", "--agent", "ExampleBot", site.URL+"/article", site.URL+"/private/x")
	for _, want := range []string{
		"Content-Usage header: train-ai=n",
		"Content-Usage combined (draft-ietf-aipref-vocab-08 section 5.1): train-ai disallow, ai-use unknown, search allow (from robots.txt line 3, Content-Usage header)",
		"not fetched: the robots.txt answer disallows it",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("prefs text lacks %q:\n%s", want, text)
		}
	}
	if _, errOut, code := runCLI(t, "", "prefs", "/relative"); code != ExitError || !strings.Contains(errOut, "not an absolute") {
		t.Errorf("prefs /relative = exit %d, %q; want exit 2 saying the URL is not absolute", code, errOut)
	}
}
