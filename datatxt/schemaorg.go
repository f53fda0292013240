package datatxt

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// SchemaOrg returns the catalog as a schema.org DataCatalog in JSON-LD:
// one Dataset per entry, one DataDownload per file, checked against
// Google Dataset Search's rules (a description of 50 to 5000 characters,
// license a URL or a CreativeWork, absolute contentUrl).
func SchemaOrg(c *Catalog, opts ExportOptions) (map[string]any, Problems) {
	x := newExporter("schemaorg", c, opts)
	datasets := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		x.badDates(e)
		var dist []any
		for _, f := range x.files(e, "contentUrl") {
			d := map[string]any{"@type": "DataDownload", "contentUrl": f.url}
			if f.mediaType != "" {
				d["encodingFormat"] = f.mediaType
			}
			if f.bytes >= 0 {
				d["contentSize"] = fmt.Sprintf("%d B", f.bytes)
			}
			dist = append(dist, d)
		}
		d := map[string]any{"@type": "Dataset", "name": e.Title()}
		if id := x.iri(e); id != "" {
			d["@id"] = id
			d["url"] = id
		}
		desc := e.description()
		switch n := len([]rune(desc)); {
		case n == 0:
			x.missing(e, "description", "the data.txt gives none (Google Dataset Search requires 50 to 5000 characters)")
		case n < 50 || n > 5000:
			x.problem(grammar.Error, e, "description", fmt.Sprintf("description has %d characters; Google Dataset Search requires 50 to 5000", n))
			d["description"] = desc
		default:
			d["description"] = desc
		}
		if len(dist) > 0 {
			d["distribution"] = dist
		}
		d["identifier"] = x.ids[e]
		if e.Name != "" && e.Name != e.Title() {
			d["alternateName"] = e.Name
		}
		if l, isURL := e.license(); isURL {
			d["license"] = l
		} else if l != "" {
			d["license"] = map[string]any{"@type": "CreativeWork", "name": l}
		}
		if cr, typ := x.creator(e); cr != "" {
			d["creator"] = map[string]any{"@type": typ, "name": cr}
		}
		if kw := e.keywords(); len(kw) > 0 {
			d["keywords"] = kw
		}
		if m, _ := x.modified(e); m != "" {
			d["dateModified"] = m
		}
		if s := strings.TrimSpace(e.Text("source")); s != "" {
			if isHTTP(s) {
				d["isBasedOn"] = s
			} else {
				d["isBasedOn"] = map[string]any{"@type": "CreativeWork", "name": s}
			}
		}
		datasets = append(datasets, d)
	}
	cat := map[string]any{
		"@context": "https://schema.org/",
		"@type":    "DataCatalog",
		"name":     opts.title(c),
		"dataset":  datasets,
	}
	if p, _ := x.catalogPublisher(); p != "" {
		cat["publisher"] = map[string]any{"@type": "Organization", "name": p}
	}
	if id := x.catalogIRI(); id != "" {
		cat["url"] = id
	}
	return cat, x.probs
}
