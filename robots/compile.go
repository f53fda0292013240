package robots

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sitetxt/sitetxt/grammar"
)

// Policy is a compiled robots.txt file under one profile. It is immutable
// and safe for concurrent use.
type Policy struct {
	profile Profile
	name    string
	groups  []*Group

	// Agent selection. RFC9309 and Google: the merged groups of each
	// product token, found by a case-folded hash, and the merged "*"
	// groups. Draft and NoRobots: one Agent per record, searched in order.
	byToken map[uint64]int32 // folded hash of a token -> index in tokens
	tokens  []tokenAgent
	global  *Agent
	records []*Agent
	none    *Agent
	noneVal Agent

	sitemaps    []Sitemap
	host        *Host
	cleanParams []*CleanParam
	licenses    []License
	diags       grammar.Diagnostics
}

// tokenAgent is one entry of Policy.byToken: a product token, lower case,
// and its agent (shared by tokens that name the same groups).
type tokenAgent struct {
	token string
	agent *Agent
	next  int32 // next entry with the same hash, or -1
}

// Agent is the rules a Policy applies to one crawler, selected once. It is
// immutable and safe for concurrent use.
type Agent struct {
	// What a decision reads comes first, in one cache line: the rule
	// index (built on first use, see ruleIndex), the policy's profile, the
	// rules and the groups.
	ix      atomic.Pointer[ruleIndex]
	profile Profile // the policy's
	global  bool
	rules   []*Rule  // in decision order: the first that matches decides
	groups  []*Group // the groups that apply, in file order; empty when none does

	policy *Policy
	token  string // the token the groups were selected by ("*" for the global groups)
	ixOnce sync.Once
}

// Compile interprets a parsed robots.txt file under profile p. Values the
// profile cannot use (a bad Crawl-delay, a Sitemap that is not a URL) are
// reported by Policy.Diagnostics and never affect the rest of the file.
func Compile(f *grammar.File, p Profile) *Policy {
	if p > NoRobots {
		p = RFC9309
	}
	pol := &Policy{profile: p, name: f.Name}
	c := compiler{pol: pol, file: f}
	c.groupLines()
	pol.index()
	pol.diags.Sort()
	return pol
}

// lineKind is what a profile takes a line for.
type lineKind uint8

const (
	kOther lineKind = iota
	kBlank
	kAgent
	kAllow
	kDisallow
)

// kind returns what the profile takes l for.
func (c *compiler) kind(l *grammar.Line) lineKind {
	p := c.pol.profile
	if p == Google {
		switch k, _ := c.googleLine(l); k {
		case grammar.AgentLine:
			return kAgent
		case grammar.AllowLine:
			return kAllow
		case grammar.DisallowLine:
			return kDisallow
		case grammar.Blank:
			return kBlank
		}
		return kOther
	}
	switch l.Kind {
	case grammar.Blank:
		return kBlank
	case grammar.AgentLine, grammar.AllowLine, grammar.DisallowLine:
	default:
		return kOther
	}
	if l.Typo || l.NoColon {
		return kOther
	}
	switch l.Kind {
	case grammar.AgentLine:
		return kAgent
	case grammar.AllowLine:
		if p == NoRobots {
			return kOther
		}
		return kAllow
	}
	return kDisallow
}

// recordsEndAtBlank reports whether a blank line ends a record.
func (p Profile) recordsEndAtBlank() bool { return p == Draft || p == NoRobots }

type compiler struct {
	pol  *Policy
	file *grammar.File
	// controls is set, under Google, when a line holds a NUL, vertical
	// tab or form feed: only then are lines re-read as Google reads them.
	controls bool

	// Slabs: every Rule, rule pointer, group, agent value and agent line of
	// the file comes from one allocation each; groups take sub-slices.
	slab       []Rule
	rules      []*Rule
	agents     []string
	agentLines []*grammar.Line
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
	if c.pol.profile == Google {
		_, v := c.googleLine(l)
		return v
	}
	return l.Value
}

// googleLine is googleLine for the compiler's file: a file with no NUL,
// vertical tab or form feed (c.controls false, found by one scan when
// compiling starts) reads as the grammar read it, with no scan per line.
func (c *compiler) googleLine(l *grammar.Line) (grammar.Kind, string) {
	if !c.controls {
		return l.Kind, l.Value
	}
	return googleLine(c.file, l)
}

// googleLine returns the kind and value of a line as Google's parser reads
// it (robots.cc: GetKeyAndValueFrom, then ParsedRobotsKey). It differs
// from the grammar only on lines holding a NUL, vertical tab or form feed:
// Google's parser works on C strings, so a NUL ends the line (whatever
// follows, a '#' or the rest of a value, is not there), and it trims with
// absl::StripAsciiWhitespace, to which vertical tab and form feed are
// white space, while only space and tab separate a field from its value
// on a line with no colon. The kinds are AgentLine, AllowLine,
// DisallowLine, Extension (a Sitemap or unknown key) and Invalid (no key
// and value: the parser emits nothing).
func googleLine(f *grammar.File, l *grammar.Line) (grammar.Kind, string) {
	t := f.LineText(l)
	if strings.IndexByte(t, 0) < 0 && strings.IndexByte(t, '\v') < 0 && strings.IndexByte(t, '\f') < 0 {
		return l.Kind, l.Value
	}
	if i := strings.IndexByte(t, 0); i >= 0 {
		t = t[:i]
	}
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	t = trimGoogle(t)
	sep := strings.IndexByte(t, ':')
	if sep < 0 {
		// Two words separated by spaces or tabs, and no more.
		if sep = strings.IndexAny(t, " \t"); sep < 0 || strings.ContainsAny(strings.TrimLeft(t[sep:], " \t"), " \t") {
			return grammar.Invalid, ""
		}
	}
	key := trimGoogle(t[:sep])
	if key == "" {
		return grammar.Invalid, ""
	}
	k, _ := grammar.Classify(key)
	if k == grammar.MobileAgentRec {
		k = grammar.Extension
	}
	return k, trimGoogle(t[sep+1:])
}

// trimGoogle trims what absl::StripAsciiWhitespace trims: space, tab,
// vertical tab, form feed (and CR and LF, which a line cannot hold).
func trimGoogle(s string) string {
	return strings.Trim(s, " \t\v\f\r\n")
}

// groupLines splits the file's lines into groups as the profile does.
func (c *compiler) groupLines() {
	p := c.pol.profile
	if p == Google {
		for _, l := range c.file.Lines {
			if strings.ContainsAny(c.file.LineText(l), "\x00\v\f") {
				c.controls = true
				break
			}
		}
	}
	nAgents, nRules := 0, 0
	for _, l := range c.file.Lines {
		switch c.kind(l) {
		case kAgent:
			nAgents++
		case kAllow, kDisallow:
			nRules++
		}
	}
	if nAgents == 0 {
		for _, l := range c.file.Lines {
			c.extension(nil, l)
		}
		return
	}
	groups := make([]Group, 0, nAgents)
	type span struct{ r0, r1, a0, a1 int }
	spans := make([]span, 0, nAgents)
	c.slab = make([]Rule, 0, nRules)
	c.rules = make([]*Rule, 0, nRules)
	c.agents = make([]string, 0, nAgents)
	c.agentLines = make([]*grammar.Line, 0, nAgents)
	var cur *Group
	sawRule := false
	for _, l := range c.file.Lines {
		switch k := c.kind(l); k {
		case kBlank:
			if p.recordsEndAtBlank() {
				cur = nil
			}
		case kAgent:
			if cur == nil || sawRule {
				groups = append(groups, Group{index: len(groups)})
				cur = &groups[len(groups)-1]
				spans = append(spans, span{len(c.rules), len(c.rules), len(c.agents), len(c.agents)})
				sawRule = false
			}
			v := c.value(l)
			c.agents = append(c.agents, v)
			c.agentLines = append(c.agentLines, l)
			spans[len(spans)-1].a1 = len(c.agents)
			if isGlobalValue(p, v) {
				cur.Global = true
			}
		case kAllow, kDisallow:
			if cur == nil {
				continue // before any User-agent line (or outside a record): ignored
			}
			sawRule = true
			c.addRule(cur, l, k == kAllow)
			spans[len(spans)-1].r1 = len(c.rules)
		default:
			c.extension(cur, l)
			if p == RFC9309 && cur != nil && l.IsGroupRule() {
				sawRule = true // draft-ietf-aipref-attach: a rule of its group
			}
		}
	}
	c.pol.groups = make([]*Group, len(groups))
	for i := range groups {
		g, sp := &groups[i], spans[i]
		g.Rules = c.rules[sp.r0:sp.r1:sp.r1]
		g.Agents = c.agents[sp.a0:sp.a1:sp.a1]
		g.AgentLines = c.agentLines[sp.a0:sp.a1:sp.a1]
		c.pol.groups[i] = g
	}
}

// isGlobalValue reports whether a User-agent value names every crawler.
func isGlobalValue(p Profile, v string) bool {
	switch p {
	case Google:
		// "*" alone or followed by white space as C's isspace has it
		// ("* foo", "*\vfoo").
		return len(v) >= 1 && v[0] == '*' && (len(v) == 1 || v[1] == ' ' || v[1] == '\t' || v[1] == '\v' || v[1] == '\f')
	case RFC9309:
		// "*" alone or followed by white space ("* foo"), as Google.
		return len(v) >= 1 && v[0] == '*' && (len(v) == 1 || v[1] == ' ' || v[1] == '\t')
	}
	return v == "*"
}

func (c *compiler) addRule(g *Group, l *grammar.Line, allow bool) {
	p := c.pol.profile
	r := c.newRule()
	*r = Rule{Allow: allow, Line: l, Group: g, Pattern: c.value(l)}
	r.compile(p)
	c.rules = append(c.rules, r)
	if p == Google && r.Allow {
		// Google treats ".../index.htm*" as its directory too: an Allow rule
		// whose last segment starts with "index.htm" also allows "dir/$".
		if i := strings.LastIndexByte(r.Pattern, '/'); i >= 0 && strings.HasPrefix(r.Pattern[i:], "/index.htm") {
			ir := &Rule{Allow: true, Line: l, Group: g, Pattern: r.Pattern[:i+1] + "$", Implied: true}
			ir.compile(p)
			c.rules = append(c.rules, ir)
		}
	}
}

// compile fills in the rule's matching form.
func (r *Rule) compile(p Profile) {
	pat := r.Pattern
	if pat == "" {
		r.never = true
		return
	}
	r.setPattern(normPattern(p, pat), p == Google || p == RFC9309)
}

// normPattern returns a pattern in profile p's comparison form.
func normPattern(p Profile, pat string) string {
	switch p {
	case Google:
		pat = escapeGoogle(pat)
	case RFC9309:
		if needsNormRFC(pat) || strings.IndexByte(pat[:len(pat)-1], '$') >= 0 {
			pat = string(normRFC(nil, pat, false))
		}
	case Draft:
		if strings.IndexByte(pat, '%') >= 0 {
			pat = string(normDraft(nil, pat))
		}
	}
	return pat
}

// setPattern sets the matching form of a normalised pattern; wild says
// whether '*' and a final '$' are special. A run of '*' matches as one
// '*', so it is kept as one: a pattern costs no more than its bytes
// however many '*' it has.
func (r *Rule) setPattern(pat string, wild bool) {
	r.prio = int32(min(len(pat), 1<<30))
	r.never = pat == ""
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

// index builds the agent tables.
func (pol *Policy) index() {
	pol.none = &pol.noneVal
	pol.none.policy, pol.none.profile = pol, pol.profile
	switch pol.profile {
	case Draft, NoRobots:
		pol.records = make([]*Agent, len(pol.groups))
		slab := make([]Agent, len(pol.groups))
		for i, g := range pol.groups {
			a := &slab[i]
			*a = Agent{policy: pol, profile: pol.profile, groups: pol.groups[i : i+1 : i+1], global: g.Global, rules: g.Rules}
			if hasNever(g.Rules) {
				a.rules = nil
				for _, r := range g.Rules {
					if !r.never {
						a.rules = append(a.rules, r)
					}
				}
			}
			if g.Global {
				a.token = "*"
			}
			pol.records[i] = a
		}
		return
	}
	// The tokens in order of first appearance, each with its groups: a
	// sub-slice of pol.groups while it names one group, its own slice once
	// it names more.
	type tokGroups struct {
		tok    string
		groups []*Group
	}
	at := map[string]int32{}
	var global []*Group
	var nameBuf [4]string
	names := nameBuf[:0]
	nGlobal, nValues, lastGlobal := 0, 0, 0
	for i, g := range pol.groups {
		if g.Global {
			nGlobal, lastGlobal = nGlobal+1, i
		}
		nValues += len(g.Agents)
	}
	switch {
	case nGlobal == 1:
		global = pol.groups[lastGlobal : lastGlobal+1 : lastGlobal+1]
	case nGlobal > 1:
		global = make([]*Group, 0, nGlobal)
		for _, g := range pol.groups {
			if g.Global {
				global = append(global, g)
			}
		}
	}
	toks := make([]tokGroups, 0, nValues)
	for i, g := range pol.groups {
		for _, v := range g.Agents {
			if isGlobalValue(pol.profile, v) {
				continue
			}
			names = valueNames(pol.profile, v, names[:0])
			for _, tok := range names {
				tok = asciiLower(tok)
				j, ok := at[tok]
				if !ok {
					at[tok] = int32(len(toks))
					toks = append(toks, tokGroups{tok, pol.groups[i : i+1 : i+1]})
					continue
				}
				t := &toks[j]
				if t.groups[len(t.groups)-1] == g {
					continue // named twice in one group
				}
				t.groups = append(t.groups, g) // copies on the first append: capacity is 1
			}
		}
	}
	slab := make([]Agent, 0, len(toks)+1)
	if len(global) > 0 {
		pol.global = pol.merge(&slab, "*", global, true)
	}
	pol.byToken = make(map[uint64]int32, len(toks))
	pol.tokens = make([]tokenAgent, len(toks))
	// Tokens naming the same groups share one agent: files often list
	// dozens of crawlers over one group.
	single := make([]*Agent, len(pol.groups))
	var multi map[string]*Agent
	var key []byte
	for i, t := range toks {
		var a *Agent
		if len(t.groups) == 1 {
			gi := t.groups[0].index
			if a = single[gi]; a == nil {
				a = pol.merge(&slab, t.tok, t.groups, false)
				single[gi] = a
			}
		} else {
			key = key[:0]
			for _, g := range t.groups {
				key = binary.AppendUvarint(key, uint64(g.index))
			}
			if a = multi[string(key)]; a == nil {
				a = pol.merge(&slab, t.tok, t.groups, false)
				if multi == nil {
					multi = map[string]*Agent{}
				}
				multi[string(key)] = a
			}
		}
		h := foldHash(t.tok)
		next := int32(-1)
		if j, ok := pol.byToken[h]; ok {
			next = j
		}
		pol.tokens[i] = tokenAgent{t.tok, a, next}
		pol.byToken[h] = int32(i)
	}
}

// merge makes one Agent of the groups naming the same token: their rules in
// decision order, longest pattern first, Allow before Disallow on equal
// length, file order after that.
func (pol *Policy) merge(slab *[]Agent, tok string, gs []*Group, global bool) *Agent {
	*slab = append(*slab, Agent{policy: pol, profile: pol.profile, token: tok, groups: gs, global: global})
	a := &(*slab)[len(*slab)-1]
	own := false // a.rules is the agent's own slice, not a group's
	if len(gs) == 1 && !hasNever(gs[0].Rules) {
		a.rules = gs[0].Rules
	} else {
		n := 0
		for _, g := range gs {
			n += len(g.Rules)
		}
		a.rules, own = make([]*Rule, 0, n), true
		for _, g := range gs {
			for _, r := range g.Rules {
				if !r.never {
					a.rules = append(a.rules, r)
				}
			}
		}
	}
	if sortedForDecision(a.rules) {
		return a
	}
	if !own {
		a.rules = slices.Clone(a.rules)
	}
	if len(a.rules) <= 64 {
		// Insertion sort, stable: file order stays among equals.
		for i := 1; i < len(a.rules); i++ {
			for j := i; j > 0 && before(a.rules[j], a.rules[j-1]); j-- {
				a.rules[j], a.rules[j-1] = a.rules[j-1], a.rules[j]
			}
		}
		return a
	}
	// Sort by one integer key: priority (descending), Allow first, then
	// file order.
	keys := make([]uint64, len(a.rules))
	for i, r := range a.rules {
		k := uint64(1<<24-1-min(r.prio, 1<<24-1)) << 33
		if !r.Allow {
			k |= 1 << 32
		}
		keys[i] = k | uint64(i)
	}
	slices.Sort(keys)
	rules := slices.Clone(a.rules)
	for i, k := range keys {
		a.rules[i] = rules[uint32(k)]
	}
	return a
}

// before reports whether x comes before y in decision order, file order
// aside: a longer pattern first, Allow first on equal length.
func before(x, y *Rule) bool {
	return x.prio > y.prio || x.prio == y.prio && x.Allow && !y.Allow
}

func hasNever(rules []*Rule) bool {
	for _, r := range rules {
		if r.never {
			return true
		}
	}
	return false
}

// sortedForDecision reports whether rules are already in decision order.
func sortedForDecision(rules []*Rule) bool {
	for i := 1; i < len(rules); i++ {
		x, y := rules[i-1], rules[i]
		if before(y, x) {
			return false
		}
	}
	return true
}

// valueNames appends to dst the crawler names a User-agent value in a
// file gives under profile p. Google: one, the run of letters, '-' and '_'
// at its start (Google's ExtractUserAgent; "" matches only an empty
// caller name). Otherwise: a list of names separated by white space, each
// perhaps with a version ("crawler1 crawler2", "FooBot/1 BarBot/2"), names
// each of them; any other value names the
// crawler CrawlerName finds at its start (a whole User-Agent header
// written as a value, "Mozilla/5.0 (compatible; Butterfly/1.0)", names
// "Mozilla" only), or none.
func valueNames(p Profile, v string, dst []string) []string {
	if p == Google {
		return append(dst, fileToken(v))
	}
	name, cut := CrawlerName(v)
	if name == "" {
		return dst
	}
	if !cut || strings.IndexAny(v, " \t") < 0 {
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

// asciiLower returns s with ASCII letters lower-cased (and only those: the
// agent index folds ASCII case only, as equalFoldASCII compares).
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			var b strings.Builder // one allocation
			b.Grow(len(s))
			b.WriteString(s[:i])
			for j := i; j < len(s); j++ {
				c := s[j]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				b.WriteByte(c)
			}
			return b.String()
		}
	}
	return s
}

// fileToken returns the product token of a User-agent value in a file as
// Google's parser reads it: the run of letters, '-' and '_' at its start.
func fileToken(v string) string {
	for i := 0; i < len(v); i++ {
		if !isTokenByte(v[i]) {
			return v[:i]
		}
	}
	return v
}

func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_'
}

// foldHash is FNV-1a over the ASCII-lower-cased bytes of s.
func foldHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
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

// Agent returns the rules that apply to a crawler; choosing them is the
// part of a decision that depends only on the crawler, so a caller checking
// many URLs for one crawler calls Agent once.
//
// agent is the crawler's name. Under RFC9309, Draft and NoRobots it may be
// a whole User-Agent header: the name CrawlerName finds at its start is
// used ("MJ12bot/1.4" is "MJ12bot"), and under RFC9309 it is compared whole
// and ASCII case-insensitively with the names of the file's User-agent
// values. Under Google it is compared whole with the values cut as
// Google's parser cuts them, as Google's parser does: pass the token. The
// name "*" selects the "*" group(s) only.
func (pol *Policy) Agent(agent string) *Agent {
	switch pol.profile {
	case Draft, NoRobots:
		return pol.draftAgent(agent)
	}
	tok := agent
	if pol.profile != Google {
		if strings.TrimSpace(agent) == "*" {
			return pol.globalOrNone()
		}
		tok = ProductToken(agent)
		if tok == "" {
			return pol.globalOrNone()
		}
	}
	if pol.byToken != nil {
		if j, ok := pol.byToken[foldHash(tok)]; ok {
			for ; j >= 0; j = pol.tokens[j].next {
				if e := &pol.tokens[j]; equalFoldASCII(e.token, tok) {
					return e.agent
				}
			}
		}
	}
	return pol.globalOrNone()
}

func (pol *Policy) globalOrNone() *Agent {
	if pol.global != nil {
		return pol.global
	}
	return pol.none
}

// draftAgent selects the first record with a User-agent value containing
// the crawler's token, else the first "*" record.
func (pol *Policy) draftAgent(agent string) *Agent {
	tok := ProductToken(agent)
	if strings.TrimSpace(agent) == "*" {
		tok = ""
	}
	var star *Agent
	for _, a := range pol.records {
		if a.global && star == nil {
			star = a
		}
		if tok == "" {
			continue
		}
		for _, v := range a.groups[0].Agents {
			if v != "*" && containsFold(v, tok) {
				return a
			}
		}
	}
	if star != nil {
		return star
	}
	return pol.none
}

// containsFold reports whether sub is in s, ignoring ASCII case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if equalFoldASCII(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// equalFoldASCII reports whether a and b are equal ignoring ASCII case
// only, as Google's parser compares names (strings.EqualFold would also
// fold "K", the Kelvin sign, to "k").
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x|0x20 != y|0x20 || x|0x20 < 'a' || x|0x20 > 'z' {
			return false
		}
	}
	return true
}

// ProductToken returns the crawler name at the start of a User-Agent
// header, as CrawlerName finds it: "FooBot" for
// "FooBot/2.1 (+https://foo.example/bot)", "MJ12bot" for "MJ12bot/v1.4.8",
// and "" when the header does not start with a name (as "*" or "/x").
func ProductToken(userAgent string) string {
	name, _ := CrawlerName(userAgent)
	return name
}

// CrawlerName returns the crawler name that a User-Agent header, or a
// User-agent value in a file, gives, and whether anything but white space
// was cut off to get it. The name is the header's first product name: after
// any leading white space, everything up to the first white space, control
// byte, '/' (which starts a version), or one of the HTTP delimiters
// `"(),;<=>?@[\]{}` and ':'. Digits and non-ASCII letters are part of the
// name, so "crawler1" and "crawler2" are two crawlers and "360Spider" and
// "Jävla-Foobot" are names whole. A '*' at the start gives "" (it is not a
// name).
//
// The rfc9309, draft and norobots profiles compare crawler names this way
// (rfc9309 whole and case-insensitively, on both sides). cut reports that
// the caller gave more than a name and its version, e.g. a whole header
// "Mozilla/5.0 (compatible; Googlebot/2.1)", whose name is "Mozilla": a
// tool may want to say so; a version alone ("Googlebot/2.1") is not a cut.
// RFC 9309's own product-token grammar is
// narrower (letters, '-' and '_': see ValidAgentName).
func CrawlerName(userAgent string) (name string, cut bool) {
	s := strings.TrimLeft(userAgent, " \t")
	i := 0
	for i < len(s) && !isNameEnd(s[i]) {
		i++
	}
	name = s[:i]
	if strings.HasPrefix(name, "*") {
		name = ""
	}
	rest := s[i:]
	if name != "" && strings.HasPrefix(rest, "/") {
		// A version ("FooBot/2.1") is not part of the name, and dropping
		// it loses nothing.
		j := 1
		for j < len(rest) && rest[j] != ' ' && rest[j] != '\t' {
			j++
		}
		rest = rest[j:]
	}
	return name, strings.TrimRight(rest, " \t") != ""
}

// isNameEnd reports whether c ends a crawler name: white space, a control
// byte, '/' or an HTTP delimiter.
func isNameEnd(c byte) bool {
	if c <= ' ' || c == 0x7f {
		return true
	}
	return strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0
}

// ValidAgentName reports whether name is a product token in RFC 9309's
// grammar (section 2.2.1) and a name Google's parser can match: not empty,
// and only ASCII letters, '-' and '_'. Names outside that grammar
// ("MJ12bot", "360Spider") still select their own groups under rfc9309;
// Google's parser cuts the file's values before the first other character.
func ValidAgentName(name string) bool {
	return name != "" && fileToken(name) == name
}

// Groups returns the groups that apply to the crawler, in file order; none
// when no group applies.
func (a *Agent) Groups() []*Group { return a.groups }

// Global reports whether the crawler fell back to the "*" group(s).
func (a *Agent) Global() bool { return a.global }

// Rules returns the rules that apply, in the order the profile tries them:
// the first that matches decides.
func (a *Agent) Rules() []*Rule { return a.rules }

// CrawlDelay returns the first valid Crawl-delay of the crawler's groups.
func (a *Agent) CrawlDelay() *CrawlDelay {
	for _, g := range a.groups {
		if g.CrawlDelay != nil {
			return g.CrawlDelay
		}
	}
	return nil
}

// RequestRate returns the first valid Request-rate of the crawler's groups.
func (a *Agent) RequestRate() *RequestRate {
	for _, g := range a.groups {
		if g.RequestRate != nil {
			return g.RequestRate
		}
	}
	return nil
}

// VisitTime returns the first valid Visit-time of the crawler's groups.
func (a *Agent) VisitTime() *VisitTime {
	for _, g := range a.groups {
		if g.VisitTime != nil {
			return g.VisitTime
		}
	}
	return nil
}

// allAgents returns every agent the policy can select: the "*" agent, one
// per product token (an agent shared by tokens once per token), and under
// Draft and NoRobots one per record.
func (pol *Policy) allAgents() []*Agent {
	agents := make([]*Agent, 0, 1+len(pol.tokens)+len(pol.records))
	if pol.global != nil {
		agents = append(agents, pol.global)
	}
	for _, e := range pol.tokens {
		agents = append(agents, e.agent)
	}
	return append(agents, pol.records...)
}
