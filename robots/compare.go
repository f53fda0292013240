package robots

import (
	"fmt"
	"strings"
)

// Verdict is one profile's decision for a URL.
type Verdict struct {
	Profile  Profile
	Decision Decision
}

// Comparison is the decisions of several profiles for one crawler and URL,
// and, where they disagree, why.
type Comparison struct {
	Agent, URL string
	// Verdicts holds one decision per policy, in the order given.
	Verdicts []Verdict
	// Agree is set when every verdict allows, or every verdict disallows.
	Agree bool
	// Why holds one line for each verdict that differs from the first:
	// which profile rule makes the difference ("first match vs longest
	// match", "only google reads misspelt fields", ...).
	Why []string
}

// Compare decides url for agent under each policy (normally one file
// compiled under several profiles) and explains each verdict that differs
// from the first one's.
func Compare(policies []*Policy, agent, url string) Comparison {
	c := Comparison{Agent: agent, URL: url, Agree: true}
	for _, p := range policies {
		c.Verdicts = append(c.Verdicts, Verdict{Profile: p.Profile(), Decision: p.Decide(agent, url)})
	}
	for _, v := range c.Verdicts[1:] {
		if v.Decision.Allowed != c.Verdicts[0].Decision.Allowed {
			c.Agree = false
			c.Why = append(c.Why, explain(c.Verdicts[0], v, url))
		}
	}
	return c
}

// explain says, in one line, why two verdicts for the same URL differ,
// from the two profiles' rows.
func explain(a, b Verdict, url string) string {
	da, db := a.Decision, b.Decision
	pa, pb := a.Profile, b.Profile
	// Order the pair so that the first one has what the second lacks.
	switch {
	case da.Reason == ReasonRobotsTxt || db.Reason == ReasonRobotsTxt:
		if db.Reason == ReasonRobotsTxt {
			pa, pb = pb, pa
		}
		return fmt.Sprintf("implicit /robots.txt: %s always allows /robots.txt, %s applies the rules to it", pa, pb)
	case groupLine(da) != groupLine(db):
		return fmt.Sprintf("group choice: %s uses %s (%s), %s uses %s (%s)",
			pa, groupDesc(da), pa.desc().groupChoice(), pb, groupDesc(db), pb.desc().groupChoice())
	}
	ra, rb := da.Rule, db.Rule
	if ra == nil {
		ra, rb, pa, pb = rb, ra, pb, pa
	}
	A, B := pa.desc(), pb.desc()
	if rb == nil {
		// ra decides under pa; under pb no rule matched.
		l := ra.Line
		switch {
		case A.googleLines && (l.Typo || l.NoColon):
			return fmt.Sprintf("misspelt field: only %s reads line %d (%q)", pa, l.Pos.Line, strings.TrimSpace(l.Raw))
		case A.googleLines && strings.IndexByte(l.Value, 0) >= 0:
			return fmt.Sprintf("NUL byte: %s ends the value on line %d at its NUL byte, %s keeps the rest", pa, l.Pos.Line, pb)
		case ra.Implied:
			return fmt.Sprintf("index.html: %s also allows the directory of the Allow rule on line %d", pa, l.Pos.Line)
		case ra.Allow && !B.allow:
			return fmt.Sprintf("Allow lines: %s ignores them (line %d)", pb, l.Pos.Line)
		case strings.ContainsAny(ra.Pattern, "*$") && A.wildcards != B.wildcards:
			return fmt.Sprintf("wildcards: %s reads '*' and a final '$' on line %d as patterns, %s as plain characters", wildOf(pa, pb), l.Pos.Line, plainOf(pa, pb))
		case strings.IndexByte(url, '%') >= 0 || strings.IndexByte(ra.Pattern, '%') >= 0 || hasNonASCII(url) || hasNonASCII(ra.Pattern):
			return fmt.Sprintf("percent-encoding: line %d matches under %s but not under %s, which compare escapes differently (%s %s)", l.Pos.Line, pa, pb, pb, B.percent.words())
		}
		return fmt.Sprintf("%s: line %d (%s) matches; %s: no rule matches", pa, l.Pos.Line, ra, pb)
	}
	if !B.allow && ra.Allow || !A.allow && rb.Allow {
		r, p := ra, pb
		if !A.allow {
			r, p = rb, pa
		}
		return fmt.Sprintf("Allow lines: %s ignores them (line %d)", p, r.Line.Pos.Line)
	}
	if A.firstMatch || B.firstMatch {
		first, longest := pa, pb
		rf, rl := ra, rb
		if B.firstMatch {
			first, longest, rf, rl = pb, pa, rb, ra
		}
		return fmt.Sprintf("first vs longest match: %s takes the first matching rule (line %d, %s), %s the longest (line %d, %s)",
			first, rf.Line.Pos.Line, rf, longest, rl.Line.Pos.Line, rl)
	}
	return fmt.Sprintf("%s decides by line %d (%s), %s by line %d (%s)", pa, ra.Line.Pos.Line, ra, pb, rb.Line.Pos.Line, rb)
}

func groupLine(d Decision) int {
	if d.Group == nil {
		return 0
	}
	return d.Group.Pos().Line
}

func groupDesc(d Decision) string {
	if d.Group == nil {
		return "no group"
	}
	return fmt.Sprintf("the group at line %d (User-agent: %s)", d.Group.Pos().Line, strings.Join(d.Group.Agents, ", "))
}

// wildOf returns whichever of a and b reads '*' and '$' as patterns,
// plainOf the other.
func wildOf(a, b Profile) Profile {
	if a.desc().wildcards {
		return a
	}
	return b
}

func plainOf(a, b Profile) Profile {
	if a.desc().wildcards {
		return b
	}
	return a
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
