package discover

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/jsonpos"
)

// dataJSONRecords reads a Project Open Data data.json (DCAT-US 1.1): a
// catalog object whose "dataset" list holds the datasets (a bare list of
// datasets, as POD 1.0 wrote it, is read too). Each dataset's title is its
// name, its distributions' downloadURLs its files (with their mediaType);
// accessURLs (an API, a page) are kept as access_urls.
func (r *run) dataJSONRecords(d doc, root *jsonpos.Value) []*record {
	var list *jsonpos.Value
	switch root.Kind {
	case jsonpos.Object:
		if list = root.Last("dataset"); list == nil || list.Kind != jsonpos.Array {
			r.diag(errorSev, "no-datasets", d.url, d.at(root.Offset), `data.json has no "dataset" list`)
			return nil
		}
	case jsonpos.Array:
		list = root
	default:
		r.diag(errorSev, "no-datasets", d.url, d.at(root.Offset), "data.json is not a catalog object")
		return nil
	}
	var out []*record
	for i, ds := range list.Items {
		if ds.Kind != jsonpos.Object {
			r.diag(errorSev, "bad-dataset", d.url, d.at(ds.Offset), fmt.Sprintf("dataset %d is not an object", i+1))
			continue
		}
		if !ds.Done {
			r.diag(warnSev, "cut-dataset", d.url, d.at(ds.Offset), fmt.Sprintf("dataset %d is cut off by the document's break: left out", i+1))
			continue
		}
		out = append(out, r.dataJSONRecord(d, ds, i+1))
	}
	return out
}

func (r *run) dataJSONRecord(d doc, ds *jsonpos.Value, n int) *record {
	rec := &record{kind: DataJSON, src: d.url, pos: d.at(ds.Offset), meta: map[string]any{}}
	rec.name = strings.TrimSpace(ds.Last("title").Scalar())
	if rec.name == "" {
		r.diag(errorSev, "no-name", d.url, rec.pos, fmt.Sprintf("data.json dataset %d has no title", n))
	}
	id := ds.Last("identifier").Scalar()
	if iri := identifierIRI(id); iri != "" {
		rec.id = iri
	}
	rec.set("identifier", id)
	rec.set("description", ds.Last("description").Scalar())
	rec.set("keywords", stringsOf(ds.Last("keyword")))
	rec.set("modified", ds.Last("modified").Scalar())
	rec.set("issued", ds.Last("issued").Scalar())
	rec.set("accesslevel", ds.Last("accessLevel").Scalar())
	rec.set("license", ds.Last("license").Scalar())
	rec.set("publisher", ds.Last("publisher").Last("name").Scalar())
	if cp := ds.Last("contactPoint"); cp != nil {
		rec.set("contact", cp.Last("fn").Scalar())
		rec.set("contact_email", strings.TrimPrefix(cp.Last("hasEmail").Scalar(), "mailto:"))
	}
	if lp := ds.Last("landingPage").Scalar(); isAbsURL(lp) {
		rec.landing = lp
	}
	var access []any
	for _, dist := range ds.Last("distribution").List() {
		if u := dist.Last("downloadURL").Scalar(); isAbsURL(u) {
			rec.addFile(file{url: u, mediaType: mediaTypeOf(dist.Last("mediaType").Scalar()), size: -1})
		} else if a := dist.Last("accessURL").Scalar(); isAbsURL(a) {
			access = append(access, a)
		}
	}
	rec.set("access_urls", access)
	return rec
}
