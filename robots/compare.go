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

// explain says, in one line, why two verdicts for the same URL differ.
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
			pa, groupDesc(da), agentRule(pa), pb, groupDesc(db), agentRule(pb))
	}
	ra, rb := da.Rule, db.Rule
	if ra == nil {
		ra, rb, pa, pb = rb, ra, pb, pa
	}
	if rb == nil {
		// ra decides under pa; under pb no rule matched.
		l := ra.Line
		switch {
		case pa == Google && (l.Typo || l.NoColon):
			return fmt.Sprintf("misspelt field: only google reads line %d (%q)", l.Pos.Line, strings.TrimSpace(l.Raw))
		case pa == Google && strings.IndexByte(l.Value, 0) >= 0:
			return fmt.Sprintf("NUL byte: google ends the value on line %d at its NUL byte, %s keeps the rest", l.Pos.Line, pb)
		case ra.Implied:
			return fmt.Sprintf("index.html: google also allows the directory of the Allow rule on line %d", l.Pos.Line)
		case ra.Allow && pb == NoRobots:
			return fmt.Sprintf("Allow lines: norobots ignores them (line %d)", l.Pos.Line)
		case strings.ContainsAny(ra.Pattern, "*$") && wild(pa) != wild(pb):
			return fmt.Sprintf("wildcards: %s reads '*' and a final '$' on line %d as patterns, %s as plain characters", wildOf(pa, pb), l.Pos.Line, plainOf(pa, pb))
		case strings.IndexByte(url, '%') >= 0 || strings.IndexByte(ra.Pattern, '%') >= 0 || hasNonASCII(url) || hasNonASCII(ra.Pattern):
			return fmt.Sprintf("percent-encoding: line %d matches under %s but not under %s, which compare escapes differently (%s)", l.Pos.Line, pa, pb, escapeRule(pb))
		}
		return fmt.Sprintf("%s: line %d (%s) matches; %s: no rule matches", pa, l.Pos.Line, ra, pb)
	}
	if pb == NoRobots && ra.Allow || pa == NoRobots && rb.Allow {
		r := ra
		if pa == NoRobots {
			r = rb
		}
		return fmt.Sprintf("Allow lines: norobots ignores them (line %d)", r.Line.Pos.Line)
	}
	if pa == Draft || pa == NoRobots || pb == Draft || pb == NoRobots {
		first, longest := pa, pb
		rf, rl := ra, rb
		if pb == Draft || pb == NoRobots {
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

// agentRule says how a profile picks a crawler's group.
func agentRule(p Profile) string {
	switch p {
	case Google:
		return "whole-name match, same-name groups merged"
	case Draft, NoRobots:
		return "first record whose User-agent contains the name"
	}
	return "product-token match, same-name groups merged"
}

// wild reports whether '*' and '$' are special under p.
func wild(p Profile) bool { return p == RFC9309 || p == Google }

func wildOf(a, b Profile) Profile {
	if wild(a) {
		return a
	}
	return b
}

func plainOf(a, b Profile) Profile {
	if wild(a) {
		return b
	}
	return a
}

// escapeRule says how a profile compares percent escapes.
func escapeRule(p Profile) string {
	switch p {
	case Google:
		return "google percent-encodes the rule only and compares the URL as given"
	case Draft:
		return "draft decodes %xx except %2F on both sides"
	case NoRobots:
		return "norobots compares octets as written"
	}
	return "rfc9309 decodes escaped unreserved characters and encodes non-ASCII"
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
