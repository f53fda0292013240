package datatxt

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"

	"gopkg.in/yaml.v3"
)

// Formats lists the formats Export writes.
var Formats = []string{"json", "yaml", "csv", "schemaorg", "dcat", "datajson", "datapackage"}

// EntryView is the JSON and YAML form of an entry: "path" is a string for
// one path and a list for several.
type EntryView struct {
	Name     string         `json:"name" yaml:"name"`
	Path     any            `json:"path" yaml:"path"`
	URLs     []string       `json:"urls" yaml:"urls"`
	Line     int            `json:"line" yaml:"line"`
	Column   int            `json:"column" yaml:"column"`
	Allowed  *bool          `json:"allowed" yaml:"allowed"`
	DeniedBy string         `json:"denied_by,omitempty" yaml:"denied_by,omitempty"`
	Metadata map[string]any `json:"metadata" yaml:"metadata"`
}

// View returns the JSON and YAML form of the entry.
func (e *Entry) View() EntryView {
	v := EntryView{Name: e.Name, URLs: e.URLs, Line: e.Pos.Line, Column: e.Pos.Column,
		Allowed: e.Allowed, DeniedBy: e.DeniedBy, Metadata: e.Metadata}
	if len(e.Paths) == 1 {
		v.Path = e.Paths[0]
	} else {
		v.Path = e.Paths
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
//   - yaml: the same as a YAML list
//   - csv: a header and one row per path: name, path, url, line, column,
//     allowed (true, false or empty), metadata (a JSON object)
//   - schemaorg, dcat, datajson, datapackage: the documents SchemaOrg,
//     DCAT, DataJSON and DataPackage return, as indented JSON
func Export(w io.Writer, c *Catalog, format string, opts ExportOptions) error {
	var doc any
	switch format {
	case "json":
		doc = c.Views()
	case "yaml":
		enc := yaml.NewEncoder(w)
		enc.SetIndent(2)
		if err := enc.Encode(c.Views()); err != nil {
			return err
		}
		return enc.Close()
	case "csv":
		return writeCSV(w, c)
	case "schemaorg":
		doc = SchemaOrg(c, opts)
	case "dcat":
		doc = DCAT(c, opts)
	case "datajson":
		doc = DataJSON(c, opts)
	case "datapackage":
		if len(c.Entries) == 0 {
			return fmt.Errorf("a data package needs at least one resource and the file lists no datasets")
		}
		doc = DataPackage(c, opts)
	default:
		return fmt.Errorf("unknown export format %q", format)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

func writeCSV(w io.Writer, c *Catalog) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"name", "path", "url", "line", "column", "allowed", "metadata"})
	for _, e := range c.Entries {
		meta, err := json.Marshal(nonNil(e.Metadata))
		if err != nil {
			return err
		}
		allowed := ""
		if e.Allowed != nil {
			allowed = strconv.FormatBool(*e.Allowed)
		}
		urls := e.urlByPath()
		for i, p := range e.Paths {
			cw.Write([]string{e.Name, p, urls[i], strconv.Itoa(e.Pos.Line), strconv.Itoa(e.Pos.Column), allowed, string(meta)})
		}
	}
	cw.Flush()
	return cw.Error()
}

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
