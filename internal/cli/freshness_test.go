package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestCacheSaysSo runs check against a loopback site whose robots.txt
// changes between runs, as a new user would (issue 35, item 3): the
// second run answers from the cache and says so (text: age and expiry;
// JSON: from_cache, fetched_at, expires, at most 24 h after it was
// fetched, RFC 9309 2.4); --refresh fetches anew and updates the cache,
// so the run after it reads the new file from the cache.
func TestCacheSaysSo(t *testing.T) {
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /old\n"})
	cache := t.TempDir()
	check := func(extra ...string) (string, string) {
		args := append([]string{"check", "--cache-dir", cache}, extra...)
		out, errOut, code := runCLI(t, "", append(args, site.URL+"/robots.txt", "/old", "/new")...)
		if code > ExitFindings {
			t.Fatalf("sitetxt %s: exit %d, %s", strings.Join(args, " "), code, errOut)
		}
		return out, errOut
	}
	_, errOut := check()
	if strings.Contains(errOut, "from the cache") {
		t.Errorf("first run: stderr %q, want no cache note (fetched from the site)", errOut)
	}
	site.Set("/robots.txt", "User-agent: *\nDisallow: /new\n")
	out, errOut := check()
	note := regexp.MustCompile(`sitetxt: note: ` + regexp.QuoteMeta(site.URL) + `/robots.txt: from the cache: a copy fetched \d+ s ago \(\S+Z\), expires in 23 h 59 min; --refresh fetches it anew`)
	if !strings.Contains(out, "disallowed /old") || !note.MatchString(errOut) {
		t.Errorf("second run = %q, stderr %q; want the cached file's answers and a note matching %s", out, errOut, note)
	}
	out, _, _ = runCLI(t, "", "check", "-o", "json", "--cache-dir", cache, site.URL+"/robots.txt", "/old")
	var d decisionJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.Fetch == nil || !d.Fetch.FromCache || d.Fetch.FetchedAt == nil || d.Fetch.Expires == nil ||
		d.Fetch.Expires.Sub(*d.Fetch.FetchedAt) != 24*time.Hour {
		t.Errorf("check -o json from the cache = %s (%v); want fetch.from_cache true, fetched_at, and expires 24 h later", out, err)
	}
	out, errOut = check("--refresh")
	if !strings.Contains(out, "disallowed /new") || strings.Contains(errOut, "from the cache") {
		t.Errorf("--refresh = %q, stderr %q; want the new file, fetched", out, errOut)
	}
	out, errOut = check()
	if !strings.Contains(out, "disallowed /new") || !note.MatchString(errOut) {
		t.Errorf("after --refresh = %q, stderr %q; want the new file from the cache", out, errOut)
	}
	if n := site.Hits()["/robots.txt"]; n != 2 {
		t.Errorf("robots.txt fetched %d times, want 2 (the first run and --refresh)", n)
	}
}

// TestNegativeAnswerKept: a data.txt 404 says how long the answer is kept
// (24 h, not the drafts' 7 days), and from the cache, that it is the
// cached answer (issue 35, item 3).
func TestNegativeAnswerKept(t *testing.T) {
	site := sitetest.New(t, map[string]string{})
	cache := t.TempDir()
	_, errOut, _ := runCLI(t, "", "datasets", "--cache-dir", cache, site.URL+"/")
	if !regexp.MustCompile(`note: ` + regexp.QuoteMeta(site.URL) + `/data.txt: HTTP 404 \(not-found\); this answer is kept until \S+Z \(24 h\)`).MatchString(errOut) {
		t.Errorf("datasets on a site without data.txt: stderr %q, want how long the 404 is kept", errOut)
	}
	_, errOut, _ = runCLI(t, "", "datasets", "--cache-dir", cache, site.URL+"/")
	if !strings.Contains(errOut, "/data.txt: from the cache: the answer HTTP 404 fetched") {
		t.Errorf("datasets again: stderr %q, want the cached 404 said", errOut)
	}
}
