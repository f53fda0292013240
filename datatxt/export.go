package datatxt

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"

	"github.com/sitetxt/sitetxt/termsafe"

	"gopkg.in/yaml.v3"
)

// exportFormat is one format Export writes: a row of the table.
type exportFormat struct {
	// name names the format in Export, sitetxt's -o and serve's "format".
	name string
	// mediaType is the media type of the document written.
	mediaType string
	// doc builds the document, written as indented JSON, and checks it:
	// the Problems name each required field no input gave (a catalog
	// document's checks; the entry list has none). nil for a format with
	// a writer of its own.
	doc func(*Catalog, ExportOptions) (any, Problems)
	// write writes a format that is not a JSON document; nil when doc is
	// set.
	write func(io.Writer, *Catalog) error
	// catalog is set for a catalog document (CatalogFormats).
	catalog bool
}

// exportFormats is the table of the formats Export writes, in the order
// Formats lists them: the entries as JSON, YAML and CSV, then the catalog
// documents.
var exportFormats = []exportFormat{
	{name: "json", mediaType: "application/json", doc: func(c *Catalog, _ ExportOptions) (any, Problems) { return c.Views(), nil }},
	{name: "yaml", mediaType: "application/yaml", write: func(w io.Writer, c *Catalog) error { return writeYAML(w, c.Views()) }},
	{name: "csv", mediaType: "text/csv", write: writeCSV},
	{name: "schemaorg", mediaType: "application/ld+json", doc: document(SchemaOrg), catalog: true},
	{name: "dcat", mediaType: "application/ld+json", doc: document(DCAT), catalog: true},
	{name: "datajson", mediaType: "application/json", doc: document(DataJSON), catalog: true},
	{name: "datapackage", mediaType: "application/json", doc: document(DataPackage), catalog: true},
	{name: "croissant", mediaType: "application/ld+json", doc: document(Croissant), catalog: true},
}

// document makes a catalog document's builder (SchemaOrg, DCAT, ...) a
// row's doc.
func document[D any](build func(*Catalog, ExportOptions) (D, Problems)) func(*Catalog, ExportOptions) (any, Problems) {
	return func(c *Catalog, opts ExportOptions) (any, Problems) { return build(c, opts) }
}

// Formats lists the formats Export writes: the entries as JSON, YAML and
// CSV, then the CatalogFormats.
var Formats = formatNames(false)

// CatalogFormats are the Formats that are catalog documents.
var CatalogFormats = formatNames(true)

// formatNames returns the names of the table's formats, in order: every
// one, or only the catalog documents.
func formatNames(catalogOnly bool) []string {
	var out []string
	for _, f := range exportFormats {
		if f.catalog || !catalogOnly {
			out = append(out, f.name)
		}
	}
	return out
}

// formatOf returns the row of the format called name, nil for none.
func formatOf(name string) *exportFormat {
	for i := range exportFormats {
		if exportFormats[i].name == name {
			return &exportFormats[i]
		}
	}
	return nil
}

// MediaType returns the media type of the document Export writes in
// format (one of Formats), "" for another format.
func MediaType(format string) string {
	if f := formatOf(format); f != nil {
		return f.mediaType
	}
	return ""
}

// IsCatalogFormat reports whether format is one of CatalogFormats.
func IsCatalogFormat(format string) bool {
	f := formatOf(format)
	return f != nil && f.catalog
}

// EntryView is the JSON and YAML form of an entry: "path" is a string for
// one path and a list for several.
type EntryView struct {
	Name     string         `json:"name" yaml:"name"`
	Paths    []string       `json:"paths" yaml:"paths"`
	URLs     []string       `json:"urls" yaml:"urls"`
	Line     int            `json:"line" yaml:"line"`
	Column   int            `json:"column" yaml:"column"`
	Allowed  *bool          `json:"allowed" yaml:"allowed"` // null when Access is Unknown
	DeniedBy string         `json:"denied_by,omitempty" yaml:"denied_by,omitempty"`
	Metadata map[string]any `json:"metadata" yaml:"metadata"`
	// ID, Sources and Provenance are a discovered entry's (package
	// discover); absent for an entry a data.txt lists.
	ID         string               `json:"id,omitempty" yaml:"id,omitempty"`
	Sources    []SourceRef          `json:"sources,omitempty" yaml:"sources,omitempty"`
	Provenance map[string]SourceRef `json:"provenance,omitempty" yaml:"provenance,omitempty"`
}

// View returns the JSON and YAML form of the entry.
func (e *Entry) View() EntryView {
	v := EntryView{Name: e.Name, URLs: e.URLs, Line: e.Pos.Line, Column: e.Pos.Column,
		DeniedBy: e.DeniedBy, Metadata: e.Metadata, ID: e.ID, Sources: e.Sources, Provenance: e.Provenance}
	if e.Access != Unknown {
		ok := e.Access == Allowed
		v.Allowed = &ok
	}
	v.Paths = e.Paths
	if v.Paths == nil {
		v.Paths = []string{}
	}
	if v.URLs == nil {
		v.URLs = []string{}
	}
	if v.Metadata == nil {
		v.Metadata = map[string]any{}
	}
	return v
}

// Views returns the JSON and YAML form of every entry.
func (c *Catalog) Views() []EntryView {
	out := make([]EntryView, len(c.Entries))
	for i, e := range c.Entries {
		out[i] = e.View()
	}
	return out
}

// Export writes the catalog's entries to w in format, one of Formats:
//
//   - json: an array of EntryView objects
//   - yaml: the same as a YAML list, every string a YAML 1.1 reader would
//     take for another type ("yes", "no", "2021-08-12", "1:20") quoted
//   - csv: a header and one row per path: name, path, url, line, column,
//     verdict ("allowed", "disallowed" or empty), metadata (a JSON
//     object); a cell starting with "=", "+", "-", "@", a tab or a
//     carriage return is prefixed with "'" so that spreadsheets do not run
//     it as a formula
//   - schemaorg, dcat, datajson, datapackage, croissant: the documents
//     SchemaOrg, DCAT, DataJSON, DataPackage and Croissant (a JSON array of
//     Croissant documents, one per dataset) return, as indented JSON
//
// The catalog formats return the Problems of the export: a required field
// that no input gave is left out (never invented) and reported as an
// error naming it; the document is written all the same.
func Export(w io.Writer, c *Catalog, format string, opts ExportOptions) (Problems, error) {
	f := formatOf(format)
	switch {
	case f == nil:
		return nil, fmt.Errorf("unknown export format %q", format)
	case f.write != nil:
		return nil, f.write(w, c)
	}
	doc, probs := f.doc(c, opts)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return probs, enc.Encode(doc)
}

func writeCSV(w io.Writer, c *Catalog) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"name", "path", "url", "line", "column", "verdict", "metadata"})
	for _, e := range c.Entries {
		meta, err := json.Marshal(nonNil(e.Metadata))
		if err != nil {
			return err
		}
		allowed := ""
		if e.Access != Unknown {
			allowed = e.Access.String()
		}
		urls := e.urlByPath()
		for i, p := range e.Paths {
			cw.Write(csvSafe([]string{e.Name, p, urls[i], strconv.Itoa(e.Pos.Line), strconv.Itoa(e.Pos.Column), allowed, string(meta)}))
		}
		if len(e.Paths) == 0 { // a discovered dataset its sources give no file for
			cw.Write(csvSafe([]string{e.Name, "", "", strconv.Itoa(e.Pos.Line), strconv.Itoa(e.Pos.Column), allowed, string(meta)}))
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvSafe makes each cell safe on a terminal and in a spreadsheet
// (termsafe.CSVCell: control characters escaped, formulas neutralised).
// The row is changed in place and returned.
func csvSafe(row []string) []string {
	for i, c := range row {
		row[i] = termsafe.CSVCell(c)
	}
	return row
}

// writeYAML encodes v as YAML with every plain string that a YAML 1.1
// reader (R's yaml package, PyYAML) would take for a bool, null, number,
// timestamp, merge or value key written double-quoted.
func writeYAML(w io.Writer, v any) error {
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return err
	}
	quoteYAML11(&n)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return err
	}
	return enc.Close()
}

func quoteYAML11(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!merge" {
		n.Tag = "!!str" // yaml.v3 tags the string "<<" this way
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && (n.Style == 0 || n.Style == yaml.TaggedStyle) && yaml11NotString(n.Value) {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		quoteYAML11(c)
	}
}

// yaml11Types matches the plain scalars YAML 1.1's type repository
// (yaml.org/type) resolves to something other than a string.
var yaml11Types = regexp.MustCompile(`^(?:` +
	`[yYnN]|[Yy]es|YES|[Nn]o|NO|[Tt]rue|TRUE|[Ff]alse|FALSE|[Oo]n|ON|[Oo]ff|OFF` + // bool
	`|~|[Nn]ull|NULL|` + // null (and the empty string)
	`|[-+]?0b[01_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+` + // int
	`|[-+]?(?:[0-9][0-9_]*)?\.[0-9.]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)` + // float
	`|[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?` + // timestamp
	`|<<|=` + // merge, value
	`)$`)

func yaml11NotString(s string) bool { return yaml11Types.MatchString(s) }

// urlByPath returns the URL of each path, "" for a path without one.
func (e *Entry) urlByPath() []string {
	out := make([]string, len(e.Paths))
	if len(e.URLs) == len(e.Paths) {
		copy(out, e.URLs)
		return out
	}
	// Some paths had no URL: match them up by position of the bad ones.
	j := 0
	for i := range e.Paths {
		if j < len(e.URLs) && e.goodPath(i) {
			out[i] = e.URLs[j]
			j++
		}
	}
	return out
}

func (e *Entry) goodPath(i int) bool {
	for _, b := range e.badPaths {
		if b == i {
			return false
		}
	}
	return true
}

// nonNil returns m, or an empty map for nil (so JSON shows {}, not null).
func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
