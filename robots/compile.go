package robots

import (
	"strings"
	"sync"

	"github.com/sitetxt/sitetxt/grammar"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// Policy is a compiled robots.txt file under one profile. It is immutable
// and safe for concurrent use.
type Policy struct {
	profile Profile
	name    string
	groups  []*Group

	// Agent selection, built on the first call that selects an agent
	// (agentsOnce: most callers ask for one crawler, many only compile).
	agentsOnce sync.Once
	at         *agentTable

	sitemaps    []Sitemap
	host        *Host
	cleanParams []*CleanParam
	fileWide    *fileWide // License and Content-Signal lines outside every group; nil when none (most files)
	diags       grammar.Diagnostics
}

// agentTable is a policy's agent selection. Profiles that merge groups
// (rfc9309, google): the merged groups of each product token, found by a
// case-folded hash (or in turn, when there are few), and the merged "*"
// groups. The others (draft, norobots): one Agent per record, searched in
// order.
type agentTable struct {
	byToken map[uint64]int32 // folded hash of a token -> index in tokens; nil for at most smallIndex tokens, searched in turn
	tokens  []tokenAgent
	global  *Agent
	records []*Agent
	none    *Agent
	noneVal Agent
}

// Compile interprets a parsed robots.txt file under profile p. Values the
// profile cannot use (a bad Crawl-delay, a Sitemap that is not a URL) are
// reported by Policy.Diagnostics and never affect the rest of the file.
//
// Compile reads as much of the file as the profile does (Profile.MaxSize):
// a file that grammar.Parse cut at a smaller size limit (File.SizeLimit)
// is parsed again from its text with the profile's, so that a file parsed
// with grammar.Options{} gets google's verdicts on all of it, as sitetxt
// does. The policy's rules then point into that parse. Parse with
// Profile.ParseOptions to spare the second parse.
//
// The profile decides how it reads the grammar's tree (File.Nodes): rfc9309
// and google group the User-agent and rule lines of its nodes in order,
// as their groups are not blank-line records; draft and norobots take its
// records for groups, which blank lines end, as their texts define.
//
// Compile reads the groups and rules; which groups apply to which crawler
// (the agent tables, with each crawler's rules in decision order) is built
// on the first call that selects a crawler, once: a caller that only
// compiles, or lints the groups, does not pay for it.
func Compile(f *grammar.File, p Profile) *Policy {
	if int(p) >= len(profiles) {
		p = RFC9309
	}
	f = readAs(f, p)
	c := compiler{file: f, desc: p.desc(), profile: p}
	if c.desc.records {
		c.readRecords()
	} else {
		c.readLines()
	}
	c.pol.diags.Sort()
	return c.pol
}

// readAs returns f, or f parsed again from its text when its parse
// stopped at a size limit short of what profile p reads.
func readAs(f *grammar.File, p Profile) *grammar.File {
	want := p.MaxSize()
	if f.Ignored == "" || f.SizeLimit < 0 || want >= 0 && want <= f.SizeLimit {
		return f
	}
	text := f.Text()
	if len(text)-len(f.Ignored) < f.SizeLimit {
		return f // cut by the line limit, which a second parse would meet again
	}
	return grammar.ParseString(f.Name, text, grammar.Options{MaxSize: want, MaxLineLength: f.LineLimit})
}

// lineKind is what a profile takes a line for.
type lineKind uint8

const (
	kOther lineKind = iota // an extension line, or a line the profile reads as one
	kAgent
	kAllow
	kDisallow
	kNone // a line that is nothing to the compiler: blank, comment, ...

	kStart lineKind = 0x80 // classify: this User-agent line starts a group
)

// kind returns what the profile takes l for: a line of another kind, a
// misspelt field or a line with no colon is kOther unless the profile
// reads lines as Google's parser does, and a line that can be nothing but
// kOther (blank, comment, Mobile-agent-server, invalid) is kNone. Under
// googleLines it is for a line without control bytes: classify reads the
// others with googleKind. It is a look-up in the profile's table
// (kindsOf) by the line's Kind and flags (kindIndex), inlined where it is
// called; classify, which reads every line, looks up the table itself.
func (c *compiler) kind(l *grammar.Line) lineKind {
	return kindsOf(c.desc)[kindIndex(l.Kind, l.Typo, l.NoColon)]
}

// kindIndex is a line's index in a kind table: its Kind, then whether its
// field is misspelt, then whether it has no colon.
func kindIndex(k grammar.Kind, typo, noColon bool) uint8 {
	i := uint8(k) & 7
	if typo {
		i |= 8
	}
	if noColon {
		i |= 16
	}
	return i
}

// googleKind is kind for a line with control bytes, read as Google's
// parser reads it (googleLine). A line it reads as nothing is
// kOther: the grammar's reading of it may still be an extension line.
func (c *compiler) googleKind(l *grammar.Line) lineKind {
	k, _ := c.googleLine(l)
	if lk := kindsOf(c.desc)[kindIndex(k, false, false)]; lk != kNone {
		return lk
	}
	return kOther
}

// kindTables hold what a profile takes a line for, by kindIndex: for
// profiles that read lines as the BNF does, with and without Allow lines,
// and for googleLines, which takes a misspelt field or a line with no
// colon for the field it names.
var kindTables = [3]*[32]lineKind{kindTable(false, false), kindTable(true, false), kindTable(true, true)}

func kindTable(allow, lax bool) *[32]lineKind {
	var t [32]lineKind
	for i := range t {
		switch k := grammar.Kind(i & 7); {
		case k != grammar.Extension && !k.IsRule() && k != grammar.AgentLine:
			t[i] = kNone
		case i >= 8 && !lax:
			t[i] = kOther
		case k == grammar.AgentLine:
			t[i] = kAgent
		case k == grammar.DisallowLine:
			t[i] = kDisallow
		case k == grammar.AllowLine && allow:
			t[i] = kAllow
		}
	}
	return &t
}

// kindsOf returns profile d's kind table.
func kindsOf(d *profile) *[32]lineKind {
	switch {
	case d.googleLines:
		return kindTables[2]
	case d.allow:
		return kindTables[1]
	}
	return kindTables[0]
}

type compiler struct {
	pol     *Policy // made by alloc
	file    *grammar.File
	desc    *profile
	profile Profile
	// controls is set by classify, under googleLines, when a line holds
	// a NUL, vertical tab or form feed: only then are lines re-read as
	// Google reads them (googleLine).
	controls bool

	// Slabs: every Rule, rule pointer, group, agent value and agent line of
	// the file comes from one allocation each; groups take sub-slices.
	slab       []Rule
	rules      []*Rule
	agents     []string
	agentLines []*grammar.Line
	groups     []Group // the last is the one being read: its slices end the slabs
	groupPtrs  []*Group
	// extLeft counts the lines classify took for extension lines that
	// readLines has not read yet (the one being read included): the first
	// Sitemap line makes the policy's list with room for that many
	// (extension).
	extLeft int

	// Where the last group's rules and agents start in the slabs: it gets
	// its sub-slices when the next group starts, or at finish (closeGroup).
	ruleStart, agentStart int
}

// newRule returns a zero Rule from the slab.
func (c *compiler) newRule() *Rule {
	if len(c.slab) == cap(c.slab) {
		c.slab = make([]Rule, 0, 8)
	}
	c.slab = c.slab[:len(c.slab)+1]
	return &c.slab[len(c.slab)-1]
}

// value returns the line's value as the profile reads it (see googleLine).
func (c *compiler) value(l *grammar.Line) string {
	if c.desc.googleLines {
		_, v := c.googleLine(l)
		return v
	}
	return l.Value
}

// alloc makes the policy and the slabs for nGroups groups, nAgents agent
// lines and nRules rules.
func (c *compiler) alloc(nGroups, nAgents, nRules int) {
	switch {
	case nGroups == 1 && nAgents <= len(policySlab{}.agents) && nRules <= len(smallPolicySlab{}.rules):
		// The rules too: a small file's policy is one allocation.
		s := &smallPolicySlab{}
		c.onePolicy(&s.policySlab, nAgents)
		c.slab, c.rules = s.rules[:0:nRules], s.rulePtrs[:0:nRules]
	case nGroups == 1 && nAgents <= len(policySlab{}.agents):
		c.onePolicy(&policySlab{}, nAgents)
		c.slab, c.rules = make([]Rule, 0, nRules), make([]*Rule, 0, nRules)
	default:
		c.pol = &Policy{}
		c.groups = make([]Group, 0, nGroups)
		c.agents = make([]string, 0, nAgents)
		c.agentLines = make([]*grammar.Line, 0, nAgents)
		c.slab, c.rules = make([]Rule, 0, nRules), make([]*Rule, 0, nRules)
	}
	c.pol.profile, c.pol.name = c.profile, c.file.Name
}

// onePolicy takes the policy, its group and its nAgents agents from s.
func (c *compiler) onePolicy(s *policySlab, nAgents int) {
	c.pol, c.groups, c.groupPtrs = &s.pol, s.group[:0], s.groupPtrs[:0]
	c.agents, c.agentLines = s.agents[:0:nAgents], s.agentLines[:0:nAgents]
}

// policySlab is a Policy of one group of a few User-agent lines (at most
// 3), the most common file, with that group: one allocation.
type policySlab struct {
	pol        Policy
	group      [1]Group
	groupPtrs  [1]*Group
	agents     [3]string
	agentLines [3]*grammar.Line
}

// smallPolicySlab is a policySlab with the rules of a file of at most
// smallRules, the most that keep it within Go's 896-byte size class with
// the 8-byte header Go gives an object of pointers over 512 bytes (the
// corpus's median file has 6 rules; TestSmallPolicySlabSize checks the
// size). A larger array would cost every small file the bytes of the rules
// it does not have, and the collector's work follows the bytes.
type smallPolicySlab struct {
	policySlab
	rules    [smallRules]Rule
	rulePtrs [smallRules]*Rule
}

const smallRules = 7

// newGroup ends the last group (closeGroup) and starts the next (within
// the capacity alloc gave: the groups' slices point into the slabs, which
// must not move).
func (c *compiler) newGroup() *Group {
	c.closeGroup()
	if len(c.groups) == cap(c.groups) {
		panic("robots: more groups than counted")
	}
	c.groups = c.groups[:len(c.groups)+1] // a zero Group, filled in field by field
	g := &c.groups[len(c.groups)-1]
	g.index = len(c.groups) - 1
	c.ruleStart, c.agentStart = len(c.rules), len(c.agents)
	return g
}

// closeGroup gives the last group its part of the slabs: the rules and
// agents added since it started, with no room to append to.
func (c *compiler) closeGroup() {
	if len(c.groups) == 0 {
		return
	}
	g := &c.groups[len(c.groups)-1]
	nr, na := len(c.rules), len(c.agents)
	g.Rules = c.rules[c.ruleStart:nr:nr]
	g.Agents, g.AgentLines = c.agents[c.agentStart:na:na], c.agentLines[c.agentStart:na:na]
}

// addAgent adds a User-agent line to g, the last group.
func (c *compiler) addAgent(g *Group, l *grammar.Line) {
	v := c.value(l)
	c.agents = append(c.agents, v)
	c.agentLines = append(c.agentLines, l)
	if c.desc.agents.isGlobal(v) {
		g.Global = true
	}
}

// finish ends the last group and lists the groups.
func (c *compiler) finish() {
	c.closeGroup()
	if c.groupPtrs == nil {
		c.groupPtrs = make([]*Group, 0, len(c.groups))
	}
	c.pol.groups = c.groupPtrs[:len(c.groups)]
	for i := range c.groups {
		c.pol.groups[i] = &c.groups[i]
	}
}

// readLines groups the file's lines as RFC 9309 (section 2.1) and
// Google's parser do: in order, a User-agent line after a rule starting a
// group; blank lines end nothing. It reads them from the grammar's tree,
// node after node (records and gaps alike: their groups are not the
// records). Rules before the first User-agent line belong to no group and
// are ignored.
func (c *compiler) readLines() {
	var buf [256]lineKind // most files' lines: no allocation for them
	ks := buf[:]
	if n := len(c.file.Lines); n > len(buf) {
		ks = make([]lineKind, n)
	}
	nGroups, nAgents, nRules := c.classify(ks)
	c.alloc(nGroups, nAgents, nRules)
	var cur *Group // nil before the first User-agent line
	i := 0
	for _, n := range c.file.Nodes {
		for _, l := range n.Lines() {
			k := ks[i]
			i++
			if k&kStart != 0 {
				cur, k = c.newGroup(), k&^kStart
			}
			switch k {
			case kAgent:
				c.addAgent(cur, l)
			case kAllow, kDisallow:
				if cur != nil { // else before any User-agent line: ignored
					c.addRule(cur, l, k == kAllow)
				}
			case kOther:
				c.extension(cur, l)
				c.extLeft--
			}
		}
	}
	if nAgents > 0 {
		c.finish()
	}
}

// classify sets ks[i] to what the profile takes the file's line i for
// (kind), the lines read from the tree's nodes in order, with kStart on
// the User-agent lines that start a group (a User-agent line after a
// rule, or the first one), and counts the groups, User-agent lines and
// rules.
func (c *compiler) classify(ks []lineKind) (nGroups, nAgents, nRules int) {
	ks = ks[:len(c.file.Lines)]
	kinds := kindsOf(c.desc) // in a local: a store to ks could alias c's fields
	i := 0
	for _, n := range c.file.Nodes {
		for _, l := range n.Lines() {
			ks[i] = kinds[kindIndex(l.Kind, l.Typo, l.NoColon)]
			i++
		}
	}
	if c.desc.googleLines {
		i = 0
		for _, n := range c.file.Nodes {
			for _, l := range n.Lines() {
				if hasGoogleControl(c.file.LineText(l)) {
					c.controls = true
					ks[i] = c.googleKind(l)
				}
				i++
			}
		}
	}
	// The groups, from the kinds alone: loops with no call in them keep
	// their counts in registers (a Content-Usage line, kOther, is looked
	// up by its index in the file's lines).
	lines := c.file.Lines
	usageRule := c.desc.usageRule
	inGroup := false // a User-agent line was read
	sawRule := false // a rule of the group was read: a User-agent line starts the next
	for i, k := range ks {
		switch k {
		case kAgent:
			nAgents++
			if !inGroup || sawRule {
				inGroup, sawRule = true, false
				nGroups++
				ks[i] = k | kStart
			}
		case kAllow, kDisallow:
			nRules++
			sawRule = inGroup
		case kOther:
			c.extLeft++
			if inGroup && !sawRule && usageRule && lines[i].IsGroupRule() {
				sawRule = true // draft-ietf-aipref-attach: a rule of its group
			}
		}
	}
	return nGroups, nAgents, nRules
}

// readRecords reads the grammar's tree as the 1994 and 1996/97 texts
// group it: each record (File.Records) is a group; the lines of the gaps
// between them belong to no group: their rules are ignored, their
// file-wide lines (Sitemap, Host) still read. Blank lines end records,
// and a User-agent line after an Allow or Disallow line starts the next;
// a profile that does not read Allow lines (norobots) takes a record
// whose rules are all Allow lines, and the record right after it, for
// one.
func (c *compiler) readRecords() {
	f := c.file
	nAgents, nRules := 0, 0
	for _, r := range f.Records {
		nAgents += len(r.Agents)
		for _, l := range r.Lines {
			if l.Kind.IsRule() {
				nRules++
			}
		}
	}
	c.alloc(len(f.Records), nAgents, nRules)
	var cur *Group
	sawRule := false
	afterGap := true // the record follows a gap (or starts the file), not a record
	for _, n := range f.Nodes {
		r := n.Record
		if r == nil {
			for _, l := range n.Gap.Lines {
				c.outside(l)
			}
			afterGap = true
			continue
		}
		if afterGap || cur == nil || sawRule {
			cur, sawRule = c.newGroup(), false
		}
		afterGap = false
		for _, l := range r.Agents {
			c.addAgent(cur, l)
		}
		for _, l := range r.Lines {
			switch k := c.kind(l); k {
			case kAllow, kDisallow:
				sawRule = true
				c.addRule(cur, l, k == kAllow)
			case kOther:
				c.extension(cur, l)
			}
		}
	}
	if len(f.Records) > 0 {
		c.finish()
	}
}

// outside reads a line that is in no record: only extension lines count.
func (c *compiler) outside(l *grammar.Line) {
	if c.kind(l) == kOther {
		c.extension(nil, l)
	}
}

// addRule adds a rule line to g, the last group.
func (c *compiler) addRule(g *Group, l *grammar.Line, allow bool) {
	r := c.newRule()
	r.Allow, r.Line, r.Group, r.Pattern = allow, l, g, c.value(l) // r is zero: no composite copied in
	r.compile(c.profile)
	c.rules = append(c.rules, r)
	if c.desc.indexDir && allow {
		// Google treats ".../index.htm*" as its directory too: an Allow rule
		// whose last segment starts with "index.htm" also allows "dir/$".
		if i := strings.LastIndexByte(r.Pattern, '/'); i >= 0 && strings.HasPrefix(r.Pattern[i:], "/index.htm") {
			ir := &Rule{Allow: true, Line: l, Group: g, Pattern: r.Pattern[:i+1] + "$", Implied: true}
			ir.compile(c.profile)
			c.rules = append(c.rules, ir)
		}
	}
}

// compile fills in the rule's matching form.
func (r *Rule) compile(p Profile) {
	pat := r.Pattern
	if pat == "" {
		return // prio 0: never
	}
	d := p.desc()
	if d.percent == percentRFC && !match.NeedsNormRFCPath(pat) {
		// No '%', '*', '$' or non-ASCII byte, as most patterns: nothing to
		// normalise, no wildcard (one pass over it, a word at a time).
		r.prio, r.lit = int32(min(len(pat), 1<<30)), pat
		return
	}
	r.setPattern(d.percent.pattern(pat), d.wildcards)
}

// setPattern sets the matching form of a normalised pattern; wild says
// whether '*' and a final '$' are special. A run of '*' matches as one
// '*', so it is kept as one: a pattern costs no more than its bytes
// however many '*' it has.
func (r *Rule) setPattern(pat string, wild bool) {
	r.prio = int32(min(len(pat), 1<<30)) // 0, never, for ""
	if wild {
		if strings.HasSuffix(pat, "$") {
			r.anchored = true
			pat = pat[:len(pat)-1]
		}
		if strings.IndexByte(pat, '*') >= 0 {
			r.wild = true
			if strings.Contains(pat, "**") {
				pat = squeezeStars(pat)
			}
		}
	}
	r.lit = pat
}

// squeezeStars replaces each run of '*' in pat with one '*'.
func squeezeStars(pat string) string {
	b := make([]byte, 0, len(pat))
	for i := 0; i < len(pat); i++ {
		if pat[i] == '*' && i > 0 && pat[i-1] == '*' {
			continue
		}
		b = append(b, pat[i])
	}
	return string(b)
}

// Profile returns the profile the policy was compiled under.
func (pol *Policy) Profile() Profile { return pol.profile }

// Name returns the name of the file the policy was compiled from.
func (pol *Policy) Name() string { return pol.name }

// Groups returns the groups (records, under Draft and NoRobots) in file
// order. The caller must not modify them.
func (pol *Policy) Groups() []*Group { return pol.groups }

// Diagnostics returns what the profile could not use: bad extension values.
func (pol *Policy) Diagnostics() grammar.Diagnostics { return pol.diags }
