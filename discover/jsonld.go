package discover

import (
	"net/url"
	"strings"

	"github.com/sitetxt/sitetxt/jsonpos"
)

// The vocabularies discovery reads, as JSON-LD expands their terms.
const (
	sdo   = "https://schema.org/"
	dcat  = "http://www.w3.org/ns/dcat#"
	dct   = "http://purl.org/dc/terms/"
	foaf  = "http://xmlns.com/foaf/0.1/"
	vcard = "http://www.w3.org/2006/vcard/ns#"
	cr    = "http://mlcommons.org/croissant/"
)

// knownContexts are the remote contexts read without fetching them:
// schema.org's, whose terms are its vocabulary's names (@vocab).
var knownContexts = map[string]string{
	"https://schema.org": sdo, "https://schema.org/": sdo, "http://schema.org": sdo, "http://schema.org/": sdo,
	"https://schema.org/docs/jsonldcontext.json": sdo, "http://schema.org/docs/jsonldcontext.json": sdo,
}

// ldContext is the part of a JSON-LD context discovery needs: the
// vocabulary, prefixes and term definitions that map a document's keys
// and types to IRIs, and which terms take IRIs as values.
type ldContext struct {
	vocab string
	terms map[string]ldTerm
}

type ldTerm struct {
	id  string // as written: an IRI, a compact IRI or another term
	iri bool   // "@type": "@id" or "@vocab": string values are IRIs
}

// ldDoc is one JSON-LD document (a file, or a script block of a page)
// read as its writer compacted it: no remote context is fetched (those of
// schema.org are known), node references are resolved within the
// document. It is not a JSON-LD processor: it reads the context features
// catalog writers use (@vocab, prefixes, term definitions with @id and
// @type, @graph, nested and referenced nodes, @value, @list, @set).
type ldDoc struct {
	base    *url.URL
	nodes   []*ldNode          // every node object, in document order
	byID    map[string]*ldNode // by IRI, and blank nodes by their identifier ("_:office")
	unknown []string           // remote contexts not read
}

// ldNode is one node object: its IRI ("" for a blank node), types and
// properties by expanded IRI.
type ldNode struct {
	id    string
	types []string
	props map[string][]*ldValue
	at    *jsonpos.Value
}

// ldValue is one value of a property: a node, a reference to one, an IRI
// or a literal.
type ldValue struct {
	node  *ldNode
	iri   string // a reference's or IRI value's IRI
	blank string // a reference to a blank node of the document ("_:office")
	lit   string
	lang  string
}

// readLD reads the JSON-LD document v, found at base.
func readLD(v *jsonpos.Value, base string) *ldDoc {
	d := &ldDoc{byID: map[string]*ldNode{}}
	d.base, _ = url.Parse(base)
	ctx := &ldContext{terms: map[string]ldTerm{}}
	for _, item := range v.List() {
		if item.Kind == jsonpos.Object {
			d.object(item, ctx)
		}
	}
	return d
}

// object reads a top-level or @graph object: a node, or a wrapper of a
// @graph.
func (d *ldDoc) object(v *jsonpos.Value, ctx *ldContext) *ldNode {
	if c := v.Last("@context"); c != nil {
		ctx = d.context(ctx, c)
	}
	if g := v.Last("@graph"); g != nil {
		for _, item := range g.List() {
			if item.Kind == jsonpos.Object {
				d.object(item, ctx)
			}
		}
		if len(v.Members) <= 3 && v.Last("@type") == nil {
			return nil // only a wrapper
		}
	}
	return d.node(v, ctx)
}

// context returns ctx with the context c applied.
func (d *ldDoc) context(ctx *ldContext, c *jsonpos.Value) *ldContext {
	out := &ldContext{vocab: ctx.vocab, terms: make(map[string]ldTerm, len(ctx.terms))}
	for k, t := range ctx.terms {
		out.terms[k] = t
	}
	for _, item := range c.List() {
		switch item.Kind {
		case jsonpos.Null:
			out = &ldContext{terms: map[string]ldTerm{}}
		case jsonpos.String:
			if vocab, ok := knownContexts[item.Text]; ok {
				out.vocab = vocab
			} else {
				d.unknown = append(d.unknown, item.Text)
			}
		case jsonpos.Object:
			for _, def := range item.Members {
				k := def.Name
				switch {
				case k == "@vocab":
					out.vocab = schemaHTTPS(def.Scalar())
				case strings.HasPrefix(k, "@"):
				case def.Kind == jsonpos.String:
					out.terms[k] = ldTerm{id: def.Text}
				case def.Kind == jsonpos.Object:
					t := ldTerm{id: def.Last("@id").Scalar()}
					if t.id == "" {
						t.id = k // a term defined by its type only
					}
					switch def.Last("@type").Scalar() {
					case "@id", "@vocab":
						t.iri = true
					}
					out.terms[k] = t
				}
			}
		}
	}
	return out
}

// expand returns the IRI a key or type stands for under ctx, "" when it
// stands for none (JSON-LD drops such keys).
func (ctx *ldContext) expand(term string) string {
	return ctx.expandDepth(term, 0)
}

func (ctx *ldContext) expandDepth(term string, depth int) string {
	if depth > 8 || term == "" || strings.HasPrefix(term, "@") {
		return ""
	}
	if t, ok := ctx.terms[term]; ok && t.id != term {
		return ctx.expandDepth(t.id, depth+1)
	}
	if prefix, suffix, ok := strings.Cut(term, ":"); ok {
		if prefix == "_" {
			return ""
		}
		if t, ok := ctx.terms[prefix]; ok && !strings.HasPrefix(suffix, "//") {
			if p := ctx.expandDepth(t.id, depth+1); p != "" {
				return schemaHTTPS(p + suffix)
			}
		}
		return schemaHTTPS(term) // an absolute IRI
	}
	if ctx.vocab != "" {
		return ctx.vocab + term
	}
	return ""
}

// schemaHTTPS writes schema.org IRIs one way: http://schema.org/ and
// https://schema.org/ are the same vocabulary.
func schemaHTTPS(iri string) string {
	if rest, ok := strings.CutPrefix(iri, "http://schema.org/"); ok {
		return sdo + rest
	}
	return iri
}

// resolve returns ref resolved against the document's URL ("" for a blank
// node identifier).
func (d *ldDoc) resolve(ref string) string {
	if ref == "" || strings.HasPrefix(ref, "_:") {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if d.base != nil {
		u = d.base.ResolveReference(u)
	}
	return u.String()
}

// node reads a node object and the nodes nested in it.
func (d *ldDoc) node(v *jsonpos.Value, ctx *ldContext) *ldNode {
	if c := v.Last("@context"); c != nil {
		ctx = d.context(ctx, c)
	}
	n := &ldNode{props: map[string][]*ldValue{}, at: v}
	key := "" // its IRI, or its blank node identifier
	for _, val := range v.Members {
		k := val.Name
		switch k {
		case "@id":
			n.id = d.resolve(val.Scalar())
			if key = n.id; strings.HasPrefix(val.Scalar(), "_:") {
				key = val.Scalar()
			}
		case "@type":
			for _, t := range val.List() {
				if iri := ctx.expand(t.Scalar()); iri != "" {
					n.types = append(n.types, iri)
				}
			}
		case "@context", "@graph":
		default:
			iri := ctx.expand(k)
			if iri == "" {
				continue
			}
			n.props[iri] = append(n.props[iri], d.values(val, ctx, ctx.terms[k].iri)...)
		}
	}
	d.nodes = append(d.nodes, n)
	if key != "" {
		if old, ok := d.byID[key]; !ok || len(old.props) < len(n.props) {
			d.byID[key] = n // the fullest description of a node described twice
		}
	}
	return n
}

// values reads a property's value (or list of them).
func (d *ldDoc) values(v *jsonpos.Value, ctx *ldContext, iri bool) []*ldValue {
	var out []*ldValue
	for _, item := range v.List() {
		switch item.Kind {
		case jsonpos.Object:
			switch {
			case item.Last("@value") != nil:
				out = append(out, &ldValue{lit: item.Last("@value").Scalar(), lang: item.Last("@language").Scalar()})
			case item.Last("@list") != nil:
				out = append(out, d.values(item.Last("@list"), ctx, iri)...)
			case item.Last("@set") != nil:
				out = append(out, d.values(item.Last("@set"), ctx, iri)...)
			case len(item.Members) == 1 && item.Members[0].Name == "@id":
				out = append(out, d.reference(item.Members[0].Scalar()))
			default:
				out = append(out, &ldValue{node: d.node(item, ctx)})
			}
		case jsonpos.String:
			if iri {
				out = append(out, d.reference(item.Text))
			} else {
				out = append(out, &ldValue{lit: item.Text})
			}
		case jsonpos.Number, jsonpos.Bool:
			out = append(out, &ldValue{lit: item.Scalar()})
		}
	}
	return out
}

// reference reads a reference to a node: a blank node's identifier
// ("_:office", which names a node of this document only), else an IRI
// resolved against the document's URL.
func (d *ldDoc) reference(id string) *ldValue {
	if strings.HasPrefix(id, "_:") {
		return &ldValue{blank: id}
	}
	return &ldValue{iri: d.resolve(id)}
}

// is reports whether the node has one of the types.
func (n *ldNode) is(types ...string) bool {
	for _, t := range n.types {
		for _, want := range types {
			if t == want {
				return true
			}
		}
	}
	return false
}

// ref returns the node a value is or refers to (an IRI the document
// does not describe is a node with that IRI only), or nil for a literal.
func (d *ldDoc) ref(v *ldValue) *ldNode {
	switch {
	case v.node != nil:
		return v.node
	case v.blank != "":
		return d.byID[v.blank] // nil when the document describes none
	case v.iri != "":
		if n, ok := d.byID[v.iri]; ok {
			return n
		}
		return &ldNode{id: v.iri, props: map[string][]*ldValue{}}
	}
	return nil
}

// text returns the first literal of the properties (or the IRI of an IRI
// value), preferring a value without a language or in English.
func (n *ldNode) text(props ...string) string {
	for _, p := range props {
		vs := n.props[p]
		best := ""
		for _, v := range vs {
			s := v.lit
			if s == "" && v.node == nil {
				s = v.iri
			}
			if s == "" {
				continue
			}
			if v.lang == "" || strings.HasPrefix(strings.ToLower(v.lang), "en") {
				return s
			}
			if best == "" {
				best = s
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// iri returns the IRI a property gives: an IRI value, a node's @id, else a
// literal that is an absolute URL.
func (d *ldDoc) iri(n *ldNode, prop string) string {
	for _, v := range n.props[prop] {
		switch {
		case v.iri != "":
			return v.iri
		case v.node != nil && v.node.id != "":
			return v.node.id
		case v.lit != "" && isAbsURL(v.lit):
			return d.resolve(v.lit)
		}
	}
	return ""
}

// url returns the URL a property whose values are URLs gives (schema.org's
// url and contentUrl, DCAT's downloadURL and landingPage): an IRI value, a
// node's @id, or a literal, resolved against the document's URL as the
// writer of a relative one meant.
func (d *ldDoc) url(n *ldNode, prop string) string {
	if u := d.iri(n, prop); u != "" {
		return u
	}
	for _, v := range n.props[prop] {
		if v.lit != "" {
			if u := d.resolve(strings.TrimSpace(v.lit)); isAbsURL(u) {
				return u
			}
		}
	}
	return ""
}

// nodes returns the nodes a property's values are or refer to.
func (d *ldDoc) nodesOf(n *ldNode, prop string) []*ldNode {
	var out []*ldNode
	for _, v := range n.props[prop] {
		if m := d.ref(v); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// name returns the name of the node a property's value is: an
// Organization's or Person's name, a foaf:Agent's foaf:name, a vcard's
// fn; a literal value is the name itself.
func (d *ldDoc) name(n *ldNode, prop string) string {
	s, _ := d.party(n, prop)
	return s
}

// party returns the name of the agent a property's value is (as name
// does) and what it is: "Person" for a schema.org or FOAF Person,
// "Organization" for a node of another type (schema.org gives a creator
// or publisher the range Person or Organization), "" when untyped.
func (d *ldDoc) party(n *ldNode, prop string) (name, typ string) {
	for _, v := range n.props[prop] {
		if v.lit != "" {
			return v.lit, ""
		}
		m := d.ref(v)
		if m == nil {
			continue
		}
		if s := m.text(sdo+"name", foaf+"name", vcard+"fn", sdo+"legalName"); s != "" {
			switch {
			case m.is(sdo+"Person", foaf+"Person"):
				typ = "Person"
			case len(m.types) > 0:
				typ = "Organization"
			}
			return s, typ
		}
	}
	return "", ""
}

func isAbsURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.IsAbs() && u.Host != ""
}
