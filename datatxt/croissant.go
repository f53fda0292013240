package datatxt

import (
	"fmt"
	"net/url"
	"path"

	"github.com/sitetxt/sitetxt/grammar"
)

// CroissantConformsTo is the Croissant version the export follows.
const CroissantConformsTo = "http://mlcommons.org/croissant/1.1"

// croissantContext is the JSON-LD context of the Croissant export: the
// terms of the Croissant 1.1 context (the specification's Appendix 1) that
// the export uses, with schema.org as the vocabulary.
var croissantContext = map[string]any{
	"@vocab":      "https://schema.org/",
	"sc":          "https://schema.org/",
	"cr":          "http://mlcommons.org/croissant/",
	"dct":         "http://purl.org/dc/terms/",
	"conformsTo":  "dct:conformsTo",
	"recordSet":   "cr:recordSet",
	"field":       "cr:field",
	"dataType":    map[string]any{"@id": "cr:dataType", "@type": "@vocab"},
	"source":      "cr:source",
	"fileObject":  "cr:fileObject",
	"extract":     "cr:extract",
	"column":      "cr:column",
	"containedIn": "cr:containedIn",
}

// croissantTypes maps R column classes to Croissant data types.
var croissantTypes = map[string]string{
	"character": "sc:Text", "factor": "sc:Text", "integer": "sc:Integer", "numeric": "sc:Float",
	"double": "sc:Float", "logical": "sc:Boolean", "Date": "sc:Date", "POSIXct": "sc:DateTime",
}

// Croissant returns one MLCommons Croissant 1.1 JSON-LD document per
// entry: the dataset's files as cr:FileObjects and, where pins or cellar
// recorded its columns, a cr:RecordSet with one cr:Field per column. The
// specification requires name, description, license, url, creator
// (opts.Publisher) and datePublished; those no input gives are reported.
func Croissant(c *Catalog, opts ExportOptions) ([]any, Problems) {
	x := newExporter("croissant", c, opts)
	docs := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		x.badDates(e)
		id := x.iri(e)
		d := map[string]any{
			"@context":   croissantContext,
			"@type":      "sc:Dataset",
			"conformsTo": CroissantConformsTo,
			"name":       e.Title(),
		}
		if id != "" {
			d["@id"] = id
			d["url"] = id
		} else {
			x.missing(e, "url", "the data.txt has no absolute URL: give --base or fetch it")
		}
		if desc := e.description(); desc != "" {
			d["description"] = desc
		} else {
			x.missing(e, "description", "the data.txt gives none")
		}
		if l, isURL := e.license(); isURL {
			d["license"] = l
		} else if l != "" {
			d["license"] = map[string]any{"@type": "sc:CreativeWork", "name": l}
		} else {
			x.missing(e, "license", "the data.txt gives none")
		}
		if cr, typ := x.creator(e); cr != "" {
			d["creator"] = map[string]any{"@type": "sc:" + typ, "name": cr}
		} else {
			x.missing(e, "creator", noParty(e, "--publisher"))
		}
		if p, _ := x.date(e, publishedKeys); p != "" {
			d["datePublished"] = p
		} else {
			x.missing(e, "datePublished", "the data.txt gives no created, issued or date")
		}
		if m, _ := x.modified(e); m != "" {
			d["dateModified"] = m
		}
		if kw := e.keywords(); len(kw) > 0 {
			d["keywords"] = kw
		}
		var dist []any
		csvID := ""
		seen := map[string]bool{}
		for _, f := range x.files(e, "contentUrl") {
			if seen[f.url] {
				continue
			}
			seen[f.url] = true
			name := path.Base(f.path)
			if u, err := url.Parse(f.url); err == nil && path.Base(u.Path) != "" && path.Base(u.Path) != "/" {
				name = path.Base(u.Path)
			}
			fo := map[string]any{"@type": "cr:FileObject", "@id": f.url, "name": name, "contentUrl": f.url}
			if f.mediaType != "" {
				fo["encodingFormat"] = f.mediaType
				if f.mediaType == "text/csv" && csvID == "" {
					csvID = f.url
				}
			} else {
				x.missing(e, "encodingFormat", fmt.Sprintf("the media type of %q is not known", f.path))
			}
			if f.bytes >= 0 {
				fo["contentSize"] = fmt.Sprintf("%d B", f.bytes)
			}
			dist = append(dist, fo)
		}
		if len(dist) > 0 {
			d["distribution"] = dist
		} else {
			x.missing(e, "distribution", "the entry has no file with an absolute URL")
		}
		if rs := x.recordSet(e, id, csvID); rs != nil {
			d["recordSet"] = []any{rs}
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		x.missing(nil, "(document)", "the data.txt lists no datasets")
	}
	return docs, x.probs
}

// recordSet returns the entry's columns as a cr:RecordSet, or nil.
func (x *exporter) recordSet(e *Entry, id, csvID string) map[string]any {
	cols := e.columns()
	if len(cols) == 0 || id == "" {
		return nil
	}
	rsID := id + "/records"
	var fields []any
	for _, c := range cols {
		f := map[string]any{"@type": "cr:Field", "@id": rsID + "/" + url.PathEscape(c.name), "name": c.name}
		if t, ok := croissantTypes[c.class]; ok {
			f["dataType"] = t
		} else {
			why := "the data.txt gives no R class for it"
			if c.class != "" {
				why = fmt.Sprintf("its R class %q has no Croissant data type", c.class)
			}
			x.problem(grammar.Error, e, "dataType", fmt.Sprintf("no dataType for column %q: %s", c.name, why))
		}
		if c.description != "" {
			f["description"] = c.description
		}
		if csvID != "" {
			f["source"] = map[string]any{"fileObject": map[string]any{"@id": csvID}, "extract": map[string]any{"column": c.name}}
		}
		fields = append(fields, f)
	}
	return map[string]any{"@type": "cr:RecordSet", "@id": rsID, "name": "records", "field": fields}
}
