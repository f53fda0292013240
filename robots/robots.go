// Package robots decides whether a crawler may fetch a URL, following a
// site's /robots.txt.
//
// A robots.txt file names crawlers in User-agent lines and lists, for each
// group of them, Allow and Disallow rules: path patterns matched against the
// path (with parameters and query) of a URL. Four readings of that format
// exist side by side, and they disagree in the details: which group applies
// to a crawler, which rule wins, how percent escapes compare, whether '*'
// and '$' are special. A Profile names one of them:
//
//   - RFC9309, the default: RFC 9309 (2022), today's standard.
//   - Google: exactly what Google's open-source reference parser does.
//   - Draft: Koster's 1996 draft as revised in 1997 (first match in file
//     order, records end at blank lines).
//   - NoRobots: the 1994 "Standard for Robot Exclusion" (Disallow only).
//
// Each profile is a row of data (its access method, how much of a file it
// reads, which lines it reads, how groups form and merge, how a rule is
// chosen and matched) that the package asks; docs/profiles.md lists every
// difference, with its source.
//
// Compile turns a parsed file (see package grammar) into a Policy once,
// reading the tree at the level the profile's standard defines: rfc9309 and
// google read the User-agent and rule lines in order, draft and norobots
// the grammar's blank-line records. The Policy is immutable and safe for
// concurrent use, and deciding a URL allocates nothing. Policy.Agent
// selects a crawler's rules once, for callers that check many URLs for one
// crawler. Every Decision explains itself: the rule that decided (with its
// position), the group that applied, or why neither did; Policy.Explain
// says what the file means for one crawler, and Compare why profiles
// disagree.
//
// Since 2023 a file may also say what a crawler may do with what it
// fetched: Content-Usage rules (draft-ietf-aipref-attach), Content-Signal
// lines (Cloudflare) and License lines (RSL 1.0). Agent.Usage returns the
// usage preference for a URL the crawler may fetch; Policy.Licenses the
// License lines. docs/ai-preferences.md describes them.
//
// Lint reports problems in a robots.txt file as grammar diagnostics.
package robots

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// Rule is one Allow or Disallow line as a profile reads it.
type Rule struct {
	// Pattern is the rule's value as written (under Google, cut at a NUL
	// byte). For a rule Google implies from an "index.html" Allow rule it is
	// the implied pattern ("/dir/$").
	Pattern string
	// Line is the line the rule comes from.
	Line *grammar.Line
	// Group is the group the rule belongs to.
	Group *Group

	// Compiled form.
	lit  string // normalised pattern, '$' removed, runs of '*' as one '*'
	prio int32  // longest-match priority (octets of the pattern)

	// Allow is true for an Allow rule, false for a Disallow rule.
	Allow bool
	// Implied is set for a rule the profile derives from another line
	// rather than reads: Google's directory rule for ".../index.html".
	Implied bool

	anchored bool // pattern ended with '$' (RFC9309, Google)
	wild     bool // pattern has '*' (RFC9309, Google)
	// An empty pattern, which never matches, is the only one of priority
	// 0 (never): no flag for it keeps a Rule at 56 bytes.
}

// never reports whether the rule can never match: its pattern is empty.
func (r *Rule) never() bool { return r.prio == 0 }

// Pos returns where the rule's line starts.
func (r *Rule) Pos() grammar.Pos { return r.Line.Pos }

// String returns "Directive: pattern".
func (r *Rule) String() string { return r.Directive() + ": " + r.Pattern }

// Directive returns "Allow" or "Disallow", whatever spelling the file used
// (Line.Field has that).
func (r *Rule) Directive() string {
	if r.Allow {
		return "Allow"
	}
	return "Disallow"
}

// Group is a group of lines for the same crawlers: its User-agent lines and
// the rules and extension lines after them. Under Draft and NoRobots a
// group is a record, which a blank line ends.
type Group struct {
	// Agents holds the User-agent values as written.
	Agents []string
	// AgentLines holds the User-agent lines.
	AgentLines []*grammar.Line
	// Global is set when one of the User-agent values names every crawler
	// ("*").
	Global bool
	// Rules holds the group's Allow and Disallow rules in file order (not
	// those the profile ignores).
	Rules []*Rule
	// The group's extension lines, parsed; nil when absent or invalid.
	CrawlDelay  *CrawlDelay
	RequestRate *RequestRate
	VisitTime   *VisitTime
	// CleanParams holds the group's Clean-param lines.
	CleanParams []*CleanParam
	// Usage holds the group's Content-Usage rules and Signals its
	// Content-Signal lines, in file order (see usage.go).
	Usage   []*UsageRule
	Signals []*Signal

	index int // in Policy.groups
}

// Pos returns where the group's first User-agent line starts.
func (g *Group) Pos() grammar.Pos { return g.AgentLines[0].Pos }

// The reasons a Decision gives.
const (
	ReasonRule      = "rule matched"                  // Decision.Rule decided
	ReasonNoRule    = "no rule matched"               // a group applied, none of its rules matched
	ReasonNoGroup   = "no group applies"              // no group names the crawler, and there is no "*" group
	ReasonRobotsTxt = "/robots.txt is always allowed" // the profile allows /robots.txt itself
)

// Decision is the answer for one URL, with why.
type Decision struct {
	// Allowed says whether the crawler may fetch the URL.
	Allowed bool
	// Rule is the rule that decided, or nil when none did.
	Rule *Rule
	// Group is the group whose rules were used: the deciding rule's group,
	// else the first group selected for the crawler; nil when none applied.
	Group *Group
	// Global is set when the crawler fell back to the "*" group(s).
	Global bool
	// Reason says why, as one of the Reason constants.
	Reason string
}

// String returns "allowed" or "disallowed" with the deciding rule.
func (d Decision) String() string {
	verdict := "disallowed"
	if d.Allowed {
		verdict = "allowed"
	}
	if d.Rule != nil {
		return fmt.Sprintf("%s by line %d: %s", verdict, d.Rule.Line.Pos.Line, d.Rule)
	}
	return verdict + ": " + d.Reason
}

// String returns the group as its User-agent lines read, with where it
// starts: "User-agent: a, b (line 4)".
func (g *Group) String() string {
	return fmt.Sprintf("User-agent: %s (line %d)", strings.Join(g.Agents, ", "), g.Pos().Line)
}
