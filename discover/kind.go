package discover

import (
	"fmt"
	"strings"
)

// Kind is a convention a site publishes datasets by: a source of
// statements about datasets. Its name is the one --discover takes and
// the "kind" of a dataset's sources.
type Kind string

// The kinds, in the order their statements take precedence when sources
// disagree: the manifests a site publishes for catalogs first, then a
// dataset's own metadata file, then what its pages say.
const (
	DataTxt     Kind = "data.txt"    // /data.txt, and the pins boards it leads to
	DataJSON    Kind = "data.json"   // /data.json: Project Open Data, DCAT-US 1.1
	DCAT        Kind = "dcat"        // DCAT in JSON-LD: /catalog.jsonld, documents pages link to, blocks in pages
	Croissant   Kind = "croissant"   // MLCommons Croissant: schema.org Datasets that conform to it, in files or pages
	SchemaOrg   Kind = "schema.org"  // schema.org Dataset JSON-LD in pages (what Google Dataset Search reads)
	Signposting Kind = "signposting" // FAIR Signposting: Link headers and <link> elements of landing pages
)

// Kinds lists every kind, in precedence order.
var Kinds = []Kind{DataTxt, DataJSON, DCAT, Croissant, SchemaOrg, Signposting}

// precedence is the rank of a kind in Kinds.
func (k Kind) precedence() int {
	for i, c := range Kinds {
		if c == k {
			return i
		}
	}
	return len(Kinds)
}

// ParseKinds reads --discover's values: kind names, comma-separated or one
// per value, and "all" for every kind. The result is in precedence order,
// each kind once.
func ParseKinds(values []string) ([]Kind, error) {
	want := map[Kind]bool{}
	for _, v := range values {
		for _, name := range strings.Split(v, ",") {
			name = strings.ToLower(strings.TrimSpace(name))
			switch {
			case name == "all":
				for _, k := range Kinds {
					want[k] = true
				}
			case Kind(name).precedence() < len(Kinds):
				want[Kind(name)] = true
			default:
				return nil, fmt.Errorf("unknown source %q (want all, %s)", name, kindList())
			}
		}
	}
	var out []Kind
	for _, k := range Kinds {
		if want[k] {
			out = append(out, k)
		}
	}
	return out, nil
}

func kindList() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
