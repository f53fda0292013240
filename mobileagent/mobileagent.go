// Package mobileagent answers a mobile-agent dispatcher's question about a
// web site: for this URL, which host accepts my agent, if any?
//
// A mobile agent is a program that moves to the host holding the data it
// works on instead of fetching the data over the network. Giudici and
// Sappia's 1997 draft "An Extension to the Web Robots Control Method for
// supporting Mobile Agents" lets a site say, in its /robots.txt, which host
// accepts agents for which part of the site:
//
//	Mobile-agent-server: /            atp://www.fict.org:8001
//	Mobile-agent-server: /home/       none
//	Mobile-agent-server: /home/user1/ atp://user1.fict.org:854
//
// Each line maps a path to a server, written scheme "://" net_loc, or to
// none. For a URL, the line whose path is the longest octet-prefix of the
// URL's path decides; among lines with the same path the later one wins
// ("more recent lines always override older ones"); none, or no matching
// line, means no server. Lines count wherever they stand in the file: before
// the first record or inside any record (they are not per agent).
//
// Compile reads the lines from a parsed file (grammar.File) into a Table,
// validating each against the draft's BNF; a malformed line is a
// diagnostic and is ignored, and the other lines still apply. Table.Lookup
// resolves a URL; Table.Dispatch adds the robots.txt decision, taken from
// any robots policy through the Robots interface so that this package does
// not depend on a robots implementation. docs/mobileagent.md has the rules
// and the draft's erratum.
package mobileagent

import (
	"slices"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// Field is the field name of the lines this package reads, as the draft
// spells it. Field names are compared ignoring case.
const Field = "Mobile-agent-server"

// Server is a host that accepts mobile agents: the target of a
// Mobile-agent-server line, scheme "://" net_loc.
type Server struct {
	// URL is the target as written in the file ("atp://www.fict.org:8001").
	URL string
	// Scheme is the protocol, lower-cased ("atp"); schemes are compared
	// ignoring case (RFC 1738 section 2.1).
	Scheme string
	// NetLoc is the network location as written: everything after "://".
	NetLoc string
	// User is the user part of NetLoc before an "@", or "".
	User string
	// Host is the host name or address, as written.
	Host string
	// Port is the port as written (decimal digits), or "" when the target
	// gives none: the default port of a mobile-agent protocol is not known.
	Port string
}

// String returns the target as written.
func (s *Server) String() string { return s.URL }

// Rule is one valid Mobile-agent-server line.
type Rule struct {
	// Line is the line in the parsed file.
	Line *grammar.Line
	// Path is the path the line assigns, as written.
	Path string
	// Server is the server the path is assigned to, or nil for none.
	Server *Server

	target string // the target as written
	key    string // Path as compared: %xx escapes decoded except %2F
}

// Pos returns where the rule's line starts.
func (r *Rule) Pos() grammar.Pos { return r.Line.Pos }

// String returns the rule in the line's form, with single spaces: its
// path and its target as written ("Mobile-agent-server: /home/
// atp://user2.fict.org:831", or "... /home/ none").
func (r *Rule) String() string { return "Mobile-agent-server: " + r.Path + " " + r.target }

// Target returns the target as written: the server's URL or "none" as the
// file spells it.
func (r *Rule) Target() string { return r.target }

// Result is the answer for one URL.
type Result struct {
	// Server is the server to dispatch to, or nil when there is none: the
	// deciding line says none, or no line matches.
	Server *Server
	// Rule is the deciding line, or nil when no line matches.
	Rule *Rule
}

// HasServer reports whether a server accepts agents for the URL.
func (r Result) HasServer() bool { return r.Server != nil }

// Table is the compiled Mobile-agent-server lines of one file. It is
// immutable and safe for concurrent use.
type Table struct {
	name  string
	rules []*Rule // every valid line, in file order
	index []*Rule // the deciding rule of each distinct path, sorted by path
	diags grammar.Diagnostics
}

// Compile reads every Mobile-agent-server line of f, wherever it stands,
// and returns the table they make. Lines that do not match the draft's
// syntax are left out and reported in Table.Diagnostics, as are
// misspelled field names, paths that cannot match and overridden lines.
// Compile never fails.
func Compile(f *grammar.File) *Table {
	t := &Table{name: f.Name}
	last := make(map[string]*Rule)
	// The tree's lines, node after node: the lines may stand anywhere.
	for _, n := range f.Nodes {
		for _, l := range n.Lines() {
			t.read(f.Name, l, last)
		}
	}
	t.index = make([]*Rule, 0, len(last))
	for _, r := range last {
		t.index = append(t.index, r)
	}
	slices.SortFunc(t.index, func(a, b *Rule) int { return strings.Compare(a.key, b.key) })
	t.diags.Sort()
	return t
}

// read reads one line of file name into t: a Mobile-agent-server line is
// a rule (last holds the rule of each path so far), a line that nearly is
// one a diagnostic.
func (t *Table) read(name string, l *grammar.Line, last map[string]*Rule) {
	switch {
	case l.Kind == grammar.MobileAgentRec && !l.NoColon:
		// A line without a colon is reported by the grammar; it has at
		// most two words, so it could not hold a path and a target.
		r, ds := parseLine(name, l)
		t.diags = append(t.diags, ds...)
		if r == nil {
			return
		}
		t.rules = append(t.rules, r)
		if !strings.HasPrefix(r.Path, "/") {
			return // never matches; reported by parseLine
		}
		r.key = comparable(r.Path)
		if prev := last[r.key]; prev != nil {
			t.diags = append(t.diags, overridden(name, prev, r))
		}
		last[r.key] = r
	case l.Kind == grammar.Extension || l.Kind == grammar.Invalid:
		// "Mobile-agent-server / none" is an invalid line, and
		// "Mobile-agent-server / atp://h:1" an extension whose field is
		// "Mobile-agent-server / atp".
		d := missingColon(name, l)
		if d == nil && l.Kind == grammar.Extension {
			d = nearMiss(name, l)
		}
		if d != nil {
			t.diags = append(t.diags, d)
		}
	}
}

// Name returns the name of the file the table was compiled from.
func (t *Table) Name() string { return t.name }

// Rules returns every valid Mobile-agent-server line, in file order,
// including lines a later line overrides and lines whose path does not
// start with "/" (which never match).
func (t *Table) Rules() []*Rule { return append([]*Rule(nil), t.rules...) }

// Diagnostics returns what Compile found wrong with the file's
// Mobile-agent-server lines, sorted by position.
func (t *Table) Diagnostics() grammar.Diagnostics {
	return append(grammar.Diagnostics(nil), t.diags...)
}

// Lookup returns the server for url and the line that decides it. url is
// an absolute URL ("http://www.fict.org/home/") or a path ("/home/"); only
// its path is compared, as the drafts compare paths: %xx escapes decoded
// on both sides except %2F (so a line for "/%7Euser/" serves "/~user/a"),
// then octet by octet. The line whose path is the longest prefix of it
// decides, the later of two lines with the same path. An empty path is
// "/". Lookup does not allocate unless the URL's path holds a %-escape.
func (t *Table) Lookup(url string) Result {
	p := comparable(urlPath(url))
	idx := t.index
	for {
		// i is the greatest path <= p.
		lo, hi := 0, len(idx)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if idx[m].key <= p {
				lo = m + 1
			} else {
				hi = m
			}
		}
		i := lo - 1
		if i < 0 {
			return Result{}
		}
		e := idx[i].key
		if strings.HasPrefix(p, e) {
			r := idx[i]
			return Result{Server: r.Server, Rule: r}
		}
		// Any path that is a prefix of p sorts at or before e, so it is
		// also a prefix of the part p and e share.
		n := 0
		for n < len(p) && n < len(e) && p[n] == e[n] {
			n++
		}
		p = p[:n]
		idx = idx[:i]
	}
}

// comparable returns a path as the drafts compare it: every %xx escape
// decoded except %2F, which stays an escape (upper-cased) because it is
// not a path separator. A path without '%' is returned as it is.
func comparable(p string) string {
	if strings.IndexByte(p, '%') < 0 {
		return p
	}
	b := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]) {
			v := unhex(p[i+1])<<4 | unhex(p[i+2])
			if v == '/' {
				b = append(b, "%2F"...)
			} else {
				b = append(b, v)
			}
			i += 2
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// urlPath returns the path of an absolute URL or of a path, without query
// or fragment: "http://h/a?b" and "/a#b" give "/a", "http://h" gives "/".
// A string that is neither is returned up to its query or fragment, and
// matches only if it starts with "/".
func urlPath(u string) string {
	i := 0
	for i < len(u) && isSchemeChar(u[i]) {
		i++
	}
	if i > 0 && i < len(u) && u[i] == ':' && u[0] != '/' {
		u = u[i+1:]
	}
	// A network-path reference ("//host/path", or what follows "scheme:")
	// names a host first, as package robots reads it too.
	if strings.HasPrefix(u, "//") {
		u = u[2:]
		j := strings.IndexAny(u, "/?#")
		if j < 0 || u[j] != '/' {
			return "/"
		}
		u = u[j:]
	}
	if j := strings.IndexAny(u, "?#"); j >= 0 {
		u = u[:j]
	}
	if u == "" {
		return "/"
	}
	return u
}

// Lint returns what Compile finds wrong with f's Mobile-agent-server lines:
// Compile(f).Diagnostics(). It is what "sitetxt lint" adds for them.
func Lint(f *grammar.File) grammar.Diagnostics { return Compile(f).Diagnostics() }
