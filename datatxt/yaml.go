package datatxt

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/grammar"
	"gopkg.in/yaml.v3"
)

// maxDepth bounds how deep YAML values nest, aliases included.
const maxDepth = 1000

// lineIndex maps line numbers to byte offsets of their starts, with lines
// ending at "\n", "\r\n" or "\r" as the grammar counts them.
type lineIndex []int

// As in the grammar, a byte-order mark at the start is not part of line 1:
// line 1 starts after it.
func newLineIndex(src string) lineIndex {
	bom := grammar.BOMLen(src)
	idx := lineIndex{bom}
	for i := bom; i < len(src); i++ {
		switch src[i] {
		case '\n':
			idx = append(idx, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			idx = append(idx, i+1)
		}
	}
	return idx
}

// pos returns the grammar.Pos of a 1-based line and 1-based column counted
// in characters (as yaml.v3 counts), clamped to the input.
func (idx lineIndex) pos(src string, line, col int) grammar.Pos {
	if len(idx) == 0 {
		idx = lineIndex{0}
	}
	if line < 1 {
		line, col = 1, 1
	}
	if line > len(idx) {
		return idx.posOf(src, len(src))
	}
	start := idx[line-1]
	end := len(src)
	if line < len(idx) {
		end = idx[line]
	}
	for end > start && (src[end-1] == '\n' || src[end-1] == '\r') {
		end--
	}
	off := start
	for c := 1; c < col && off < end; c++ {
		_, w := utf8.DecodeRuneInString(src[off:end])
		off += w
	}
	return grammar.Pos{Offset: off, Line: line, Column: off - start + 1}
}

// posOf returns the grammar.Pos of a byte offset.
func (idx lineIndex) posOf(src string, off int) grammar.Pos {
	if off > len(src) {
		off = len(src)
	}
	if len(idx) == 0 {
		return grammar.Pos{Offset: off, Line: 1, Column: off + 1}
	}
	if off < idx[0] {
		off = idx[0]
	}
	lo, hi := 0, len(idx)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if idx[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return grammar.Pos{Offset: off, Line: lo + 1, Column: off - idx[lo] + 1}
}

// yamlWalk is the state of walking one YAML document.
type yamlWalk struct {
	p      *parser
	nodes  int
	max    int
	depth  int
	active map[*yaml.Node]bool
	stop   bool // the node budget ran out or a cycle was found
}

// yaml reads p.src as the YAML form.
func (p *parser) yaml() {
	p.lines = newLineIndex(p.src)
	if strings.TrimSpace(strings.TrimPrefix(p.src, "\xEF\xBB\xBF")) == "" {
		at := p.lines.posOf(p.src, 0)
		p.diag(grammar.Warning, "no-entries", at, at, "file lists no datasets")
		return
	}
	w := &yamlWalk{p: p, max: p.opts.maxNodes(), active: map[*yaml.Node]bool{}}
	docs := p.decodeAll()
	for _, n := range docs {
		w.max += countNodes(n)
	}
	for i, n := range docs {
		if w.stop {
			break
		}
		if i == 1 {
			at := w.pos(n)
			p.diag(grammar.Warning, "multiple-documents", at, at,
				"file holds more than one YAML document; the entries of all of them are read")
		}
		w.document(n)
	}
	if len(p.c.Entries) == 0 && !p.c.Diagnostics.HasErrors() {
		at := p.lines.posOf(p.src, 0)
		p.diag(grammar.Warning, "no-entries", at, at, "file lists no datasets")
	}
}

// countNodes counts the nodes written in a document, not following aliases.
func countNodes(n *yaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += countNodes(k)
	}
	return c
}

func (w *yamlWalk) pos(n *yaml.Node) grammar.Pos {
	return w.p.lines.pos(w.p.src, n.Line, n.Column)
}

// enter counts a node and reports whether the walk may go on into it.
func (w *yamlWalk) enter(n *yaml.Node) bool {
	if w.stop {
		return false
	}
	w.nodes++
	if w.nodes > w.max {
		w.stop = true
		at := w.pos(n)
		w.p.diag(grammar.Error, "too-many-nodes", at, at,
			fmt.Sprintf("yaml aliases expand to more than %d nodes; the rest of the file is not read", w.max)).Detail =
			"this is how an alias bomb (billion laughs) looks"
		return false
	}
	if w.depth >= maxDepth {
		w.stop = true
		at := w.pos(n)
		w.p.diag(grammar.Error, "too-deep", at, at,
			fmt.Sprintf("yaml values nest more than %d levels deep; the rest of the file is not read", maxDepth))
		return false
	}
	return true
}

// deref follows aliases, counting each, and reports cycles.
func (w *yamlWalk) deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		if !w.enter(n) {
			return nil
		}
		if n.Alias == nil || w.active[n.Alias] {
			w.stop = true
			at := w.pos(n)
			w.p.diag(grammar.Error, "alias-cycle", at, at,
				fmt.Sprintf("alias *%s refers to a node that contains it; the rest of the file is not read", n.Value))
			return nil
		}
		n = n.Alias
	}
	return n
}

func (w *yamlWalk) document(doc *yaml.Node) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return
	}
	root := w.deref(doc.Content[0])
	if root == nil || !w.enter(root) {
		return
	}
	switch root.Kind {
	case yaml.SequenceNode:
		w.active[root] = true
		for _, item := range root.Content {
			if w.stop {
				break
			}
			w.item(item)
		}
		delete(w.active, root)
	case yaml.MappingNode:
		at := w.pos(root)
		w.p.diag(grammar.Warning, "single-mapping", at, at,
			"file is a single mapping, not a list of datasets; it is read as one entry").Detail =
			"pins 1.0 and later write one such file per pin; datatxt.org's form is a list"
		w.entry(root, at)
	case yaml.ScalarNode:
		at := w.pos(root)
		if root.ShortTag() == "!!null" {
			w.p.diag(grammar.Warning, "no-entries", at, at, "file lists no datasets")
			return
		}
		w.p.diag(grammar.Error, "not-a-list", at, at,
			"file is a single value, not a list of datasets").Detail =
			"a data.txt in the YAML form is a list of mappings, each with a path"
	}
}

// item reads one element of the top-level list.
func (w *yamlWalk) item(n *yaml.Node) {
	at := w.pos(n)
	n = w.deref(n)
	if n == nil || !w.enter(n) {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		w.entry(n, at)
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" || n.Value == "" {
			w.p.diag(grammar.Error, "missing-path", at, at, "dataset entry is empty: it has no path; it is left out")
			return
		}
		w.p.diag(grammar.Warning, "bare-path", at, at,
			fmt.Sprintf("entry %q is a bare value, not a mapping; it is read as a path", n.Value))
		e := &Entry{Paths: []string{n.Value}, Pos: at, namePos: at, pathPos: []grammar.Pos{at},
			Metadata: map[string]any{}}
		w.tagged(n)
		w.p.c.Entries = append(w.p.c.Entries, e)
	default:
		w.p.diag(grammar.Error, "entry-not-mapping", at, at,
			"dataset entry is a list, not a mapping with a path; it is left out")
	}
}

// pair is one key and value of a mapping, after merges.
type pair struct {
	key   string // lower-cased
	k, v  *yaml.Node
	keyAt grammar.Pos
}

// pairs returns the key/value pairs of a mapping, with "<<" merge keys
// expanded (keys written in the mapping win over merged ones) and duplicate
// keys reported (the later value wins).
func (w *yamlWalk) pairs(m *yaml.Node) []pair {
	var out []pair
	index := map[string]int{}
	add := func(pr pair, merged bool) {
		if i, ok := index[pr.key]; ok {
			if merged {
				return
			}
			w.p.diag(grammar.Warning, "duplicate-key", pr.keyAt, pr.keyAt,
				fmt.Sprintf("key %q is also given at line %d; the later value is used", pr.k.Value, out[i].keyAt.Line))
			out[i] = pr
			return
		}
		index[pr.key] = len(out)
		out = append(out, pr)
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content) && !w.stop; i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !w.enter(k) {
			break
		}
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		kk := w.deref(k)
		if kk == nil {
			break
		}
		var name string
		if kk.Kind == yaml.ScalarNode {
			name = kk.Value
		} else {
			at := w.pos(k)
			w.p.diag(grammar.Warning, "odd-key", at, at, "mapping key is not a plain value; it is kept as text")
			name = fmt.Sprint(w.value(kk))
		}
		add(pair{key: strings.ToLower(name), k: kk, v: v, keyAt: w.pos(k)}, false)
	}
	for _, v := range merges {
		v = w.deref(v)
		if v == nil {
			break
		}
		srcs := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			srcs = v.Content
		}
		for _, s := range srcs {
			s = w.deref(s)
			if s == nil || !w.enter(s) {
				return out
			}
			if s.Kind != yaml.MappingNode {
				at := w.pos(s)
				w.p.diag(grammar.Warning, "bad-merge", at, at, "merge key \"<<\" needs a mapping; the value is ignored")
				continue
			}
			w.active[s] = true
			for _, pr := range w.pairs(s) {
				add(pr, true)
			}
			delete(w.active, s)
		}
	}
	return out
}

// entry reads one dataset entry from a mapping.
func (w *yamlWalk) entry(m *yaml.Node, at grammar.Pos) {
	w.active[m] = true
	defer delete(w.active, m)
	w.depth++
	defer func() { w.depth-- }()
	e := &Entry{Pos: at, namePos: at, Metadata: map[string]any{}}
	prs := w.pairs(m)
	hasPath := false
	for _, pr := range prs {
		if pr.key == "path" {
			hasPath = true
		}
	}
	sawPath := false
	for _, pr := range prs {
		if w.stop {
			return
		}
		switch {
		case pr.key == "path", pr.key == "file" && !hasPath:
			if pr.key == "file" {
				w.p.diag(grammar.Warning, "file-as-path", pr.keyAt, pr.keyAt,
					`entry has no "path" key; its "file" key (pins 1.0 and later) is read as the path`)
			}
			sawPath = true
			w.paths(e, pr)
		case pr.key == "name":
			v := w.deref(pr.v)
			if v == nil {
				return
			}
			if v.Kind == yaml.ScalarNode && v.ShortTag() != "!!null" {
				w.enter(v)
				e.Name, e.namePos = v.Value, w.pos(pr.v)
				w.tagged(v)
				continue
			}
			at := w.pos(pr.v)
			w.p.diag(grammar.Warning, "bad-name", at, at, "dataset name is not a plain value; it is kept as metadata")
			e.Metadata["name"] = w.value(pr.v)
		default:
			e.Metadata[pr.key] = w.value(pr.v)
			if pr.key == "columns" {
				if v := w.deref(pr.v); v != nil && v.Kind == yaml.MappingNode {
					for i := 0; i+1 < len(v.Content); i += 2 {
						e.colOrder = append(e.colOrder, v.Content[i].Value)
					}
				}
			}
		}
	}
	if w.stop {
		return
	}
	if len(e.Paths) == 0 {
		if !sawPath {
			what := "dataset entry"
			if e.Name != "" {
				what = fmt.Sprintf("dataset entry %q", e.Name)
			}
			w.p.diag(grammar.Error, "missing-path", at, at, what+" has no path; it is left out")
		}
		return
	}
	w.p.c.Entries = append(w.p.c.Entries, e)
}

// paths reads the value of a path key: a string or a list of strings.
func (w *yamlWalk) paths(e *Entry, pr pair) {
	v := w.deref(pr.v)
	if v == nil || !w.enter(v) {
		return
	}
	vat := w.pos(pr.v)
	empty := func(at grammar.Pos) {
		w.p.diag(grammar.Error, "missing-path", at, at, "dataset path is empty; the entry is left out")
	}
	switch v.Kind {
	case yaml.ScalarNode:
		if v.ShortTag() == "!!null" || strings.TrimSpace(v.Value) == "" {
			empty(vat)
			return
		}
		w.tagged(v)
		e.Paths = append(e.Paths, v.Value)
		e.pathPos = append(e.pathPos, vat)
	case yaml.SequenceNode:
		for _, item := range v.Content {
			at := w.pos(item)
			it := w.deref(item)
			if it == nil || !w.enter(it) {
				return
			}
			if it.Kind != yaml.ScalarNode || it.ShortTag() == "!!null" || strings.TrimSpace(it.Value) == "" {
				w.p.diag(grammar.Error, "bad-path", at, at, "list item is not a path; it is left out")
				continue
			}
			w.tagged(it)
			e.Paths = append(e.Paths, it.Value)
			e.pathPos = append(e.pathPos, at)
		}
		if len(e.Paths) == 0 {
			empty(vat)
		}
	default:
		w.p.diag(grammar.Error, "bad-path", vat, vat,
			"dataset path is a mapping, not a string or a list of strings; the entry is left out")
	}
}

// tagged reports a tag that is not one of YAML's own: it is not executed.
func (w *yamlWalk) tagged(n *yaml.Node) {
	if n.Tag == "" || strings.HasPrefix(n.Tag, "!!") || n.Tag == "!" {
		return
	}
	if n.Style&yaml.TaggedStyle == 0 && strings.HasPrefix(n.ShortTag(), "!!") {
		return
	}
	at := w.pos(n)
	what := "the value is kept as written"
	if n.Kind == yaml.ScalarNode {
		what = fmt.Sprintf("the value is kept as the text %q", n.Value)
	}
	w.p.diag(grammar.Warning, "unknown-tag", at, at, fmt.Sprintf("tag %s is not evaluated; %s", n.Tag, what))
}

// value converts a node to a JSON-able Go value, keeping scalars as
// written: strings stay strings, YAML 1.2 core numbers, booleans and null
// become int64, float64, bool and nil; timestamps and anything else stay
// text.
func (w *yamlWalk) value(n *yaml.Node) any {
	n = w.deref(n)
	if n == nil || !w.enter(n) {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		w.tagged(n)
		return scalar(n)
	case yaml.SequenceNode:
		w.active[n] = true
		w.depth++
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			if w.stop {
				break
			}
			out = append(out, w.value(c))
		}
		w.depth--
		delete(w.active, n)
		return out
	case yaml.MappingNode:
		w.active[n] = true
		w.depth++
		out := map[string]any{}
		for _, pr := range w.pairs(n) {
			if w.stop {
				break
			}
			key := pr.k.Value
			if pr.k.Kind != yaml.ScalarNode {
				key = pr.key
			}
			out[key] = w.value(pr.v)
		}
		w.depth--
		delete(w.active, n)
		return out
	}
	return nil
}

var integerText = regexp.MustCompile(`^[-+]?(0[xob])?[0-9a-fA-F_]+$`)

// rValues are the plain scalars R's yaml package (YAML 1.1, which pins
// reads and writes with) takes for another type than YAML 1.2 does: the
// YAML 1.1 booleans and R's NA values, read as pins reads them.
var rValues = map[string]any{
	"yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
	"no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false,
	".na": nil, ".na.real": nil, ".na.integer": nil, ".na.character": nil,
}

func scalar(n *yaml.Node) any {
	if n.Tag != "" && !strings.HasPrefix(n.Tag, "!!") && n.Style&yaml.TaggedStyle != 0 {
		return n.Value // an application tag: kept as text
	}
	if n.Style == 0 && n.ShortTag() == "!!str" {
		if v, ok := rValues[n.Value]; ok {
			return v
		}
	}
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return i
		}
	case "!!float":
		var f float64
		if integerText.MatchString(n.Value) {
			break // an integer too large for int64: kept as written
		}
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f
		}
	}
	return n.Value
}
