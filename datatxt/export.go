package datatxt

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"

	"github.com/sitetxt/sitetxt/termsafe"

	"gopkg.in/yaml.v3"
)

// Formats lists the formats Export writes: the entries as JSON, YAML and
// CSV, then the CatalogFormats.
var Formats = append([]string{"json", "yaml", "csv"}, CatalogFormats...)

// CatalogFormats are the Formats that are catalog documents.
var CatalogFormats = []string{"schemaorg", "dcat", "datajson", "datapackage", "croissant"}

// formatTypes are the media types of the Formats' documents.
var formatTypes = map[string]string{
	"json": "application/json", "yaml": "application/yaml", "csv": "text/csv",
	"schemaorg": "application/ld+json", "dcat": "application/ld+json", "croissant": "application/ld+json",
	"datajson": "application/json", "datapackage": "application/json",
}

// MediaType returns the media type of the document Export writes in
// format (one of Formats), "" for another format.
func MediaType(format string) string { return formatTypes[format] }

// IsCatalogFormat reports whether format is one of CatalogFormats.
func IsCatalogFormat(format string) bool { return slices.Contains(CatalogFormats, format) }

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
	// discover); absent for an entry a data.txt lists. Sources is
	// "found_in" in JSON: "sources" is prefs' list of statements' names,
	// and one key has one type across the commands.
	ID         string               `json:"id,omitempty" yaml:"id,omitempty"`
	Sources    []SourceRef          `json:"found_in,omitempty" yaml:"found_in,omitempty"`
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
	var (
		doc   any
		probs Problems
	)
	switch format {
	case "json":
		doc = c.Views()
	case "yaml":
		return nil, writeYAML(w, c.Views())
	case "csv":
		return nil, writeCSV(w, c)
	case "schemaorg":
		doc, probs = SchemaOrg(c, opts)
	case "dcat":
		doc, probs = DCAT(c, opts)
	case "datajson":
		doc, probs = DataJSON(c, opts)
	case "datapackage":
		doc, probs = DataPackage(c, opts)
	case "croissant":
		doc, probs = Croissant(c, opts)
	default:
		return nil, fmt.Errorf("unknown export format %q", format)
	}
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
