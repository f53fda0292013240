package robots

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// Profile selects how a robots.txt file is interpreted: one row of the
// profile table (profiles, below), which the rest of the package asks
// rather than naming a profile.
type Profile uint8

// The profiles.
const (
	// RFC9309 is RFC 9309 as written: groups merged by agent, exact
	// product-token match, longest match with Allow winning ties, '*' and a
	// final '$', percent-encoding normalised, /robots.txt always allowed.
	RFC9309 Profile = iota
	// Google is the behaviour of Google's open-source robots.txt parser
	// (github.com/google/robotstxt), including its lenient field names.
	Google
	// Draft is the 1996 Internet-Draft as revised in 1997: records end at
	// blank lines, the first record naming the robot applies, the first
	// matching rule in file order decides.
	Draft
	// NoRobots is the 1994 Standard for Robot Exclusion: Disallow lines
	// only, prefix matching, records end at blank lines.
	NoRobots
)

// profile is a Profile as data: everything the package (and sitetxt's
// commands, through Profile's methods) asks about one reading of
// robots.txt. docs/profiles.md lists the differences with their sources;
// TestProfileTable checks that a row only combines what the code
// supports.
type profile struct {
	name string // as ParseProfile accepts it
	ref  string // the text it follows

	// Which lines it reads, and how.
	googleLines bool // as Google's parser reads them (googleLine): misspelt and colon-less fields, a NUL ends a line, vertical tab and form feed are white space, a field starting with "sitemap" or "site-map" is a Sitemap line
	allow       bool // Allow lines; without, an Allow line is an unknown field
	usageRule   bool // a Content-Usage line is a rule of its group, so a User-agent line after it starts a group (draft-ietf-aipref-attach)
	indexDir    bool // an Allow rule for ".../index.htm..." also allows ".../$" (Google's HandleAllow)
	paceLines   bool // a crawler following it honours Crawl-delay, Request-rate and Visit-time (Google's crawlers do not: Profile.PaceLines)

	// How lines make groups, and which groups a crawler gets.
	records bool       // the groups are the grammar's records (File.Records: blank lines end them); else User-agent and rule lines in order, a User-agent line after a rule starting a group
	merge   bool       // the groups naming a crawler are merged into one; else the first that names it applies
	agents  agentMatch // how a crawler's name selects groups, and which values name every crawler

	// How a rule is chosen and matched.
	firstMatch bool        // the first matching rule in file order decides; else the longest pattern
	tieAllow   bool        // under longest match, Allow wins a tie (else file order)
	wildcards  bool        // '*' matches any run of characters and a final '$' ends a match
	percent    percentRule // how percent escapes and non-ASCII octets compare
	robotsTxt  bool        // /robots.txt is always allowed

	// How it is fetched and how much of it is read.
	access  *fetch.Access // what an HTTP status means
	maxSize int           // bytes read, as grammar.Options.MaxSize: 0 is grammar.DefaultMaxSize, negative all
}

// profiles is the profile table, indexed by Profile; Profiles lists it.
var profiles = [...]profile{
	RFC9309: {
		name: "rfc9309", ref: "RFC 9309 (2022)",
		allow: true, usageRule: true, paceLines: true,
		merge: true, agents: matchToken,
		tieAllow: true, wildcards: true, percent: percentRFC, robotsTxt: true,
		access: fetch.AccessRFC9309,
	},
	Google: {
		name: "google", ref: "Google's open-source parser, github.com/google/robotstxt",
		googleLines: true, allow: true, indexDir: true,
		merge: true, agents: matchGoogle,
		tieAllow: true, wildcards: true, percent: percentGoogle,
		access: fetch.AccessRFC9309, maxSize: -1, // Google's parser has no size limit
	},
	Draft: {
		name: "draft", ref: "Koster's 1996 Internet-Draft as revised in 1997",
		allow: true, paceLines: true,
		records: true, agents: matchContains,
		firstMatch: true, percent: percentDraft, robotsTxt: true,
		access: fetch.AccessDraft,
	},
	NoRobots: {
		name: "norobots", ref: `the 1994 "Standard for Robot Exclusion"`,
		paceLines: true,
		records:   true, agents: matchContains,
		firstMatch: true, percent: percentAsWritten,
		access: fetch.AccessDraft,
	},
}

// Profiles lists every profile, the default first.
var Profiles = func() []Profile {
	ps := make([]Profile, len(profiles))
	for i := range ps {
		ps[i] = Profile(i)
	}
	return ps
}()

// desc returns the profile's row; an unknown profile reads as RFC9309.
func (p Profile) desc() *profile {
	if int(p) < len(profiles) {
		return &profiles[p]
	}
	return &profiles[RFC9309]
}

// String returns the profile's name as ParseProfile accepts it.
func (p Profile) String() string {
	if int(p) < len(profiles) {
		return profiles[p].name
	}
	return fmt.Sprintf("profile(%d)", int(p))
}

// MarshalText encodes the profile as its name.
func (p Profile) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText decodes a profile name.
func (p *Profile) UnmarshalText(b []byte) error {
	q, err := ParseProfile(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// ParseProfile returns the profile named name: "rfc9309", "google",
// "draft" or "norobots" (case-insensitive).
func ParseProfile(name string) (Profile, error) {
	names := make([]string, len(profiles))
	for i := range profiles {
		if strings.EqualFold(name, profiles[i].name) {
			return Profile(i), nil
		}
		names[i] = profiles[i].name
	}
	hint := ""
	if m := grammar.Nearest(strings.ToLower(name), names, 2); m != "" {
		hint = "did you mean " + m + "? "
	}
	return 0, fmt.Errorf("unknown profile %q (%swant %s)", name, hint, strings.Join(names, ", "))
}

// Reference returns the text the profile follows ("RFC 9309 (2022)").
func (p Profile) Reference() string { return p.desc().ref }

// MaxSize returns how many bytes of a robots.txt file the profile reads,
// or a negative number when it reads all of it (google: Google's parser
// has no limit). The others read 500 KiB, the least RFC 9309 section 2.5
// allows.
func (p Profile) MaxSize() int {
	if n := p.desc().maxSize; n != 0 {
		return n
	}
	return grammar.DefaultMaxSize
}

// ParseOptions returns the grammar options that parse a file as the
// profile reads it: its MaxSize, the grammar's other defaults. Compile
// gives the same answer for a file parsed with less (see Compile); parsing
// with these options costs no second parse.
func (p Profile) ParseOptions() grammar.Options { return grammar.Options{MaxSize: p.MaxSize()} }

// PaceLines reports whether a crawler following the profile honours the
// pace a group asks for (Crawl-delay, Request-rate, Visit-time): true
// for rfc9309, draft and norobots, whose crawlers commonly do; false for
// google, since Google's crawlers ignore Crawl-delay (and its parser
// reads none of the three). The lines are compiled under every profile
// (Agent.CrawlDelay); package pace asks this to choose its default
// reading.
func (p Profile) PaceLines() bool { return p.desc().paceLines }

// Access returns the access method the profile reads an HTTP response for
// robots.txt with (which status allows or disallows everything, how long
// a copy is kept). Client and sitetxt's commands fetch with it.
func (p Profile) Access() *fetch.Access { return p.desc().access }

// CrawlerName returns the name the profile compares with the file's
// User-agent values for a crawler's agent string, and whether anything
// but a version was cut off to get it: the agent whole under google
// (Google's parser compares the caller's string whole), the crawler name
// CrawlerName finds at its start under the others.
func (p Profile) CrawlerName(agent string) (name string, cut bool) {
	if p.desc().agents == matchGoogle {
		return agent, false
	}
	return CrawlerName(agent)
}

// agentMatch is how a profile matches a crawler's name with the file's
// User-agent values.
type agentMatch uint8

const (
	// matchToken: RFC 9309 section 2.2.1. The caller's crawler name
	// (CrawlerName) equals, ASCII case-insensitively, a name the value
	// gives (agentMatch.names); "*" alone or before white space names every
	// crawler.
	matchToken agentMatch = iota
	// matchGoogle: Google's parser. The caller's string, whole, equals
	// the run of letters, '-' and '_' the value starts with; "*" alone or
	// before C white space names every crawler.
	matchGoogle
	// matchContains: the 1994 and 1996/97 texts. The value contains the
	// caller's crawler name, case-insensitively; only "*" names every
	// crawler.
	matchContains
)

// isGlobal reports whether a User-agent value names every crawler.
func (m agentMatch) isGlobal(v string) bool {
	switch m {
	case matchGoogle:
		// "*" alone or followed by white space as C's isspace has it
		// ("* foo", "*\vfoo").
		return len(v) >= 1 && v[0] == '*' && (len(v) == 1 || v[1] == ' ' || v[1] == '\t' || v[1] == '\v' || v[1] == '\f')
	case matchToken:
		// "*" alone or followed by white space ("* foo"), as Google.
		return len(v) >= 1 && v[0] == '*' && (len(v) == 1 || v[1] == ' ' || v[1] == '\t')
	}
	return v == "*"
}

// names appends to dst the crawler names a User-agent value in a file
// gives. Google: one, the run of letters, '-' and '_' at its start
// (Google's ExtractUserAgent; "" matches only an empty caller name).
// Otherwise: a list of names separated by white space, each perhaps with a
// version ("crawler1 crawler2", "FooBot/1 BarBot/2"), names each of them;
// any other value names the crawler CrawlerName finds at its start (a
// whole User-Agent header written as a value, "Mozilla/5.0 (compatible;
// Butterfly/1.0)", names "Mozilla" only), or none.
func (m agentMatch) names(v string, dst []string) []string {
	if m == matchGoogle {
		return append(dst, fileToken(v))
	}
	name, cut := CrawlerName(v)
	if name == "" {
		return dst
	}
	if !cut || !strings.ContainsAny(v, " \t") {
		return append(dst, name)
	}
	n := len(dst)
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' }) {
		wn, wcut := CrawlerName(w)
		if wcut || wn == "" {
			return append(dst[:n], name) // not a list of names
		}
		dst = append(dst, wn)
	}
	return dst
}

// token returns the name a caller's agent string is matched by, and
// false when it names no crawler and selects only the "*" groups ("*", or
// a string with no crawler name at its start).
func (m agentMatch) token(agent string) (string, bool) {
	if m == matchGoogle {
		return agent, true
	}
	if strings.TrimSpace(agent) == "*" {
		return "", false
	}
	tok := ProductToken(agent)
	return tok, tok != ""
}

// selects reports whether a User-agent value (not one naming every
// crawler) selects the crawler matched by tok.
func (m agentMatch) selects(v, tok string) bool {
	if m == matchContains {
		return containsFold(v, tok)
	}
	var buf [4]string
	for _, n := range m.names(v, buf[:0]) {
		if equalFoldASCII(n, tok) {
			return true
		}
	}
	return false
}

// percentRule is how a profile compares percent escapes and octets
// outside ASCII in patterns and paths.
type percentRule uint8

const (
	percentAsWritten percentRule = iota // octets compared as written (1994)
	percentRFC                          // RFC 9309 2.2.2, both sides: normRFC
	percentGoogle                       // the pattern only: escapeGoogle; the URL as given
	percentDraft                        // both sides: normDraft (1996/97 draft 3.2.2)
)

// pattern returns a non-empty pattern in the rule's comparison form.
func (r percentRule) pattern(pat string) string {
	switch r {
	case percentGoogle:
		pat = match.EscapeGoogle(pat)
	case percentRFC:
		if match.NeedsNormRFC(pat) || strings.IndexByte(pat[:len(pat)-1], '$') >= 0 {
			var buf [normBuf]byte
			pat = changed(pat, match.NormRFC(buf[:0], pat, false))
		}
	case percentDraft:
		if strings.IndexByte(pat, '%') >= 0 {
			var buf [normBuf]byte
			pat = changed(pat, match.NormDraft(buf[:0], pat))
		}
	}
	return pat
}

// normBuf is the room on the stack for a pattern's normal form: most
// patterns that need one are shorter.
const normBuf = 256

// changed returns pat if norm, its normal form, is the same bytes (as in
// most patterns with escapes: "%D0%BA" is already in RFC 9309's form), and
// norm as a new string if not. A pattern kept as written costs no
// allocation.
func changed(pat string, norm []byte) string {
	if string(norm) == pat {
		return pat
	}
	return string(norm)
}

// words says how the rule compares escapes, after a profile's name.
func (r percentRule) words() string {
	switch r {
	case percentGoogle:
		return "percent-encodes the rule only and compares the URL as given"
	case percentDraft:
		return "decodes %xx except %2F on both sides"
	case percentAsWritten:
		return "compares octets as written"
	}
	return "decodes escaped unreserved characters and encodes non-ASCII"
}

// groupChoice says how a profile picks a crawler's groups.
func (d *profile) groupChoice() string {
	switch {
	case !d.merge && d.agents == matchContains:
		return "first record whose User-agent contains the name"
	case !d.merge:
		return "first record whose User-agent names the crawler"
	case d.agents == matchGoogle:
		return "whole-name match, same-name groups merged"
	}
	return "product-token match, same-name groups merged"
}

// ruleOrder says in which order a profile tries rules.
func (d *profile) ruleOrder() string {
	switch {
	case d.firstMatch:
		return "in file order; the first match decides"
	case d.tieAllow:
		return "longest match first; on a tie Allow wins"
	}
	return "longest match first; on a tie the first in file order"
}

// profilesWhere returns the profiles whose row satisfies ok, in table
// order: the profiles a lint finding concerns (see Concerns).
func profilesWhere(ok func(*profile) bool) []Profile {
	var out []Profile
	for i := range profiles {
		if ok(&profiles[i]) {
			out = append(out, Profile(i))
		}
	}
	return out
}

// joinNames joins profile names as a sentence does: "draft and norobots",
// "a, b and c".
func joinNames(ps []Profile) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.String()
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
