package discover

import (
	"fmt"
	"strings"
)

// dataJSONRecords reads a Project Open Data data.json (DCAT-US 1.1): a
// catalog object whose "dataset" list holds the datasets (a bare list of
// datasets, as POD 1.0 wrote it, is read too). Each dataset's title is its
// name, its distributions' downloadURLs its files (with their mediaType);
// accessURLs (an API, a page) are kept as access_urls.
func (r *run) dataJSONRecords(d doc, root *jvalue) []*record {
	var list *jvalue
	switch root.kind {
	case '{':
		if list = root.get("dataset"); list == nil || list.kind != '[' {
			r.diag(errorSev, "no-datasets", d.url, d.at(root.off), `data.json has no "dataset" list`)
			return nil
		}
	case '[':
		list = root
	default:
		r.diag(errorSev, "no-datasets", d.url, d.at(root.off), "data.json is not a catalog object")
		return nil
	}
	var out []*record
	for i, ds := range list.items {
		if ds.kind != '{' {
			r.diag(errorSev, "bad-dataset", d.url, d.at(ds.off), fmt.Sprintf("dataset %d is not an object", i+1))
			continue
		}
		if !ds.done {
			r.diag(warnSev, "cut-dataset", d.url, d.at(ds.off), fmt.Sprintf("dataset %d is cut off by the document's break: left out", i+1))
			continue
		}
		out = append(out, r.dataJSONRecord(d, ds, i+1))
	}
	return out
}

func (r *run) dataJSONRecord(d doc, ds *jvalue, n int) *record {
	rec := &record{kind: DataJSON, src: d.url, pos: d.at(ds.off), meta: map[string]any{}}
	rec.name = strings.TrimSpace(ds.get("title").text())
	if rec.name == "" {
		r.diag(errorSev, "no-name", d.url, rec.pos, fmt.Sprintf("data.json dataset %d has no title", n))
	}
	id := ds.get("identifier").text()
	if iri := identifierIRI(id); iri != "" {
		rec.id = iri
	}
	rec.set("identifier", id)
	rec.set("description", ds.get("description").text())
	rec.set("keywords", stringsOf(ds.get("keyword")))
	rec.set("modified", ds.get("modified").text())
	rec.set("issued", ds.get("issued").text())
	rec.set("accesslevel", ds.get("accessLevel").text())
	rec.set("license", ds.get("license").text())
	rec.set("publisher", ds.get("publisher").get("name").text())
	if cp := ds.get("contactPoint"); cp != nil {
		rec.set("contact", cp.get("fn").text())
		rec.set("contact_email", strings.TrimPrefix(cp.get("hasEmail").text(), "mailto:"))
	}
	if lp := ds.get("landingPage").text(); isAbsURL(lp) {
		rec.landing = lp
	}
	var access []any
	for _, dist := range ds.get("distribution").list() {
		if u := dist.get("downloadURL").text(); isAbsURL(u) {
			rec.addFile(file{url: u, mediaType: mediaTypeOf(dist.get("mediaType").text()), size: -1})
		} else if a := dist.get("accessURL").text(); isAbsURL(a) {
			access = append(access, a)
		}
	}
	rec.set("access_urls", access)
	return rec
}
