package robots

import (
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
)

func allProfiles(src string) []*Policy {
	f := grammar.ParseString("robots.txt", src, grammar.Options{})
	var out []*Policy
	for _, p := range Profiles {
		out = append(out, Compile(f, p))
	}
	return out
}

// TestCompare checks that each kind of disagreement is found and named.
func TestCompare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, agent, url string
		agree                 bool
		why                   string // a substring of the joined explanations
	}{
		{"agree", "User-agent: *\nDisallow: /a\n", "foo", "/a/b", true, ""},
		{"first vs longest", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "foo", "/a/b", false, "first vs longest match: draft takes the first matching rule (line 2"},
		{"implicit robots.txt", "User-agent: *\nDisallow: /\n", "foo", "/robots.txt", false, "implicit /robots.txt: rfc9309 always allows /robots.txt, google applies the rules to it"},
		{"misspelt field", "User-agent: *\nDisalow: /x\n", "foo", "/x", false, "misspelt field: only google reads line 2"},
		{"allow ignored by norobots", "User-agent: *\nAllow: /a\nDisallow: /\n", "foo", "/a", false, "Allow lines: norobots ignores them (line 2)"},
		{"wildcards", "User-agent: *\nDisallow: /*.pdf$\n", "foo", "/x.pdf", false, "wildcards: rfc9309 reads '*' and a final '$' on line 2 as patterns, draft as plain characters"},
		{"group choice", "User-agent: foobot-news\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "foobot", "/x", false, "group choice: rfc9309 uses the group at line 4"},
		{"nul", "User-agent: *\nDisallow: /a\x00b\n", "foo", "/a", false, "NUL byte: google ends the value on line 2 at its NUL byte, rfc9309 keeps the rest"},
		{"percent", "User-agent: *\nDisallow: /~joe\n", "foo", "/%7Ejoe", false, "percent-encoding: line 2 matches under rfc9309 but not under google"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Compare(allProfiles(tt.src), tt.agent, tt.url)
			why := strings.Join(c.Why, "\n")
			if c.Agree != tt.agree || !strings.Contains(why, tt.why) {
				var vs []string
				for _, v := range c.Verdicts {
					vs = append(vs, v.Profile.String()+"="+v.Decision.String())
				}
				t.Errorf("Compare(%q, %q).Agree = %v, Why = %q; want %v and %q\nverdicts: %s", tt.agent, tt.url, c.Agree, why, tt.agree, tt.why, strings.Join(vs, "; "))
			}
			if len(c.Verdicts) != len(Profiles) {
				t.Errorf("len(Verdicts) = %d", len(c.Verdicts))
			}
		})
	}
}
