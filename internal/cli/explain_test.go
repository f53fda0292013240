package cli

import (
	"fmt"
	"strings"
	"testing"
)

const explainRobots = "User-agent: *\nCrawl-delay: 5\nRequest-rate: 1/10s\nVisit-time: 0600-0845\nDisallow: /a\nAllow: /a/b\n" +
	"Sitemap: https://example.org/s.xml\nHost: example.org\n\nUser-agent: FooBot\nDisallow: /foo\nAllow: /foo/index.html\n"

// TestExplainGolden shows what applies for an agent and profile, and the
// one-screen summary (issue 15, point 7).
func TestExplainGolden(t *testing.T) {
	var b strings.Builder
	for _, args := range [][]string{
		{"explain", "-"},
		{"explain", "-q", "--agent", "FooBot/2.1 (+https://foo.example/bot)", "-"},
		{"explain", "--agent", "FooBot", "--profile", "google", "-"},
		{"explain", "--agent", "FooBot", "--profile", "draft", "-"},
		{"explain", "--agent", "Other", "-"},
		{"explain", "-o", "json", "--agent", "FooBot", "-"},
		{"summary", "-"},
		{"summary", "-o", "json", "--profile", "google", "-"},
	} {
		stdout, stderr, code := runCLI(t, explainRobots, args...)
		fmt.Fprintf(&b, "$ sitetxt %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s\n", strings.Join(args, " "), code, stdout, stderr)
	}
	golden(t, "explain/explain.txt", b.String())
}

func TestExplainNoGroup(t *testing.T) {
	stdout, _, code := runCLI(t, "User-agent: a\nDisallow: /\n", "explain", "--agent", "b", "-")
	if code != ExitOK || !strings.Contains(stdout, `why: no group names "b" and there is no "*" group`) {
		t.Errorf("explain with no group = exit %d, %q", code, stdout)
	}
}
