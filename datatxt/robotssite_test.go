package datatxt

import "testing"

type denyAll struct{}

func (denyAll) Allowed(agent, url string) bool { return false }

// TestRobotsSite: a robots.txt judges the URLs on its own site only, and
// without RobotsSite those on the data.txt's.
func TestRobotsSite(t *testing.T) {
	const src = "- path: a.csv\n  name: a\n- path: https://b.example/b.csv\n  name: b\n"
	for _, tt := range []struct {
		site string
		want []Verdict
	}{
		{"", []Verdict{Disallowed, Allowed}},
		{"https://a.example/robots.txt", []Verdict{Disallowed, Allowed}},
		{"https://b.example/robots.txt", []Verdict{Allowed, Disallowed}},
		{"https://c.example/robots.txt", []Verdict{Allowed, Allowed}},
		{"http://a.example/robots.txt", []Verdict{Allowed, Allowed}},
	} {
		c := Parse("data.txt", []byte(src), Options{Base: "https://a.example/data.txt", Robots: denyAll{}, RobotsSite: tt.site})
		for i, e := range c.Entries {
			if e.Access != tt.want[i] {
				t.Errorf("RobotsSite %q: entry %s Access = %v, want %v", tt.site, e.Name, e.Access, tt.want[i])
			}
		}
	}
}
