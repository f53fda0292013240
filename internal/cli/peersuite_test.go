package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/shareddata"
	"github.com/sitetxt/sitetxt/robots"
)

// TestCheckPeerSuites runs the 1,685 checks of ../shared/peer-suites
// (eight other parsers' own test suites, robots/peersuite_test.go) through
// the command line as a user would: check --profile P --agent A -o json -
// URL, the file on standard input. Each answer must be the library's
// (robots.Policy.Allowed) wherever the library agrees with the peer, and
// no http(s) URL, path or reference may be refused: a relative one such
// as "xyz/foo.js" is read from the site's root (issue 35, item 1;
// refusing them lost 8 checks). A URL of another scheme is refused, as
// every batch refuses what no robots.txt read over http(s) governs (issue
// 50, item 1; one case, ps0012, protego's "ftp://example.net/foo.html",
// which it decides by the path). It logs the agreement per profile.
func TestCheckPeerSuites(t *testing.T) {
	cases := shareddata.PeerCases(t)
	// One run per file, agent and profile, its URLs named on the command
	// line (528 runs); the file is written once.
	type group struct {
		src, agent, profile string
		idx                 []int
	}
	var groups []*group
	seen := map[[3]string]*group{}
	for i, c := range cases {
		src := c.Robots
		k := [3]string{src, c.Agent, c.Profile}
		g := seen[k]
		if g == nil {
			g = &group{src: src, agent: c.Agent, profile: c.Profile}
			seen[k] = g
			groups = append(groups, g)
		}
		g.idx = append(g.idx, i)
	}
	type tally struct{ agree, lib, total int }
	var refusedIDs []string // URLs of another scheme
	by := map[string]*tally{}
	all := &tally{}
	dir := t.TempDir()
	for gi, g := range groups {
		file := filepath.Join(dir, itoa(gi)+".txt")
		if err := os.WriteFile(file, []byte(g.src), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := robots.ParseProfile(g.profile)
		if err != nil {
			t.Fatal(err)
		}
		pol := robots.Compile(grammar.Parse(file, []byte(g.src), grammar.Options{}), p)
		args := []string{"check", "-q", "--profile", g.profile, "--agent=" + g.agent, "-o", "json", "--", file}
		for _, i := range g.idx {
			args = append(args, cases[i].URL)
		}
		out, errOut, code := runCLI(t, "", args...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		otherScheme := 0
		for _, i := range g.idx {
			if _, err := input.ReadURL(cases[i].URL); err != nil && strings.Contains(err.Error(), "its scheme is") {
				otherScheme++
			}
		}
		if (code == ExitError) != (otherScheme > 0) || len(lines) != len(g.idx) {
			t.Errorf("%s: check --agent=%q = exit %d, %d answers for %d URLs:\n%s%s", cases[g.idx[0]].ID, g.agent, code, len(lines), len(g.idx), out, errOut)
			continue
		}
		tl := by[g.profile]
		if tl == nil {
			tl = &tally{}
			by[g.profile] = tl
		}
		for j, i := range g.idx {
			c := cases[i]
			var d decisionJSON
			var refused urlError
			if json.Unmarshal([]byte(lines[j]), &refused); refused.Error != "" {
				if !strings.Contains(refused.Error, "its scheme is") {
					t.Errorf("%s: %q refused: %s; want it answered", c.ID, c.URL, refused.Error)
				}
				refusedIDs = append(refusedIDs, c.ID)
				continue
			}
			if err := json.Unmarshal([]byte(lines[j]), &d); err != nil || d.URL != c.URL {
				t.Errorf("%s: answer %q (%v), want the decision for %q", c.ID, lines[j], err, c.URL)
				continue
			}
			lib := pol.Allowed(c.Agent, c.URL)
			for _, x := range []*tally{tl, all} {
				x.total++
				if d.Allowed == c.Expected {
					x.agree++
				}
				if lib == c.Expected {
					x.lib++
				}
			}
			if lib == c.Expected && d.Allowed != lib {
				t.Errorf("%s (%s): check --agent=%q %q allowed %v, the library %v (as the peer expects)", c.ID, c.Profile, c.Agent, c.URL, d.Allowed, lib)
			}
		}
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		tl := by[n]
		b.WriteString("\n  " + n + ": CLI agrees " + itoa(tl.agree) + " of " + itoa(tl.total) + " (library " + itoa(tl.lib) + ")")
	}
	t.Logf("peer suites through the command line: %d of %d agree (library %d); refused, of another scheme: %q%s", all.agree, all.total, all.lib, refusedIDs, b.String())
}
