package robots

import (
	"sort"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// accidental are the checks that agreed when cases.json was made only
// because the old product-token cut at the first digit merged crawler
// names ("bot1" and "bot2" were both "bot"): with names compared whole
// they show the peer's own semantics, and docs/profiles.md lists them.
var accidental = map[string]string{
	"ps0313": "(b) peer matches crawler names by substring/prefix",
	"ps0719": "(b) Google-parser leniency: misspelled keys / missing colon (google profile agrees)",
	"ps0720": "(b) crawler-commons accepts misspelled field names beyond Google's list (\"useg-agent\")",
	"ps0721": "(b) Google-parser leniency: misspelled keys / missing colon (google profile agrees)",
	"ps0811": "(b) Google-parser leniency: misspelled keys / missing colon (google profile agrees)",
	"ps0812": "(b) Google-parser leniency: misspelled keys / missing colon (google profile agrees)",
}

// TestPeerSuites runs the checks of eight other parsers' test suites under
// the profile closest to each parser. A check that agreed when the file
// was made, and a check triaged (a) (our bug), must agree; a check triaged
// (b) (the peer's own semantics) or (c) (a questionable test) may differ,
// and docs/profiles.md says why for each kind ("Other parsers' test
// suites").
func TestPeerSuites(t *testing.T) {
	t.Parallel()
	cases := shareddata.PeerCases(t)
	type tally struct{ agree, differ int }
	byClass := map[string]*tally{}
	differing := map[string]int{} // (b)/(c) reasons we still differ on
	for _, c := range cases {
		p, err := ParseProfile(c.Profile)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		pol := Compile(grammar.Parse(c.ID, []byte(c.Robots), grammar.Options{}), p)
		got := pol.Allowed(c.Agent, c.URL)
		triage := c.Triage[c.Profile]
		if r, ok := accidental[c.ID]; ok && triage == "" {
			triage = r
		}
		class := "agreed"
		if triage != "" {
			class = triage[:3]
		}
		tl := byClass[class]
		if tl == nil {
			tl = &tally{}
			byClass[class] = tl
		}
		if got == c.Expected {
			tl.agree++
			continue
		}
		tl.differ++
		switch class {
		case "(b)", "(c)":
			differing[triage]++
		default:
			t.Errorf("%s (%s, %s): Allowed(%q, %q) = %v, want %v (%s)\n%s", c.ID, c.Source, p, c.Agent, c.URL, got, c.Expected, class, c.Robots)
		}
	}
	classes := make([]string, 0, len(byClass))
	for k := range byClass {
		classes = append(classes, k)
	}
	sort.Strings(classes)
	for _, k := range classes {
		t.Logf("%-6s agree %4d, differ %4d", k, byClass[k].agree, byClass[k].differ)
	}
	reasons := make([]string, 0, len(differing))
	for r := range differing {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		t.Logf("still differ: %3d %s", differing[r], strings.TrimSpace(r))
	}
}
