package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"
	"github.com/sitetxt/sitetxt/robots"
)

// TestCheckPeerSuites runs the 1,685 checks of ../shared/peer-suites
// (eight other parsers' own test suites, robots/peersuite_test.go) through
// the command line as a user would: check --profile P --agent A -o json -
// URL, the file on standard input. Each answer must be the library's
// (robots.Policy.Allowed) wherever the library agrees with the peer, and
// no URL may be refused: a relative one such as "xyz/foo.js" is read from
// the site's root (issue 35, item 1; refusing them lost 8 checks). It logs
// the agreement per profile.
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
		if code == ExitError || len(lines) != len(g.idx) {
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
	t.Logf("peer suites through the command line: %d of %d agree (library %d)%s", all.agree, all.total, all.lib, b.String())
}
