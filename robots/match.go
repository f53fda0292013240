package robots

import (
	"strings"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// Allowed reports whether the crawler named agent may fetch url, which is
// an absolute URL or a path. See Agent for what agent may be.
func (pol *Policy) Allowed(agent, url string) bool {
	return pol.Agent(agent).Decide(url).Allowed
}

// Decide returns whether the crawler named agent may fetch url, which is
// an absolute URL or a path, and why. See Agent for what agent may be.
func (pol *Policy) Decide(agent, url string) Decision {
	return pol.Agent(agent).Decide(url)
}

// Allowed reports whether the crawler may fetch url, an absolute URL or a
// path.
func (a *Agent) Allowed(url string) bool { return a.Decide(url).Allowed }

// pathBufSize is the stack buffer a decision normalises the path into;
// a longer path that needs rewriting costs one allocation.
const pathBufSize = 2048

// Decide returns whether the crawler may fetch url, an absolute URL or a
// path, and why. It allocates nothing unless the path is longer than 2 KiB
// and needs percent-normalising (the agent's first decision builds its
// rule index).
//
// A decision walks the path down the agent's rule index (see ruleIndex):
// its cost depends on the path and on the wildcard rules whose literal
// prefix the path starts with, not on how many rules the agent has.
// Matching a rule costs O(len(path) + len(pattern)) for patterns without
// '*'. A pattern with '*' is matched segment by segment: each literal
// segment is searched (strings.Index) from where the previous one ended,
// leftmost placement being optimal when '*' is the only wildcard, so there
// is no backtracking and the searches together scan each path byte at most
// once, plus the segments' lengths. Go's strings.Index compares up to
// min(len(segment), 64) bytes per position for segments of up to 64 bytes
// (SIMD brute force) and is expected linear (Rabin-Karp) beyond, so a
// match costs O((len(path) + len(pattern)) * 64) at worst and
// O(len(path) + len(pattern)) in practice: see BenchmarkAdversarial.
func (a *Agent) Decide(url string) (d Decision) {
	// Small enough to be inlined: the Decision is built in the caller's
	// frame (by decide), not returned in six registers loaded back from
	// the stores that built it, and a caller that reads one field reads
	// only that.
	a.decide(url, &d)
	return d
}

// decide fills in d, the Decision of url: the rank found first and the
// Decision built once, here (a Decision returned through several calls
// is copied through the stack at each).
func (a *Agent) decide(url string, d *Decision) {
	k, ok := a.rankURL(url)
	if !ok {
		k = a.rank(url)
	}
	a.decision(k, d)
}

// rank returns the rank of the rule that decides url, match.NoRule when none
// does, or rankRobotsTxt, the long way: what rankURL does not decide.
func (a *Agent) rank(url string) uint32 {
	raw, slash := match.PathOf(url)
	if !slash {
		switch a.percent {
		case percentRFC:
			if !match.NeedsNormRFCPath(raw) {
				return a.rankPath(raw)
			}
		case percentDraft:
			if strings.IndexByte(raw, '%') < 0 {
				return a.rankPath(raw)
			}
		default:
			return a.rankPath(raw)
		}
	}
	return a.rankRewritten(raw, slash)
}

// rankURL decides the common case without finding the path's end or
// testing all of it for bytes to normalise first: a URL whose path starts
// with '/', under a profile whose patterns hold no '#' (see
// ruleIndex.frag). The walk down the rule index stops at a '#' by itself,
// and its outcome depends only on the bytes it read: when none of them
// is one that normalising would change, the path in comparison form
// starts with the same bytes. Only when wildcard rules are to be tried is
// the fragment cut off and the rest of the path tested. ok is false when
// rank must take the long way.
func (a *Agent) rankURL(url string) (k uint32, ok bool) {
	if a.percent == percentDraft {
		return 0, false
	}
	ps := match.PathStart(url)
	if ps < 0 || url[ps] != '/' {
		return 0, false
	}
	raw := url[ps:]
	if a.robotsTxt && len(raw) >= len("/robots.txt") && (raw[1] == 'r' || raw[1] == '%') && mayBeRobotsTxt(raw) {
		return 0, false
	}
	if len(a.rules) == 0 {
		return match.NoRule, true
	}
	return a.index().LookupURL(raw, a.percent == percentRFC)
}

// mayBeRobotsTxt reports whether the path raw may be /robots.txt in
// RFC 9309's comparison form (with a fragment, or written with escapes).
// Its first eleven bytes are "/robots.txt" or hold a '%' when it is: a
// byte other than '%' is compared as itself or becomes an escape, which
// starts with '%'. rankURL tests its length and second byte first.
func mayBeRobotsTxt(raw string) bool {
	const name = "/robots.txt"
	return raw[:len(name)] == name || strings.IndexByte(raw[1:len(name)], '%') >= 0
}

// rankRobotsTxt is the rank of /robots.txt, which is always allowed.
const rankRobotsTxt = match.NoRule - 1

// decision fills in d, the Decision of rank k (from rankURL, rank or
// rankPath).
func (a *Agent) decision(k uint32, d *Decision) {
	// Field by field: a Decision (five fields) lives in memory, and a
	// composite literal is built in a temporary and copied a 16 bytes at a
	// time, which reads back the narrower stores just made.
	switch {
	case k < rankRobotsTxt:
		r := a.rules[k]
		d.Allowed, d.Rule, d.Group, d.Global, d.Reason = r.Allow, r, r.Group, a.global, ReasonRule
	case k == rankRobotsTxt:
		d.Allowed, d.Reason = true, ReasonRobotsTxt
	case len(a.groups) == 0:
		d.Allowed, d.Reason = true, ReasonNoGroup
	default:
		d.Allowed, d.Group, d.Global, d.Reason = true, a.groups[0], a.global, ReasonNoRule
	}
}

// rankRewritten normalises the path into a stack buffer (kept out of
// rank so the common case does not pay for clearing it).
func (a *Agent) rankRewritten(raw string, slash bool) uint32 {
	var buf [pathBufSize]byte
	return a.rankPath(match.BytesString(a.appendPath(buf[:0], raw, slash)))
}

// appendPath appends a URL's raw path (from pathOf) to dst in the
// profile's comparison form: what Decide and Usage match rules against.
func (a *Agent) appendPath(dst []byte, raw string, slash bool) []byte {
	if slash {
		dst = append(dst, '/')
	}
	switch a.percent {
	case percentRFC:
		return match.NormRFC(dst, raw, true)
	case percentDraft:
		return match.NormDraft(dst, raw)
	}
	return append(dst, raw...)
}

// decidePath decides a path in the profile's comparison form.
func (a *Agent) decidePath(path string) (d Decision) {
	a.decision(a.rankPath(path), &d)
	return d
}

// rankPath returns the rank of the rule that decides a path in the
// profile's comparison form, match.NoRule or rankRobotsTxt.
func (a *Agent) rankPath(path string) uint32 {
	if a.robotsTxt && path == "/robots.txt" {
		return rankRobotsTxt
	}
	if len(a.rules) == 0 {
		return match.NoRule
	}
	return a.index().Lookup(path)
}

// index returns the agent's rule index, building it on first use: most
// callers decide for one crawler of the many a file names. It is small
// enough to be inlined: a decision loads the built index without a call.
func (a *Agent) index() *match.Index {
	if ix := a.ix.Load(); ix != nil {
		return ix
	}
	return a.indexOnce()
}

// patterns returns the agent's rules' matching forms, in decision order.
func (a *Agent) patterns() []match.Pattern {
	pats := make([]match.Pattern, len(a.rules))
	for i, r := range a.rules {
		pats[i] = r.pattern()
	}
	return pats
}

// indexOnce builds the agent's rule index once and returns it.
func (a *Agent) indexOnce() *match.Index {
	a.ixOnce.Do(func() { a.ix.Store(match.Build(a.patterns())) })
	return a.ix.Load()
}

// match reports whether the rule's pattern matches path.
func (r *Rule) match(path string) bool { return !r.never() && r.pattern().Match(path) }

// pattern returns the rule's matching form as the engine takes it.
func (r *Rule) pattern() match.Pattern {
	return match.Pattern{Lit: r.lit, Anchored: r.anchored, Wild: r.wild}
}
