package discover

import (
	"strconv"
	"strings"
)

// The types that make a node a dataset, by vocabulary.
var (
	schemaDatasetTypes = []string{sdo + "Dataset", sdo + "DataFeed"}
	dcatDatasetTypes   = []string{dcat + "Dataset"}
)

// ldRecords returns the datasets a JSON-LD document describes: its
// dcat:Datasets (kind dcat) and schema.org Datasets (kind croissant when
// it conforms to Croissant, else schema.org), each once, in document order.
// page is the URL of the page that holds the document when it is a script
// block, "" for a document of its own.
func (r *run) ldRecords(d doc, ld *ldDoc, page string) []*record {
	var out []*record
	var datasets []*ldNode
	for _, n := range ld.nodes {
		if !n.at.Done {
			continue // cut off by a syntax error: reported, not read
		}
		if n.is(schemaDatasetTypes...) || n.is(dcatDatasetTypes...) {
			datasets = append(datasets, n)
		}
	}
	for _, n := range datasets {
		var rec *record
		if n.is(dcatDatasetTypes...) {
			rec = r.dcatRecord(d, ld, n)
		} else {
			rec = r.schemaRecord(d, ld, n)
		}
		if page != "" && rec.landing == "" && len(datasets) == 1 {
			rec.landing = page // a page about one dataset is its landing page
		}
		if rec.name == "" {
			r.diag(errorSev, "no-name", d.url, d.at(n.at.Offset), string(rec.kind)+" dataset without a name")
		}
		out = append(out, rec)
	}
	return out
}

// newRecord starts the record of a node.
func (r *run) newRecord(kind Kind, d doc, n *ldNode) *record {
	rec := &record{kind: kind, src: d.url, pos: d.at(n.at.Offset), meta: map[string]any{}}
	if n.id != "" && isAbsURL(n.id) {
		rec.id = n.id
	}
	return rec
}

// schemaRecord reads a schema.org Dataset (Croissant's too: it is one).
func (r *run) schemaRecord(d doc, ld *ldDoc, n *ldNode) *record {
	kind := SchemaOrg
	for _, p := range []string{dct + "conformsTo", sdo + "conformsTo"} {
		for _, v := range n.props[p] {
			if s := v.lit + v.iri; strings.HasPrefix(s, cr) || strings.HasPrefix(s, "https://mlcommons.org/croissant/") {
				kind = Croissant
			}
		}
	}
	rec := r.newRecord(kind, d, n)
	rec.name = n.text(sdo + "name")
	rec.set("description", n.text(sdo+"description"))
	rec.landing = ld.url(n, sdo+"url")
	for _, v := range n.props[sdo+"identifier"] {
		id := v.lit + v.iri
		if m := ld.ref(v); m != nil && id == "" {
			id = m.id
			if id == "" {
				id = m.text(sdo+"url", sdo+"value")
			}
		}
		if iri := identifierIRI(id); iri != "" {
			rec.keys = append(rec.keys, iri)
			if rec.id == "" {
				rec.id = iri
			}
		}
	}
	rec.set("license", r.license(ld, n, sdo+"license"))
	rec.set("keywords", keywords(ld, n, sdo+"keywords"))
	rec.set("modified", n.text(sdo+"dateModified"))
	rec.set("issued", n.text(sdo+"datePublished"))
	rec.set("created", n.text(sdo+"dateCreated"))
	for _, key := range []string{"publisher", "creator"} {
		name, typ := ld.party(n, sdo+key)
		rec.set(key, name)
		if name != "" {
			rec.set(key+"_type", typ)
		}
	}
	rec.set("version", n.text(sdo+"version"))
	rec.set("source", ld.url(n, sdo+"isBasedOn"))
	for _, m := range ld.nodesOf(n, sdo+"distribution") {
		if len(m.props[cr+"containedIn"]) > 0 || len(m.props[sdo+"containedIn"]) > 0 {
			continue // a file inside an archive the dataset lists: not fetched on its own
		}
		u := ld.url(m, sdo+"contentUrl")
		if u == "" {
			continue // a FileSet, or a download without a URL
		}
		f := file{url: u, mediaType: mediaTypeOf(m.text(sdo + "encodingFormat")), size: sizeOf(m.text(sdo + "contentSize"))}
		rec.addFile(f)
	}
	return rec
}

// dcatRecord reads a dcat:Dataset.
func (r *run) dcatRecord(d doc, ld *ldDoc, n *ldNode) *record {
	rec := r.newRecord(DCAT, d, n)
	rec.name = n.text(dct + "title")
	rec.set("description", n.text(dct+"description"))
	if id := identifierIRI(n.text(dct + "identifier")); id != "" {
		rec.keys = append(rec.keys, id)
		if rec.id == "" {
			rec.id = id
		}
	}
	rec.landing = ld.url(n, dcat+"landingPage")
	rec.set("license", r.license(ld, n, dct+"license"))
	rec.set("keywords", keywords(ld, n, dcat+"keyword"))
	rec.set("modified", n.text(dct+"modified"))
	rec.set("issued", n.text(dct+"issued"))
	rec.set("publisher", ld.name(n, dct+"publisher"))
	for _, cp := range ld.nodesOf(n, dcat+"contactPoint") {
		rec.set("contact", cp.text(vcard+"fn"))
		rec.set("contact_email", strings.TrimPrefix(ld.iri(cp, vcard+"hasEmail")+cp.text(vcard+"hasEmail"), "mailto:"))
		break
	}
	var access []any
	for _, m := range ld.nodesOf(n, dcat+"distribution") {
		u := ld.url(m, dcat+"downloadURL")
		if u == "" {
			if a := ld.url(m, dcat+"accessURL"); a != "" {
				access = append(access, a) // a page, an API or a service: not a file
			}
			continue
		}
		mt := ld.iri(m, dcat+"mediaType")
		if mt == "" {
			mt = m.text(dcat + "mediaType")
		}
		rec.addFile(file{url: u, mediaType: mediaTypeOf(mt), size: sizeOf(m.text(dcat + "byteSize"))})
		if rec.meta["license"] == nil {
			rec.set("license", r.license(ld, m, dct+"license"))
		}
	}
	rec.set("access_urls", access)
	return rec
}

// license returns a license property's value: an IRI, a CreativeWork's
// or LicenseDocument's IRI or url, else its name or title, else the text.
func (r *run) license(ld *ldDoc, n *ldNode, prop string) string {
	for _, v := range n.props[prop] {
		if v.lit != "" {
			return v.lit
		}
		m := ld.ref(v)
		if m == nil {
			continue
		}
		if m.id != "" {
			return m.id
		}
		if s := ld.iri(m, sdo+"url"); s != "" {
			return s
		}
		if s := m.text(sdo+"name", dct+"title"); s != "" {
			return s
		}
	}
	return ""
}

// keywords returns a keywords property's values: a list, comma-separated
// text, or DefinedTerms' names.
func keywords(ld *ldDoc, n *ldNode, prop string) []any {
	var out []any
	for _, v := range n.props[prop] {
		s := v.lit
		if m := ld.ref(v); m != nil {
			s = m.text(sdo + "name")
		}
		for _, k := range strings.Split(s, ",") {
			if k = strings.TrimSpace(k); k != "" {
				out = append(out, k)
			}
		}
	}
	return out
}

// identifierIRI returns an identifier as an IRI when it is one (a URL, a
// DOI, a URN), else "": an identifier without a scheme is local to the
// document that gives it, and cannot say that two sources name one dataset.
func identifierIRI(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, " \t\n") {
		return ""
	}
	scheme, rest, ok := strings.Cut(s, ":")
	if !ok || rest == "" || scheme == "" {
		return ""
	}
	for _, c := range scheme {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return ""
		}
	}
	return s
}

// mediaTypeOf returns an encodingFormat or dcat:mediaType as a media type:
// an IANA IRI's last two segments, a "type/subtype" as written; "" for a
// format name ("CSV") that is not one.
func mediaTypeOf(s string) string {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "https://www.iana.org/assignments/media-types/"); ok {
		s = rest
	} else if rest, ok := strings.CutPrefix(s, "http://www.iana.org/assignments/media-types/"); ok {
		s = rest
	}
	if t, sub, ok := strings.Cut(s, "/"); ok && t != "" && sub != "" && !strings.ContainsAny(s, " :") && strings.Count(s, "/") == 1 {
		return strings.ToLower(s)
	}
	return ""
}

// sizeOf reads a size: a number of bytes, or schema.org's "1303 B",
// "12 KB", "3.5 MB" (decimal multiples); -1 when it is none.
func sizeOf(s string) int64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return -1
	}
	num, unit, _ := strings.Cut(s, " ")
	mult := map[string]float64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30}[strings.ToLower(strings.TrimSpace(unit))]
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || f < 0 {
		return -1
	}
	return int64(f * mult)
}
