package datatxt

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// The Project Open Data v1.1 schema addresses.
const (
	PODConformsTo  = "https://project-open-data.cio.gov/v1.1/schema"
	PODContext     = "https://project-open-data.cio.gov/v1.1/schema/catalog.jsonld"
	PODDescribedBy = "https://project-open-data.cio.gov/v1.1/schema/catalog.json"
)

// podEmail is POD's hasEmail pattern.
var podEmail = regexp.MustCompile(`^mailto:[\w_~!$&'()*+,;=:.-]+@[\w.-]+\.[\w.-]+?$`)

// DataJSON returns the catalog as a Project Open Data v1.1 data.json
// catalog, following the non-federal schema (title, description,
// publisher, contactPoint, identifier and accessLevel required), or the
// federal one when opts.Federal (keyword, modified, bureauCode and
// programCode too). A dataset its access rules disallow is "restricted
// public", never "public".
func DataJSON(c *Catalog, opts ExportOptions) (map[string]any, Problems) {
	x := newExporter("datajson", c, opts)
	federal := opts.Federal()
	datasets := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		x.badDates(e)
		var dist []any
		for _, f := range x.files(e, "downloadURL") {
			d := map[string]any{"@type": "dcat:Distribution", "downloadURL": f.url}
			if f.mediaType != "" {
				d["mediaType"] = f.mediaType
			} else {
				// The data.json schema requires mediaType beside downloadURL:
				// its validator rejects the distribution, named here at the
				// path's line as every other missing field is.
				x.problemAt(grammar.Error, e, f.index, "mediaType", fmt.Sprintf("no mediaType in distribution %s: data.json requires one beside downloadURL, and the file's name has no extension sitetxt knows (ask its server with --probe)", f.url))
			}
			if f.format != "" {
				d["format"] = f.format
			}
			dist = append(dist, d)
		}
		access := "public"
		if s := e.Text("accesslevel"); s == "public" || s == "restricted public" || s == "non-public" {
			access = s
		}
		if e.Access == Disallowed && access == "public" {
			access = "restricted public"
		}
		d := map[string]any{
			"@type":       "dcat:Dataset",
			"title":       e.Title(),
			"identifier":  x.ids[e],
			"accessLevel": access,
		}
		if id := x.iri(e); id != "" {
			d["identifier"] = id
		}
		if desc := e.description(); desc != "" {
			d["description"] = desc
		} else {
			x.missing(e, "description", "the data.txt gives none (Project Open Data requires it)")
		}
		if p := x.publisher(e); p != "" {
			d["publisher"] = map[string]any{"@type": "org:Organization", "name": p}
		} else {
			x.missing(e, "publisher", noParty(e, "--publisher"))
		}
		if name, em := x.contact(e); name != "" {
			cp := map[string]any{"@type": "vcard:Contact", "fn": name}
			if em != "" {
				cp["hasEmail"] = em
				if !podEmail.MatchString(em) {
					x.problem(grammar.Error, e, "hasEmail", fmt.Sprintf("contact email %q is not an address Project Open Data accepts", strings.TrimPrefix(em, "mailto:")))
				}
			} else if federal {
				x.missing(e, "hasEmail", "give --contact-email (the federal schema requires it)")
			}
			d["contactPoint"] = cp
		} else {
			x.missing(e, "contactPoint", noParty(e, "--contact"))
		}
		if kw := e.keywords(); len(kw) > 0 {
			d["keyword"] = kw
		} else if federal {
			x.missing(e, "keyword", "the data.txt gives no keywords or tags (the federal schema requires keyword)")
		}
		if m, _ := x.modified(e); m != "" {
			d["modified"] = m
		} else if federal {
			x.missing(e, "modified", "the data.txt gives no modified, updated or created date (the federal schema requires modified)")
		}
		if len(dist) > 0 {
			d["distribution"] = dist
		}
		if l, isURL := e.license(); isURL {
			d["license"] = l
		}
		if federal {
			d["bureauCode"] = opts.BureauCode
			d["programCode"] = opts.ProgramCode
		}
		datasets = append(datasets, d)
	}
	return map[string]any{
		"@context":    PODContext,
		"@type":       "dcat:Catalog",
		"conformsTo":  PODConformsTo,
		"describedBy": PODDescribedBy,
		"dataset":     datasets,
	}, x.probs
}
