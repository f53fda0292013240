package robots

import (
	"strings"
	"unsafe"
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
func (a *Agent) Decide(url string) Decision {
	raw, slash := pathOf(url)
	if !slash {
		switch a.percent {
		case percentRFC:
			if !needsNormRFCPath(raw) {
				return a.decidePath(raw)
			}
		case percentDraft:
			if strings.IndexByte(raw, '%') < 0 {
				return a.decidePath(raw)
			}
		default:
			return a.decidePath(raw)
		}
	}
	return a.decideRewritten(raw, slash)
}

// decideRewritten normalises the path into a stack buffer (kept out of
// Decide so the common case does not pay for clearing it).
func (a *Agent) decideRewritten(raw string, slash bool) Decision {
	var buf [pathBufSize]byte
	return a.decidePath(bytesString(a.appendPath(buf[:0], raw, slash)))
}

// appendPath appends a URL's raw path (from pathOf) to dst in the
// profile's comparison form: what Decide and Usage match rules against.
func (a *Agent) appendPath(dst []byte, raw string, slash bool) []byte {
	if slash {
		dst = append(dst, '/')
	}
	switch a.percent {
	case percentRFC:
		return normRFC(dst, raw, true)
	case percentDraft:
		return normDraft(dst, raw)
	}
	return append(dst, raw...)
}

// decidePath decides a path in the profile's comparison form.
func (a *Agent) decidePath(path string) Decision {
	if a.robotsTxt && path == "/robots.txt" {
		return Decision{Allowed: true, Reason: ReasonRobotsTxt}
	}
	if len(a.rules) > 0 {
		if k := a.index().lookup(path); k != noRule {
			r := a.rules[k]
			return Decision{Allowed: r.Allow, Rule: r, Group: r.Group, Global: a.global, Reason: ReasonRule}
		}
	}
	if len(a.groups) == 0 {
		return Decision{Allowed: true, Reason: ReasonNoGroup}
	}
	return Decision{Allowed: true, Group: a.groups[0], Global: a.global, Reason: ReasonNoRule}
}

// index returns the agent's rule index, building it on first use: most
// callers decide for one crawler of the many a file names.
func (a *Agent) index() *ruleIndex {
	if ix := a.ix.Load(); ix != nil {
		return ix
	}
	a.ixOnce.Do(func() { a.ix.Store(buildIndex(a.rules)) })
	return a.ix.Load()
}

func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// match reports whether the rule's pattern matches path.
func (r *Rule) match(path string) bool {
	switch {
	case r.never:
		return false
	case r.wild:
		return globMatch(r.lit, r.anchored, path)
	case r.anchored:
		return path == r.lit
	}
	return strings.HasPrefix(path, r.lit)
}

// globMatch matches a pattern with '*' (and no '$') against a prefix of
// path (all of path when anchored). Each middle segment is placed at its
// leftmost occurrence after the previous one: with '*' the only wildcard,
// a leftmost placement leaves the most room for what follows, so no
// backtracking is needed. The segments are read from the pattern as it is:
// nothing is stored per '*'.
func globMatch(pat string, anchored bool, path string) bool {
	i := strings.IndexByte(pat, '*')
	return strings.HasPrefix(path, pat[:i]) && globTail(pat[i+1:], anchored, path[i:])
}

// globTail matches what follows a pattern's first '*' against what
// follows the pattern's literal prefix in the path.
func globTail(mid string, anchored bool, rest string) bool {
	last := ""
	if j := strings.LastIndexByte(mid, '*'); j >= 0 {
		mid, last = mid[:j], mid[j+1:]
	} else {
		mid, last = "", mid
	}
	if anchored && !strings.HasSuffix(rest, last) {
		return false // cheap rejection before any search
	}
	return globSegments(mid, last, anchored, rest)
}

// globSegments places the middle segments mid ("a*b*c") at their leftmost
// occurrences in rest, then the last segment after them.
func globSegments(mid, last string, anchored bool, rest string) bool {
	for mid != "" {
		seg := mid
		if j := strings.IndexByte(mid, '*'); j >= 0 {
			seg, mid = mid[:j], mid[j+1:]
		} else {
			mid = ""
		}
		if seg == "" {
			continue
		}
		j := strings.Index(rest, seg)
		if j < 0 {
			return false
		}
		rest = rest[j+len(seg):]
	}
	if anchored {
		return strings.HasSuffix(rest, last)
	}
	return strings.Contains(rest, last)
}
