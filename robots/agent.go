package robots

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// tokenAgent is one entry of agentTable.tokens: a product token as the file
// first writes it, and its agent (shared by tokens that name the same
// groups).
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
	ix        atomic.Pointer[match.Index]
	profile   Profile     // the policy's
	percent   percentRule // its row's, copied here: read on every decision
	robotsTxt bool        // its row's: /robots.txt is always allowed
	global    bool
	rules     []*Rule  // in decision order: the first that matches decides
	groups    []*Group // the groups that apply, in file order; empty when none does

	policy *Policy
	token  string // the token the groups were selected by ("*" for the global groups)
	ixOnce sync.Once
}

// index builds the agent tables, once, on the first call that selects an
// agent: one Agent per record for a profile that does not merge groups,
// else one per product token and one for the "*" groups.
func (pol *Policy) index() { pol.agentsOnce.Do(pol.buildAgents) }

func (pol *Policy) buildAgents() {
	pol.at = &agentTable{}
	pol.at.none = &pol.at.noneVal
	pol.at.none.policy, pol.at.none.profile = pol, pol.profile
	pol.at.none.percent, pol.at.none.robotsTxt = pol.profile.desc().percent, pol.profile.desc().robotsTxt
	if !pol.profile.desc().merge {
		pol.indexRecords()
		return
	}
	pol.indexTokens()
}

// indexRecords makes one Agent per group, in file order, for a profile
// that uses the first group naming a crawler.
func (pol *Policy) indexRecords() {
	pol.at.records = make([]*Agent, len(pol.groups))
	slab := make([]Agent, 0, len(pol.groups))
	for i, g := range pol.groups {
		tok := ""
		if g.Global {
			tok = "*"
		}
		pol.at.records[i] = pol.merge(&slab, tok, pol.groups[i:i+1:i+1], g.Global)
	}
}

// indexTokens makes the agent of each product token the file names, and
// of the "*" groups, for a profile that merges the groups naming a
// crawler.
func (pol *Policy) indexTokens() {
	nGlobal, nValues, lastGlobal := 0, 0, 0
	for i, g := range pol.groups {
		if g.Global {
			nGlobal, lastGlobal = nGlobal+1, i
		}
		nValues += len(g.Agents)
	}
	var global []*Group
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
	var tokBuf [smallIndex]tokGroups
	toks := tokBuf[:0]
	if nValues > smallIndex {
		toks = make([]tokGroups, 0, nValues)
	}
	toks, pol.at.byToken = pol.tokenGroups(toks)
	slab := make([]Agent, 0, len(toks)+1)
	if len(global) > 0 {
		pol.at.global = pol.merge(&slab, "*", global, true)
	}
	pol.at.tokens = make([]tokenAgent, len(toks))
	// Tokens naming the same groups share one agent: files often list
	// dozens of crawlers over one group.
	var singleBuf [smallIndex]*Agent
	var single []*Agent
	if len(pol.groups) > smallIndex {
		single = make([]*Agent, len(pol.groups))
	} else {
		single = singleBuf[:len(pol.groups)]
	}
	var multi map[string]*Agent
	var key []byte
	for i, t := range toks {
		var a *Agent
		if len(t.groups) == 1 {
			gi := t.groups[0].index
			if a = single[gi]; a == nil {
				if nGlobal == 1 && gi == lastGlobal {
					// The "*" group's rules, merged already.
					a = pol.newAgent(&slab, t.tok, t.groups, false)
					a.rules = pol.at.global.rules
				} else {
					a = pol.merge(&slab, t.tok, t.groups, false)
				}
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
		pol.at.tokens[i] = tokenAgent{t.tok, a, t.next}
	}
}

// smallIndex is how many product tokens a policy finds by a linear
// search: below it a hash map costs more than it saves (most files name a
// few crawlers).
const smallIndex = 8

// tokGroups is a product token as the file writes it first, with its
// groups: a sub-slice of Policy.groups while it names one group, its own
// slice once it names more; next is the previous token with the same
// folded hash (in a policy with a hash index), or -1.
type tokGroups struct {
	tok    string
	groups []*Group
	next   int32
}

// tokenGroups appends to toks the product tokens of the policy's groups
// in order of first appearance (compared ignoring ASCII case), each with
// its groups, and returns them with their hash index: nil while there
// are at most smallIndex tokens, found then by a linear search.
func (pol *Policy) tokenGroups(toks []tokGroups) ([]tokGroups, map[uint64]int32) {
	agents := pol.profile.desc().agents
	var byHash map[uint64]int32
	nValues := 0
	for _, g := range pol.groups {
		nValues += len(g.Agents)
	}
	var nameBuf [4]string
	names := nameBuf[:0]
	for i, g := range pol.groups {
		for _, v := range g.Agents {
			if agents.isGlobal(v) {
				continue
			}
			names = agents.names(v, names[:0])
			for _, tok := range names {
				j := findToken(toks, byHash, tok)
				if j < 0 {
					toks = append(toks, tokGroups{tok, pol.groups[i : i+1 : i+1], -1})
					if len(toks) > smallIndex {
						byHash = hashTokens(toks, byHash, nValues)
					}
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
	return toks, byHash
}

// findToken returns the index in toks of tok, compared ignoring ASCII
// case, or -1; byHash is the hash index of toks, or nil for a linear
// search.
func findToken(toks []tokGroups, byHash map[uint64]int32, tok string) int32 {
	if byHash == nil {
		for j := range toks {
			if equalFoldASCII(toks[j].tok, tok) {
				return int32(j)
			}
		}
		return -1
	}
	if j, ok := byHash[foldHash(tok)]; ok {
		for ; j >= 0; j = toks[j].next {
			if equalFoldASCII(toks[j].tok, tok) {
				return j
			}
		}
	}
	return -1
}

// hashTokens adds the tokens of toks that byHash (nil for none) does not
// index yet, the last one or all of them, and returns it; size is how
// many tokens it may hold in the end.
func hashTokens(toks []tokGroups, byHash map[uint64]int32, size int) map[uint64]int32 {
	from := len(toks) - 1
	if byHash == nil {
		byHash = make(map[uint64]int32, size)
		from = 0
	}
	for i := from; i < len(toks); i++ {
		h := foldHash(toks[i].tok)
		toks[i].next = -1
		if j, ok := byHash[h]; ok {
			toks[i].next = j
		}
		byHash[h] = int32(i)
	}
	return byHash
}

// newAgent adds an Agent for the groups gs to the slab, with no rules yet.
func (pol *Policy) newAgent(slab *[]Agent, tok string, gs []*Group, global bool) *Agent {
	d := pol.profile.desc()
	*slab = append(*slab, Agent{policy: pol, profile: pol.profile, percent: d.percent, robotsTxt: d.robotsTxt, token: tok, groups: gs, global: global})
	return &(*slab)[len(*slab)-1]
}

// merge makes one Agent of the groups naming the same token: their rules
// (those that can match) in decision order: file order for a first-match
// profile; else longest pattern first, Allow before Disallow on equal
// length when Allow wins ties, file order after that.
func (pol *Policy) merge(slab *[]Agent, tok string, gs []*Group, global bool) *Agent {
	d := pol.profile.desc()
	a := pol.newAgent(slab, tok, gs, global)
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
				if !r.never() {
					a.rules = append(a.rules, r)
				}
			}
		}
	}
	if d.firstMatch || sortedForDecision(a.rules, d.tieAllow) {
		return a
	}
	if !own {
		a.rules = slices.Clone(a.rules)
	}
	if len(a.rules) <= 64 {
		// Insertion sort, stable: file order stays among equals.
		for i := 1; i < len(a.rules); i++ {
			for j := i; j > 0 && before(a.rules[j], a.rules[j-1], d.tieAllow); j-- {
				a.rules[j], a.rules[j-1] = a.rules[j-1], a.rules[j]
			}
		}
		return a
	}
	// Sort by one integer key: priority (descending), Allow first (when
	// it wins ties), then file order.
	keys := make([]uint64, len(a.rules))
	for i, r := range a.rules {
		k := uint64(1<<24-1-min(r.prio, 1<<24-1)) << 33
		if !r.Allow && d.tieAllow {
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

// before reports whether x comes before y in longest-match order, file
// order aside: a longer pattern first, Allow first on equal length when
// tieAllow is set.
func before(x, y *Rule, tieAllow bool) bool {
	return x.prio > y.prio || tieAllow && x.prio == y.prio && x.Allow && !y.Allow
}

func hasNever(rules []*Rule) bool {
	for _, r := range rules {
		if r.never() {
			return true
		}
	}
	return false
}

// sortedForDecision reports whether rules are already in longest-match
// order.
func sortedForDecision(rules []*Rule, tieAllow bool) bool {
	for i := 1; i < len(rules); i++ {
		x, y := rules[i-1], rules[i]
		if before(y, x, tieAllow) {
			return false
		}
	}
	return true
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

// warm builds, while the policy is compiled, what its first decisions
// would otherwise build: the agent tables, and the rule index of the
// agent that crawlers the file does not name get. A Client's compiles are
// bounded (fetch.Memo, and serve's flights); decisions are not, and a
// large file's index built by each of many waiting decisions would hold
// its policy and the building's memory for as long.
func (pol *Policy) warm() {
	if a := pol.Agent("*"); a != nil && len(a.rules) > 0 {
		a.index()
	}
}

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
	pol.index()
	d := pol.profile.desc()
	tok, named := d.agents.token(agent)
	if !d.merge {
		return pol.recordAgent(d.agents, tok, named)
	}
	if !named {
		return pol.globalOrNone()
	}
	if pol.at.byToken == nil {
		for j := range pol.at.tokens {
			if e := &pol.at.tokens[j]; equalFoldASCII(e.token, tok) {
				return e.agent
			}
		}
	} else {
		if j, ok := pol.at.byToken[foldHash(tok)]; ok {
			for ; j >= 0; j = pol.at.tokens[j].next {
				if e := &pol.at.tokens[j]; equalFoldASCII(e.token, tok) {
					return e.agent
				}
			}
		}
	}
	return pol.globalOrNone()
}

func (pol *Policy) globalOrNone() *Agent {
	if pol.at.global != nil {
		return pol.at.global
	}
	return pol.at.none
}

// recordAgent selects the first record with a User-agent value that
// selects the crawler matched by tok (when named), else the first "*"
// record.
func (pol *Policy) recordAgent(m agentMatch, tok string, named bool) *Agent {
	var star *Agent
	for _, a := range pol.at.records {
		if a.global && star == nil {
			star = a
		}
		if !named {
			continue
		}
		for _, v := range a.groups[0].Agents {
			if !m.isGlobal(v) && m.selects(v, tok) {
				return a
			}
		}
	}
	if star != nil {
		return star
	}
	return pol.at.none
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
	pol.index()
	agents := make([]*Agent, 0, 1+len(pol.at.tokens)+len(pol.at.records))
	if pol.at.global != nil {
		agents = append(agents, pol.at.global)
	}
	for _, e := range pol.at.tokens {
		agents = append(agents, e.agent)
	}
	return append(agents, pol.at.records...)
}
