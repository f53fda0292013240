package discover

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/sitetxt/sitetxt/datatxt"
)

// catalog merges the records into one entry per dataset.
func (r *run) catalog(ctx context.Context) *datatxt.Catalog {
	c := &datatxt.Catalog{Name: r.site + "/", Base: r.site + "/", Form: datatxt.FormAuto}
	for _, g := range r.groups() {
		c.Entries = append(c.Entries, r.merge(g))
	}
	r.access(ctx, c)
	c.Diagnostics = append(c.Diagnostics, r.diags...)
	c.Diagnostics.Sort()
	return c
}

// groups returns the records that name one dataset together: records
// sharing an identifier, a file URL or a landing page, from different
// documents (two datasets one document lists are two datasets, whatever
// they share). Each group is in precedence order (Kinds, then the order
// read); the groups are in the order of their first records.
func (r *run) groups() [][]*record {
	n := len(r.records)
	parent := make([]int, n)
	docs := make([]map[string]bool, n)
	for i, rec := range r.records {
		parent[i] = i
		docs[i] = map[string]bool{rec.src: true}
	}
	var root func(int) int
	root = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := map[string]int{}
	for i, rec := range r.records {
		for _, k := range mergeKeys(rec) {
			j, ok := owner[k]
			if !ok {
				owner[k] = i
				continue
			}
			ri, rj := root(i), root(j)
			if ri == rj {
				continue
			}
			if shared := sharedDoc(docs[ri], docs[rj]); shared != "" {
				if r.records[j].src == rec.src {
					continue // two datasets of one document
				}
				r.diag(warnSev, "ambiguous-match", rec.src, rec.pos, fmt.Sprintf("dataset %q shares %s with dataset %q, but %s lists both apart: not merged",
					rec.label(), strings.SplitN(k, ":", 2)[1], r.records[j].label(), shared))
				continue
			}
			parent[rj] = ri
			for d := range docs[rj] {
				docs[ri][d] = true
			}
		}
	}
	byRoot := map[int][]*record{}
	var order []int
	for i, rec := range r.records {
		ri := root(i)
		if _, ok := byRoot[ri]; !ok {
			order = append(order, ri)
		}
		byRoot[ri] = append(byRoot[ri], rec)
	}
	out := make([][]*record, 0, len(order))
	for _, ri := range order {
		g := byRoot[ri]
		sort.SliceStable(g, func(a, b int) bool { return g[a].kind.precedence() < g[b].kind.precedence() })
		out = append(out, g)
	}
	sort.SliceStable(out, func(a, b int) bool {
		pa, pb := out[a][0].kind.precedence(), out[b][0].kind.precedence()
		return pa < pb || pa == pb && out[a][0].seq < out[b][0].seq
	})
	return out
}

func sharedDoc(a, b map[string]bool) string {
	for d := range a {
		if b[d] {
			return d
		}
	}
	return ""
}

// label names a record in messages.
func (rec *record) label() string {
	switch {
	case rec.name != "":
		return rec.name
	case rec.id != "":
		return rec.id
	case rec.landing != "":
		return rec.landing
	}
	return rec.src
}

// mergeKeys are the keys a record is merged by: its identifiers, its
// files' URLs and its landing page, each written one way.
func mergeKeys(rec *record) []string {
	var out []string
	for _, id := range append([]string{rec.id}, rec.keys...) {
		if id != "" {
			out = append(out, "id:"+normID(id))
		}
	}
	for _, f := range rec.files {
		out = append(out, "file:"+normURL(f.url))
	}
	if rec.landing != "" {
		out = append(out, "page:"+normURL(rec.landing))
	}
	return out
}

// doiPrefixes are the ways a DOI is written as a URL or URI.
var doiPrefixes = []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"}

// normID writes an identifier one way: a DOI as "doi:" and its lower-case
// name (DOIs are case-insensitive), a URL as normURL writes it.
func normID(id string) string {
	for _, p := range doiPrefixes {
		if len(id) > len(p) && strings.EqualFold(id[:len(p)], p) {
			return "doi:" + strings.ToLower(id[len(p):])
		}
	}
	return normURL(id)
}

// normURL writes a URL one way: scheme and host in lower case, no default
// port, no fragment, "/" for an empty path.
func normURL(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || !u.IsAbs() {
		return strings.TrimSpace(s)
	}
	u.Scheme, u.Host, u.Fragment, u.RawFragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), "", ""
	if h, p, ok := strings.Cut(u.Host, ":"); ok && (p == "80" && u.Scheme == "http" || p == "443" && u.Scheme == "https") {
		u.Host = h
	}
	if u.Path == "" && u.Opaque == "" {
		u.Path = "/"
	}
	return u.String()
}

// listKeys are metadata whose values from several sources are joined,
// not chosen between.
var listKeys = map[string]bool{"keywords": true, "keyword": true, "tags": true, "access_urls": true}

// merge makes one entry of a group: the first source (in precedence
// order) that gives a field gives its value; a later one that gives
// another is reported, and its value left out.
func (r *run) merge(g []*record) *datatxt.Entry {
	lead := g[0]
	e := &datatxt.Entry{Pos: lead.pos, Source: lead.src, Metadata: map[string]any{}}
	if lead.entry != nil {
		cp := *lead.entry // the data.txt's entry, its paths as written
		e = &cp
		e.Metadata = map[string]any{}
		e.Paths, e.URLs = slices.Clone(cp.Paths), slices.Clone(cp.URLs)
		e.Name = "" // merged again below, as every source's
	}
	e.Provenance = map[string]datatxt.SourceRef{}
	if lead.entry != nil {
		for i := range e.Paths {
			e.Provenance[fmt.Sprintf("/paths/%d", i)] = datatxt.SourceRef{Kind: string(lead.kind), URL: lead.src}
		}
	}
	m := &merger{r: r, e: e, from: map[string]*record{}}
	for _, rec := range g {
		ref := datatxt.SourceRef{Kind: string(rec.kind), URL: rec.src}
		if !slices.Contains(e.Sources, ref) {
			e.Sources = append(e.Sources, ref)
		}
		if rec.landing != "" {
			rec.meta["landing_page"] = rec.landing
		}
		m.field(rec, "/name", &e.Name, rec.name)
		m.field(rec, "/id", &e.ID, rec.id)
		for _, k := range slices.Sorted(maps.Keys(rec.meta)) {
			m.meta(rec, k, rec.meta[k])
		}
		m.files(rec)
	}
	m.pageFallback(g)
	if e.Name == "" && allSignposting(g) {
		r.diag(warnSev, "no-name", lead.src, lead.pos, fmt.Sprintf("dataset %s: its Signposting links give no name, its landing page no title, and no other source names it", lead.label()))
	}
	return e
}

func allSignposting(g []*record) bool {
	for _, rec := range g {
		if rec.kind != Signposting {
			return false
		}
	}
	return true
}

// pageFallback names a dataset no source names after its Signposting
// landing page's title, and describes it with the page's description
// when none describes it: a page's title is a fallback, never a value
// that disagrees with a source's.
func (m *merger) pageFallback(g []*record) {
	for _, rec := range g {
		if rec.kind != Signposting {
			continue
		}
		if m.e.Name == "" && rec.pageTitle != "" {
			m.field(rec, "/name", &m.e.Name, rec.pageTitle)
		}
		if _, ok := m.e.Metadata["description"]; !ok && rec.pageDescription != "" {
			m.meta(rec, "description", rec.pageDescription)
		}
	}
}

// merger builds one merged entry.
type merger struct {
	r    *run
	e    *datatxt.Entry
	from map[string]*record // the record each field's value came from
}

func (m *merger) ref(rec *record) datatxt.SourceRef {
	return datatxt.SourceRef{Kind: string(rec.kind), URL: rec.src}
}

// field merges a string field at a JSON Pointer.
func (m *merger) field(rec *record, ptr string, dst *string, v string) {
	if v == "" {
		return
	}
	if *dst == "" {
		*dst, m.from[ptr] = v, rec
		m.e.Provenance[ptr] = m.ref(rec)
		return
	}
	if ptr != "/id" && !same(*dst, v) { // a dataset has many identifiers: the first is its IRI
		m.disagree(rec, ptr, strings.TrimPrefix(ptr, "/"), *dst, v)
	}
}

// meta merges a metadata value.
func (m *merger) meta(rec *record, k string, v any) {
	ptr := "/metadata/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
	old, ok := m.e.Metadata[k]
	switch {
	case !ok:
		m.e.Metadata[k], m.from[ptr] = v, rec
		m.e.Provenance[ptr] = m.ref(rec)
	case listKeys[k]:
		m.e.Metadata[k] = union(old, v)
	case !same(fmt.Sprint(old), fmt.Sprint(v)):
		m.disagree(rec, ptr, k, fmt.Sprint(old), fmt.Sprint(v))
	}
}

// files merges a record's files into the entry's paths.
func (m *merger) files(rec *record) {
	e := m.e
	have := map[string]int{}
	for i, u := range e.URLs {
		have[normURL(u)] = i
	}
	for _, f := range rec.files {
		n := normURL(f.url)
		if _, ok := have[n]; !ok {
			have[n] = len(e.URLs)
			e.Paths, e.URLs = append(e.Paths, f.url), append(e.URLs, f.url)
			e.Provenance[fmt.Sprintf("/paths/%d", len(e.Paths)-1)] = m.ref(rec)
		} else if rec.entry != nil {
			continue // the data.txt's own path
		}
		u := e.URLs[have[n]]
		if f.mediaType == "" && f.size < 0 {
			continue
		}
		if e.Files == nil {
			e.Files = map[string]datatxt.FileInfo{}
		}
		info, known := e.Files[u]
		if !known {
			info = datatxt.FileInfo{Size: -1}
		}
		ptr := "/files/" + u
		switch {
		case f.mediaType == "":
		case info.MediaType == "":
			info.MediaType, m.from[ptr] = f.mediaType, rec
		case info.MediaType != f.mediaType:
			m.disagree(rec, ptr, "media type of "+u, info.MediaType, f.mediaType)
		}
		if info.Size < 0 {
			info.Size = f.size
		}
		e.Files[u] = info
	}
}

// disagree reports that rec gives another value than the one kept.
func (m *merger) disagree(rec *record, ptr, field, kept, other string) {
	keptFrom := m.from[ptr]
	if keptFrom == nil {
		keptFrom = rec
	}
	m.r.diag(warnSev, "sources-disagree", rec.src, rec.pos, fmt.Sprintf("dataset %q: %s: %s says %q, %s (%s) says %q: kept %s's",
		m.e.Title(), field, rec.kind, short(other), keptFrom.kind, keptFrom.src, short(kept), keptFrom.kind))
}

func short(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}

// same reports whether two sources' values of a field say the same:
// equal once spaces are collapsed; URLs (licences, landing pages) equal
// as normURL writes them, http and https and a final "/" aside; dates
// equal on the day when one of them has no time.
func same(a, b string) bool {
	a, b = strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " ")
	if a == b {
		return true
	}
	if isAbsURL(a) && isAbsURL(b) {
		strip := func(s string) string {
			s = strings.TrimSuffix(normURL(s), "/")
			return strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://")
		}
		return strip(a) == strip(b) || normID(a) == normID(b)
	}
	if len(a) >= 10 && len(b) >= 10 && (len(a) == 10 || len(b) == 10) && isDate(a[:10]) && a[:10] == b[:10] {
		return true
	}
	return false
}

func isDate(s string) bool {
	return len(s) == 10 && s[4] == '-' && s[7] == '-' && strings.Trim(s[:4]+s[5:7]+s[8:], "0123456789") == ""
}

// union joins two list values, each item once, in order.
func union(a, b any) any {
	var out []any
	seen := map[string]bool{}
	for _, v := range []any{a, b} {
		items, ok := v.([]any)
		if !ok {
			items = []any{v}
		}
		for _, it := range items {
			if k := fmt.Sprint(it); !seen[k] {
				seen[k] = true
				out = append(out, it)
			}
		}
	}
	return out
}

// access decides each entry's access for the agent from the site's
// robots.txt, for its URLs on the site (a data.txt's own rules were
// applied when it was read): Allowed when they all are, Disallowed when
// one is not; an entry with no URL on the site stays Unknown.
func (r *run) access(ctx context.Context, c *datatxt.Catalog) {
	for _, e := range c.Entries {
		if e.Access == datatxt.Disallowed {
			continue
		}
		for _, u := range e.URLs {
			if !r.onSite(u) {
				continue
			}
			if !r.client.Allowed(ctx, r.agent, u) {
				e.Access, e.DeniedBy = datatxt.Disallowed, "robots.txt"
				break
			}
			e.Access = datatxt.Allowed
		}
	}
}
