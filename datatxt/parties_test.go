package datatxt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// discovered returns a catalog of two entries as package discover makes
// them: each with its sources and the provenance of its metadata. A
// states a publisher and a contact point (as a data.json does), B a
// publisher and a creator who is a person (as a Croissant file does);
// publisher2, when set, is B's publisher instead.
func discovered(t *testing.T, publisher2 string) *Catalog {
	t.Helper()
	c := Parse("https://x.org/", []byte("- name: A\n  path: a.csv\n  description: Dataset A.\n- name: B\n  path: b.csv\n  description: Dataset B.\n"), Options{Base: "https://x.org/data.txt"})
	if publisher2 == "" {
		publisher2 = "County Office"
	}
	stated := []map[string]any{
		{"publisher": "County Office", "contact": "Data Desk", "contact_email": "data@x.org"},
		{"publisher": publisher2, "creator": "Ann Forester", "creator_type": "Person"},
	}
	kinds := []string{"data.json", "croissant"}
	for i, e := range c.Entries {
		ref := SourceRef{Kind: kinds[i], URL: "https://x.org/" + kinds[i]}
		e.Sources = []SourceRef{ref}
		e.Provenance = map[string]SourceRef{"/name": ref}
		for k, v := range stated[i] {
			e.Metadata[k] = v
			e.Provenance["/metadata/"+k] = ref
		}
	}
	return c
}

// exportAny runs Export and decodes its document.
func exportAny(t *testing.T, c *Catalog, format string, opts ExportOptions) (any, Problems) {
	t.Helper()
	var buf bytes.Buffer
	probs, err := Export(&buf, c, format, opts)
	if err != nil {
		t.Fatalf("Export(%s): %v", format, err)
	}
	var doc any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("Export(%s): %v", format, err)
	}
	return doc, probs
}

// at walks a decoded document: object keys and list indexes ("0").
func at(doc any, path ...string) any {
	for _, p := range path {
		switch d := doc.(type) {
		case map[string]any:
			doc = d[p]
		case []any:
			i := int(p[0] - '0')
			if i >= len(d) {
				return nil
			}
			doc = d[i]
		default:
			return nil
		}
	}
	return doc
}

// TestExportStatedParties: the catalog exports take a discovered
// dataset's publisher, contact point and creator from what its sources
// state when no flag gives them, the flags overriding; the catalog's
// publisher is the one its datasets state. A data.txt's own keys give
// none, as before.
func TestExportStatedParties(t *testing.T) {
	flags := ExportOptions{Publisher: "Flag Org", ContactName: "Flag Desk", ContactEmail: "flag@x.org"}
	plain := Parse("data.txt", []byte("- name: P\n  path: p.csv\n  description: Dataset P.\n  publisher: Someone\n  contact: Someone\n"), Options{Base: "https://x.org/data.txt"})
	tests := []struct {
		name    string
		c       *Catalog
		format  string
		opts    ExportOptions
		path    []string
		want    any    // nil: the field is absent
		problem string // a Problem's field and text, "" for none
	}{
		{"data.json publisher", discovered(t, ""), "datajson", ExportOptions{}, []string{"dataset", "0", "publisher", "name"}, "County Office", ""},
		{"data.json contact name", discovered(t, ""), "datajson", ExportOptions{}, []string{"dataset", "0", "contactPoint", "fn"}, "Data Desk", ""},
		{"data.json contact email", discovered(t, ""), "datajson", ExportOptions{}, []string{"dataset", "0", "contactPoint", "hasEmail"}, "mailto:data@x.org", ""},
		{"data.json no contact stated", discovered(t, ""), "datajson", ExportOptions{}, []string{"dataset", "1", "contactPoint"}, nil,
			`contactPoint: datajson: dataset "B": no contactPoint: its sources name none: give --contact`},
		{"data.json flags override", discovered(t, ""), "datajson", flags, []string{"dataset", "0", "publisher", "name"}, "Flag Org", ""},
		{"data.json flags' contact", discovered(t, ""), "datajson", flags, []string{"dataset", "0", "contactPoint", "hasEmail"}, "mailto:flag@x.org", ""},
		{"dcat catalog publisher", discovered(t, ""), "dcat", ExportOptions{}, []string{"dct:publisher", "foaf:name"}, "County Office", ""},
		{"dcat contact point", discovered(t, ""), "dcat", ExportOptions{}, []string{"dcat:dataset", "0", "dcat:contactPoint", "vcard:fn"}, "Data Desk", ""},
		{"dcat two publishers", discovered(t, "Other Office"), "dcat", ExportOptions{}, []string{"dct:publisher"}, nil,
			`publisher: dcat: catalog: no publisher: its datasets' sources name 2 ("County Office", "Other Office"): give --publisher`},
		{"dcat flag over two publishers", discovered(t, "Other Office"), "dcat", flags, []string{"dct:publisher", "foaf:name"}, "Flag Org", ""},
		{"croissant creator", discovered(t, ""), "croissant", ExportOptions{}, []string{"1", "creator", "name"}, "Ann Forester", ""},
		{"croissant creator's type", discovered(t, ""), "croissant", ExportOptions{}, []string{"1", "creator", "@type"}, "sc:Person", ""},
		{"croissant publisher as creator", discovered(t, ""), "croissant", ExportOptions{}, []string{"0", "creator", "name"}, "County Office", ""},
		{"croissant flag", discovered(t, ""), "croissant", flags, []string{"1", "creator", "name"}, "Flag Org", ""},
		{"schema.org creator", discovered(t, ""), "schemaorg", ExportOptions{}, []string{"dataset", "1", "creator", "name"}, "Ann Forester", ""},
		{"schema.org publisher as creator", discovered(t, ""), "schemaorg", ExportOptions{}, []string{"dataset", "0", "creator", "@type"}, "Organization", ""},
		{"schema.org catalog publisher", discovered(t, ""), "schemaorg", ExportOptions{}, []string{"publisher", "name"}, "County Office", ""},
		{"data.txt keys give none", plain, "datajson", ExportOptions{}, []string{"dataset", "0", "publisher"}, nil,
			`publisher: datajson: dataset "P": no publisher: a data.txt cannot name one: give --publisher`},
		{"data.txt keys give no catalog publisher", plain, "dcat", ExportOptions{}, []string{"dct:publisher"}, nil,
			"publisher: dcat: catalog: no publisher: a data.txt cannot name one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, probs := exportAny(t, tt.c, tt.format, tt.opts)
			if got := at(doc, tt.path...); got != tt.want && !(tt.want == nil && got == nil) {
				t.Errorf("Export(%s) %s = %v, want %v", tt.format, strings.Join(tt.path, "/"), got, tt.want)
			}
			var said []string
			found := false
			for _, p := range probs {
				s := p.Field + ": " + p.Summary
				said = append(said, s)
				found = found || tt.problem != "" && strings.Contains(s, tt.problem)
			}
			if tt.problem != "" && !found {
				t.Errorf("Export(%s) problems %q, want one saying %q", tt.format, said, tt.problem)
			}
		})
	}
}
