package datatxt

import "fmt"

// dcatContext is the JSON-LD context of the DCAT export.
var dcatContext = map[string]any{
	"dcat":  "http://www.w3.org/ns/dcat#",
	"dct":   "http://purl.org/dc/terms/",
	"foaf":  "http://xmlns.com/foaf/0.1/",
	"vcard": "http://www.w3.org/2006/vcard/ns#",
	"xsd":   "http://www.w3.org/2001/XMLSchema#",
}

func typedDate(iso string, isDate bool) map[string]any {
	t := "xsd:dateTime"
	if isDate {
		t = "xsd:date"
	}
	return map[string]any{"@value": iso, "@type": t}
}

// DCAT returns the catalog as a DCAT-AP 3.0 dcat:Catalog in JSON-LD: one
// dcat:Dataset (with an IRI) per entry, one dcat:Distribution per file,
// media types as IANA IRIs, formats as EU file-type IRIs, dates typed.
func DCAT(c *Catalog, opts ExportOptions) (map[string]any, Problems) {
	x := newExporter("dcat", c, opts)
	datasets := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		x.badDates(e)
		var dist []any
		for _, f := range x.files(e, "accessURL") {
			d := map[string]any{
				"@type":            "dcat:Distribution",
				"dcat:accessURL":   map[string]any{"@id": f.url},
				"dcat:downloadURL": map[string]any{"@id": f.url},
			}
			if f.mediaType != "" {
				d["dcat:mediaType"] = map[string]any{"@id": "https://www.iana.org/assignments/media-types/" + f.mediaType, "@type": "dct:MediaType"}
			}
			if ft, ok := euFileTypes[f.format]; ok {
				d["dct:format"] = map[string]any{"@id": euFileTypeBase + ft, "@type": "dct:MediaTypeOrExtent"}
			}
			if f.bytes >= 0 {
				d["dcat:byteSize"] = map[string]any{"@value": fmt.Sprint(f.bytes), "@type": "xsd:nonNegativeInteger"}
			}
			if f.modified != "" {
				d["dct:modified"] = typedDate(f.modified, false)
			}
			dist = append(dist, d)
		}
		d := map[string]any{
			"@type":          "dcat:Dataset",
			"dct:title":      e.Title(),
			"dct:identifier": x.ids[e],
		}
		if id := x.iri(e); id != "" {
			d["@id"] = id
		} else {
			x.noIRI(e)
		}
		if desc := e.description(); desc != "" {
			d["dct:description"] = desc
		} else {
			x.missing(e, "description", "the data.txt gives none (DCAT-AP requires dct:description)")
		}
		if len(dist) > 0 {
			d["dcat:distribution"] = dist
		}
		if name, em := x.contact(e); name != "" || em != "" {
			cp := map[string]any{"@type": "vcard:Kind"}
			if name != "" {
				cp["vcard:fn"] = name
			}
			if em != "" {
				cp["vcard:hasEmail"] = map[string]any{"@id": em}
			}
			d["dcat:contactPoint"] = cp
		}
		if l, isURL := e.license(); isURL {
			d["dct:license"] = map[string]any{"@id": l, "@type": "dct:LicenseDocument"}
		} else if l != "" {
			d["dct:license"] = map[string]any{"@type": "dct:LicenseDocument", "dct:title": l}
		}
		if kw := e.keywords(); len(kw) > 0 {
			d["dcat:keyword"] = kw
		}
		if m, isDate := x.modified(e); m != "" {
			d["dct:modified"] = typedDate(m, isDate)
		}
		datasets = append(datasets, d)
	}
	cat := map[string]any{
		"@context":        dcatContext,
		"@type":           "dcat:Catalog",
		"dct:title":       opts.title(c),
		"dct:description": "datasets listed in the data.txt " + catalogSource(c),
		"dcat:dataset":    datasets,
	}
	if p, why := x.catalogPublisher(); p != "" {
		cat["dct:publisher"] = map[string]any{"@type": "foaf:Agent", "foaf:name": p}
	} else {
		x.missing(nil, "publisher", why+" (DCAT-AP requires dct:publisher)")
	}
	if id := x.catalogIRI(); id != "" {
		cat["@id"] = id
	}
	return cat, x.probs
}
