package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/mobileagent"
	"github.com/sitetxt/sitetxt/robots"
)

// agentsURLs are the URLs each testdata/mobileagent file is asked about.
var agentsURLs = map[string][]string{
	"fict.org.txt": {
		// The draft's section 4 matrix; for /home/user2/ the directives
		// are right and the matrix is not (see docs/mobileagent.md).
		"http://www.fict.org/",
		"http://www.fict.org/index.html",
		"http://www.fict.org/services/",
		"http://www.fict.org/services/index.html",
		"http://www.fict.org/robots.txt",
		"http://www.fict.org/home/",
		"http://www.fict.org/home/user1/",
		"http://www.fict.org/home/user1/index.html",
		"http://www.fict.org/home/user2/",
		"http://www.fict.org/home/user2/index.html",
		"http://www.fict.org/home/user3/",
		"http://www.fict.org/home/user3/index.html",
	},
	"dir1.txt":      {"/", "/dir1", "/dir1/", "/dir1x", "/dir1/dir2", "/dir1/dir2/x.html", "/dir1/dir2x", "/DIR1"},
	"malformed.txt": {"/", "/~user/", "/a%zz", "/b", "/c", "/d", "/e", "/f", "/g", "/h", "/home/", "/i", "/j", "/k"},
	"robots-mixed.txt": {"http://example.com/", "http://example.com/private/x", "http://example.com/tmp/x",
		"http://example.com/data/set.csv"},
}

// TestAgentsGolden runs agents (text and json) and lint on every file in
// testdata/mobileagent and compares with testdata/golden/agents.
func TestAgentsGolden(t *testing.T) {
	chdirRoot(t)
	files, err := filepath.Glob(filepath.Join("testdata", "mobileagent", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/mobileagent/*.txt files (%v)", err)
	}
	for _, file := range files {
		base := filepath.Base(file)
		t.Run(base, func(t *testing.T) {
			urls, ok := agentsURLs[base]
			if !ok {
				t.Fatalf("no URLs for %s: add them to agentsURLs", base)
			}
			var b strings.Builder
			for _, args := range [][]string{
				append([]string{"agents", file}, urls...),
				append([]string{"agents", "-o", "json", file}, urls...),
				{"lint", file},
			} {
				stdout, stderr, code := runCLI(t, "", args...)
				fmt.Fprintf(&b, "$ sitetxt %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s\n", strings.Join(args, " "), code, stdout, stderr)
			}
			golden(t, "agents/"+base, b.String())
		})
	}
}

// denyRobots is a fake robots policy: it disallows URLs containing any of
// its strings, and records the agents it is asked about.
type denyRobots struct {
	deny   []string
	agents *[]string
}

func (d denyRobots) Allowed(agent, url string) bool {
	*d.agents = append(*d.agents, agent)
	for _, s := range d.deny {
		if strings.Contains(url, s) {
			return false
		}
	}
	return true
}

// withRobots replaces the robots wiring for one test.
func withRobots(t *testing.T, deny ...string) (profiles, agents *[]string) {
	t.Helper()
	profiles, agents = new([]string), new([]string)
	old := compileRobots
	compileRobots = func(f *grammar.File, p robots.Profile) mobileagent.Robots {
		*profiles = append(*profiles, p.String())
		return denyRobots{deny, agents}
	}
	t.Cleanup(func() { compileRobots = old })
	return profiles, agents
}

const agentsFict = `User-agent: *
Disallow: /home/user1/private/
Mobile-agent-server: / atp://www.fict.org:8001
Mobile-agent-server: /home/ none
Mobile-agent-server: /home/user1/ atp://user1.fict.org:854
`

func TestAgentsExitCodes(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"all dispatchable", []string{"agents", "-", "/index.html", "/home/user1/"}, ExitOK,
			"for \"*\" (the rules for every crawler) under rfc9309:\n" +
				"URL           ROBOTS.TXT  SERVER                    LINE\n" +
				"/index.html   allowed     atp://www.fict.org:8001   3\n" +
				"/home/user1/  allowed     atp://user1.fict.org:854  5\n", ""},
		{"disallowed", []string{"agents", "--agent", "Aglet", "-", "/home/user1/private/x"}, ExitFindings,
			"for Aglet under rfc9309:\n" +
				"URL                    ROBOTS.TXT  SERVER                    LINE\n" +
				"/home/user1/private/x  disallowed  atp://user1.fict.org:854  5\n", ""},
		{"no server", []string{"agents", "-o", "json", "-", "http://www.fict.org/home/"}, ExitFindings,
			`{"url":"http://www.fict.org/home/","agent":"*","profile":"rfc9309","allowed":true,"server":null,"file":"<stdin>","line":4,"column":1}` + "\n", ""},
		{"json", []string{"agents", "-o", "json", "-", "/a", "/home/user1/private/"}, ExitFindings,
			`{"url":"/a","agent":"*","profile":"rfc9309","allowed":true,"server":"atp://www.fict.org:8001","file":"<stdin>","line":3,"column":1}` + "\n" +
				`{"url":"/home/user1/private/","agent":"*","profile":"rfc9309","allowed":false,"server":"atp://user1.fict.org:854","file":"<stdin>","line":5,"column":1}` + "\n", ""},
		{"csv", []string{"agents", "-o", "CSV", "-", "/a"}, ExitOK,
			"url,agent,profile,verdict,server,file,line,column\n/a,*,rfc9309,allowed,atp://www.fict.org:8001,<stdin>,3,1\n", ""},
		{"relative URL", []string{"agents", "-", "home/"}, ExitFindings,
			"for \"*\" (the rules for every crawler) under rfc9309:\n" +
				"URL    ROBOTS.TXT  SERVER  LINE\n" +
				"home/  allowed     none    4\n",
			"sitetxt: note: \"home/\" has no scheme and no leading \"/\": it is read from the site's root, as \"/home/\" (RFC 3986 5.2)\n"},
		{"bad output", []string{"agents", "-o", "yaml", "-", "/"}, ExitError, "",
			"sitetxt: unknown output format \"yaml\" (want text, json, csv)\n"},
		{"no URL", []string{"agents", "-"}, ExitError, "",
			"sitetxt: agents: needs at least 2 arguments, got 1\n"},
		{"missing file", []string{"agents", "testdata/agents/no-such-file.txt", "/"}, ExitError, "",
			"sitetxt: cannot read testdata/agents/no-such-file.txt: no such file or directory\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withRobots(t, "/private/")
			stdout, stderr, code := runCLI(t, agentsFict, tt.args...)
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("sitetxt %s = exit %d\n%s%s\nwant exit %d\n%s%s", strings.Join(tt.args, " "),
					code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

func TestAgentsFlagsReachRobots(t *testing.T) {
	profiles, agents := withRobots(t)
	_, stderr, code := runCLI(t, agentsFict, "agents", "--agent", "Aglet/1.0", "--profile", "draft", "-", "/", "/x")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if strings.Join(*profiles, ",") != "draft" {
		t.Errorf("robots compiled for profiles %q, want [draft] once", *profiles)
	}
	if strings.Join(*agents, ",") != "Aglet/1.0,Aglet/1.0" {
		t.Errorf("robots asked about agents %q, want Aglet/1.0 twice", *agents)
	}
}

func TestAgentsRealRobots(t *testing.T) {
	// The real wiring: robots.Compile on the same parse.
	_, stderr, code := runCLI(t, agentsFict, "agents", "--profile", "nosuch", "-", "/")
	if code != ExitError || !strings.HasPrefix(stderr, "sitetxt: unknown profile \"nosuch\"") {
		t.Errorf("agents --profile nosuch = exit %d, stderr %q; want exit 2 naming the profile", code, stderr)
	}
	const site = `User-agent: *
Disallow: /private/

User-agent: Aglet
Disallow: /tmp/
Mobile-agent-server: / atp://agents.example.com:434
`
	tests := []struct {
		agent, profile, url string
		allowed             bool
	}{
		{"*", "rfc9309", "/private/x", false},
		{"*", "rfc9309", "/tmp/x", true},
		{"Aglet", "rfc9309", "/tmp/x", false},
		{"Aglet/2.0 (+http://aglets.example/)", "rfc9309", "/tmp/x", false},
		{"Aglet", "rfc9309", "/private/x", true},
		{"Aglet", "google", "/tmp/x", false},
		{"Aglet", "draft", "/tmp/x", false},
		{"Aglet", "norobots", "/private/x", true},
		{"Other", "draft", "/private/x", false},
	}
	for _, p := range profileNames {
		tests = append(tests, struct {
			agent, profile, url string
			allowed             bool
		}{"*", p, "http://example.com/index.html", true})
	}
	for _, tt := range tests {
		stdout, stderr, _ := runCLI(t, site, "agents", "-q", "-o", "json", "--agent", tt.agent, "--profile", tt.profile, "-", tt.url)
		want := fmt.Sprintf(`{"url":%q,"agent":%q,"profile":%q,"allowed":%v,"server":"atp://agents.example.com:434","file":"<stdin>","line":6,"column":1}`+"\n", tt.url, tt.agent, tt.profile, tt.allowed)
		if stdout != want || stderr != "" {
			t.Errorf("agents --agent %q --profile %s %s = %q (stderr %q), want %q", tt.agent, tt.profile, tt.url, stdout, stderr, want)
		}
	}
}

// TestAgentsMalformedOnStderr: a malformed line is an error on standard
// error and the run exits 1 (as datasets exits after its errors), the
// good lines still applying.
func TestAgentsMalformedOnStderr(t *testing.T) {
	withRobots(t)
	stdout, stderr, code := runCLI(t, "Mobile-agent-server: / atp://h:1\nMobile-agent-server: /x atp:/h:2\n", "agents", "-", "/x")
	if code != ExitFindings || !strings.Contains(stdout, "atp://h:1") {
		t.Errorf("exit %d, stdout %q: want exit 1, and the good line must still apply", code, stdout)
	}
	if want := "<stdin>:2:25: error: server \"atp:/h:2\" is not scheme://host:port or none [agent-server-bad-target] (line ignored)\n"; stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
}

func TestAgentsJSONShape(t *testing.T) {
	withRobots(t)
	stdout, _, _ := runCLI(t, agentsFict, "agents", "-o", "json", "-", "/", "/home/x")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want one per URL:\n%s", len(lines), stdout)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		keys := []string{"url", "agent", "profile", "allowed", "server", "file", "line", "column"}
		if len(m) != len(keys) {
			t.Errorf("line %q has keys %v, want %v", l, m, keys)
		}
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("line %q lacks %q", l, k)
			}
		}
	}
}

func TestLintReportsAgentServerLines(t *testing.T) {
	stdout, _, code := runCLI(t, "Mobile-agent-server: /a?x atp://h:1\n", "lint", "-q", "-")
	if want := "<stdin>:1:24: error: \"?\" is not allowed in a path; write it as %3F [agent-server-bad-path]\n"; stdout != want || code != ExitFindings {
		t.Errorf("lint = exit %d, %q; want exit 1, %q", code, stdout, want)
	}
}
