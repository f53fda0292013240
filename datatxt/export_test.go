package datatxt

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"gopkg.in/yaml.v3"
)

// exportOpts are the flags a catalog builder gives: what a data.txt cannot
// say.
var exportOpts = ExportOptions{Publisher: "Example Org", ContactName: "Data Team", ContactEmail: "data@example.org"}

// exportCases are the catalogs every export format is checked with.
func exportCases(t *testing.T) map[string]*Catalog {
	t.Helper()
	read := func(name string) []byte {
		src, err := os.ReadFile("../testdata/datatxt/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	return map[string]*Catalog{
		"list":        Parse("list", read("list.yaml.txt"), Options{Base: "https://data.example.org/data.txt"}),
		"records":     Parse("records", read("records.txt"), Options{Base: "https://data.example.org/data.txt", Rules: compileFake}),
		"pins":        Parse("pins", read("pins.yaml.txt"), Options{}),
		"invalid":     Parse("invalid", read("invalid.yaml.txt"), Options{}),
		"odd names":   Parse("odd", []byte("- path: /A B/Ünïcode Data.CSV\n- path: x.csv\n  name: Same\n- path: y.csv\n  name: same\n- path: ../up.csv\n  license: CC-BY 4.0\n"), Options{}),
		"no metadata": Parse("bare", []byte("- path: a\n"), Options{Base: "https://x.org/d/data.txt"}),
	}
}

// exportJSON runs Export and decodes its output.
func exportJSON(t *testing.T, c *Catalog, format string) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if _, err := Export(&buf, c, format, exportOpts); err != nil {
		t.Fatalf("Export(%s): %v", format, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("Export(%s) is not a JSON object: %v\n%s", format, err, buf.Bytes())
	}
	return doc
}

func list(t *testing.T, where string, v any) []map[string]any {
	t.Helper()
	xs, ok := v.([]any)
	if !ok {
		t.Fatalf("%s: %T is not a list", where, v)
	}
	out := make([]map[string]any, len(xs))
	for i, x := range xs {
		if out[i], ok = x.(map[string]any); !ok {
			t.Fatalf("%s[%d]: %T is not an object", where, i, x)
		}
	}
	return out
}

func paths(c *Catalog) int {
	n := 0
	for _, e := range c.Entries {
		n += len(e.Paths)
	}
	return n
}

// Frictionless Data Package v1: resources is a non-empty list; each
// resource has a name matching ^([-a-z0-9._/])+$, unique in the package,
// and a path (a string or list of strings: a URL or a relative POSIX path
// without "..") or data.
func TestExportDataPackage(t *testing.T) {
	for name, c := range exportCases(t) {
		t.Run(name, func(t *testing.T) {
			doc := exportJSON(t, c, "datapackage")
			if n, ok := doc["name"].(string); ok && !frictionlessName.MatchString(n) {
				t.Errorf("package name %q does not match %s", n, frictionlessName)
			}
			rs := list(t, "resources", doc["resources"])
			if len(rs) == 0 || len(rs) != paths(c) {
				t.Errorf("%d resources, want %d (one per path)", len(rs), paths(c))
			}
			seen := map[string]bool{}
			for _, r := range rs {
				n, _ := r["name"].(string)
				if !frictionlessName.MatchString(n) {
					t.Errorf("resource name %q does not match %s", n, frictionlessName)
				}
				if seen[n] {
					t.Errorf("resource name %q is not unique", n)
				}
				seen[n] = true
				p, ok := r["path"].(string)
				if !ok && r["data"] == nil {
					t.Errorf("resource %q has neither path nor data", n)
				}
				if strings.HasPrefix(p, "/") || strings.Contains(p, "..") && !strings.Contains(p, "://") {
					t.Errorf("resource %q path %q is not a URL or a safe relative path", n, p)
				}
				if ls, ok := r["licenses"]; ok {
					for _, l := range list(t, "licenses", ls) {
						if l["name"] == nil && l["path"] == nil {
							t.Errorf("license %v has neither name nor path", l)
						}
					}
				}
			}
		})
	}
	var buf bytes.Buffer
	if probs, _ := Export(&buf, &Catalog{Name: "empty"}, "datapackage", ExportOptions{}); !probs.HasErrors() {
		t.Errorf("Export(datapackage) of no entries reported nothing; a package needs a resource")
	}
}

func TestExportJSONYAMLCSV(t *testing.T) {
	for name, c := range exportCases(t) {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if _, err := Export(&buf, c, "json", ExportOptions{}); err != nil {
				t.Fatal(err)
			}
			var js []map[string]any
			if err := json.Unmarshal(buf.Bytes(), &js); err != nil {
				t.Fatal(err)
			}
			if len(js) != len(c.Entries) {
				t.Errorf("json: %d entries, want %d", len(js), len(c.Entries))
			}
			for _, e := range js {
				for _, k := range []string{"name", "paths", "urls", "line", "allowed", "metadata"} {
					if _, ok := e[k]; !ok {
						t.Errorf("json entry lacks %q: %v", k, e)
					}
				}
			}
			buf.Reset()
			if _, err := Export(&buf, c, "yaml", ExportOptions{}); err != nil {
				t.Fatal(err)
			}
			var ys []map[string]any
			if err := yaml.Unmarshal(buf.Bytes(), &ys); err != nil || len(ys) != len(c.Entries) {
				t.Errorf("yaml: %d entries, %v; want %d", len(ys), err, len(c.Entries))
			}
			buf.Reset()
			if _, err := Export(&buf, c, "csv", ExportOptions{}); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 1+paths(c) || strings.Join(rows[0], ",") != "name,path,url,line,column,verdict,metadata" {
				t.Errorf("csv: %d rows, header %q; want %d", len(rows), rows[0], 1+paths(c))
			}
		})
	}
	if _, err := Export(new(bytes.Buffer), &Catalog{}, "xml", ExportOptions{}); err == nil {
		t.Error(`Export("xml") succeeded`)
	}
}

// TestExportFill checks what is filled from where: metadata and flags
// when given; nothing, and a Problem naming the field, when not.
func TestExportFill(t *testing.T) {
	c := exportCases(t)["list"]
	doc := exportJSON(t, c, "datajson")
	d := doc["dataset"].([]any)[0].(map[string]any)
	for k, want := range map[string]any{
		"title": "Population by county, 2020 census", "modified": "2021-08-12",
		"license": "https://creativecommons.org/licenses/by/4.0/", "identifier": "https://data.example.org/data.txt#population-2020",
	} {
		if d[k] != want {
			t.Errorf("dataset[0][%q] = %v, want %v", k, d[k], want)
		}
	}
	if kw := d["keyword"].([]any); len(kw) != 2 || kw[0] != "census" {
		t.Errorf("keyword = %v, want [census population]", kw)
	}
	if p := d["publisher"].(map[string]any)["name"]; p != "Example Org" {
		t.Errorf("publisher = %v, want --publisher's", p)
	}
	d = doc["dataset"].([]any)[1].(map[string]any)
	if _, ok := d["modified"]; ok {
		t.Errorf("dataset[1] modified = %v; the data.txt gives none, so none may be written", d["modified"])
	}
	if _, ok := d["keyword"]; ok {
		t.Errorf("dataset[1] keyword = %v; the data.txt gives none", d["keyword"])
	}
	// Without the flags: no publisher, no contact point, each reported.
	var buf bytes.Buffer
	probs, err := Export(&buf, exportCases(t)["pins"], "datajson", ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var bare map[string]any
	if err := json.Unmarshal(buf.Bytes(), &bare); err != nil {
		t.Fatal(err)
	}
	pins := bare["dataset"].([]any)[0].(map[string]any)
	for _, k := range []string{"publisher", "contactPoint", "description"} {
		if _, ok := pins[k]; ok {
			t.Errorf("pins %s = %v; nothing gives it, so it may not be written", k, pins[k])
		}
		if !hasProblem(probs, k) {
			t.Errorf("no Problem names the missing %q: %v", k, probs.Diagnostics())
		}
	}
	if pins["modified"] != "2022-08-11T15:58:05Z" {
		t.Errorf("pins modified = %v, want pins' created time", pins["modified"])
	}
	// Frictionless: the columns become a schema, in file order.
	pkg := exportJSON(t, c, "datapackage")
	r := pkg["resources"].([]any)[1].(map[string]any)
	if r["name"] != "weather-daily.csv" {
		t.Errorf("resource name = %v, want weather-daily.csv", r["name"])
	}
	fields := r["schema"].(map[string]any)["fields"].([]any)
	var got []string
	for _, f := range fields {
		f := f.(map[string]any)
		got = append(got, f["name"].(string)+":"+f["type"].(string))
	}
	if strings.Join(got, " ") != "station:string date:date tmax:number rain_mm:number" {
		t.Errorf("schema fields = %v", got)
	}
	if pkg["name"] != "data.example.org" {
		t.Errorf("package name = %v", pkg["name"])
	}
	// pins' file_size is the resource's bytes.
	pr := exportJSON(t, exportCases(t)["pins"], "datapackage")["resources"].([]any)[0].(map[string]any)
	if pr["bytes"] != float64(1303) {
		t.Errorf("pins resource bytes = %v, want file_size 1303", pr["bytes"])
	}
}

func hasProblem(ps Problems, field string) bool {
	for _, p := range ps {
		if p.Field == field && p.Severity.String() == "error" {
			return true
		}
	}
	return false
}

// TestMediaTypes: data.json and the other exports name the IANA media
// type of common data files, calendars and Parquet included.
func TestMediaTypes(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"/a/cal.ics", "text/calendar"}, {"/d.parquet", "application/vnd.apache.parquet"},
		{"/x.CSV", "text/csv"}, {"/g.kml", "application/vnd.google-earth.kml+xml"}, {"/u.unknownext", ""},
	} {
		if got := mediaType(tt.path); got != tt.want {
			t.Errorf("mediaType(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestExportSaysWhatItCannotKnow: a data.txt read from a file gets its
// dataset IRIs minted from the base it is given; without one, DCAT says
// why there is none and a Data Package says its paths stay relative.
func TestExportSaysWhatItCannotKnow(t *testing.T) {
	src := []byte("- path: a.csv\n  name: A\n")
	based := Parse("local/data.txt", src, Options{Base: "https://x.org/d/data.txt"})
	doc, _ := DCAT(based, ExportOptions{})
	ds := doc["dcat:dataset"].([]any)[0].(map[string]any)
	if ds["@id"] != "https://x.org/d/data.txt#a" {
		t.Errorf("DCAT dataset @id with a base = %v, want https://x.org/d/data.txt#a", ds["@id"])
	}
	bare := Parse("local/data.txt", src, Options{})
	has := func(ps Problems, field string, sev grammar.Severity) bool {
		for _, p := range ps {
			if p.Field == field && p.Severity == sev {
				return true
			}
		}
		return false
	}
	if _, ps := DCAT(bare, ExportOptions{}); !has(ps, "@id", grammar.Warning) {
		t.Errorf("DCAT without a base: problems %v, want a warning on @id", ps)
	}
	// A package of relative paths written elsewhere than the data.txt
	// points nowhere: an error (issue 35, item 6).
	if _, ps := DataPackage(bare, ExportOptions{}); !has(ps, "path", grammar.Error) {
		t.Errorf("DataPackage without a base: problems %v, want an error on path", ps)
	}
	// data.json requires mediaType beside downloadURL: a file whose type
	// sitetxt cannot tell is named.
	odd := Parse("local/data.txt", []byte("- path: a.weird\n  name: A\n"), Options{Base: "https://x.org/d/data.txt"})
	if _, ps := DataJSON(odd, ExportOptions{}); !has(ps, "mediaType", grammar.Error) {
		t.Errorf("DataJSON of a.weird: problems %v, want an error on mediaType", ps)
	}
	if _, ps := DataJSON(based, ExportOptions{}); has(ps, "mediaType", grammar.Error) {
		t.Errorf("DataJSON of a.csv: problems %v, want none on mediaType", ps)
	}
}

func TestMediaType(t *testing.T) {
	for _, f := range Formats {
		if MediaType(f) == "" {
			t.Errorf("MediaType(%q) = \"\", want a media type", f)
		}
		if got, want := IsCatalogFormat(f), slices.Contains(CatalogFormats, f); got != want {
			t.Errorf("IsCatalogFormat(%q) = %v, want %v", f, got, want)
		}
	}
	if got := MediaType("schemaorg"); got != "application/ld+json" {
		t.Errorf("MediaType(%q) = %q, want %q", "schemaorg", got, "application/ld+json")
	}
	if got := MediaType("xml"); got != "" {
		t.Errorf("MediaType(%q) = %q, want \"\"", "xml", got)
	}
}

// TestExportFormatsTable: each row of the table is written one way (a
// JSON document or a writer of its own) and exports, and the lists the
// API gives are the table's, in its order.
func TestExportFormatsTable(t *testing.T) {
	want := []string{"json", "yaml", "csv", "schemaorg", "dcat", "datajson", "datapackage", "croissant"}
	if !slices.Equal(Formats, want) {
		t.Errorf("Formats = %q, want %q", Formats, want)
	}
	if !slices.Equal(CatalogFormats, want[3:]) {
		t.Errorf("CatalogFormats = %q, want %q", CatalogFormats, want[3:])
	}
	for _, f := range exportFormats {
		if (f.doc == nil) == (f.write == nil) {
			t.Errorf("format %q: doc set %v, write set %v; want exactly one", f.name, f.doc != nil, f.write != nil)
		}
		if _, err := Export(io.Discard, &Catalog{Name: "empty"}, f.name, ExportOptions{}); err != nil {
			t.Errorf("Export(empty, %q): %v", f.name, err)
		}
	}
	if _, err := Export(io.Discard, &Catalog{}, "xml", ExportOptions{}); err == nil || err.Error() != `unknown export format "xml"` {
		t.Errorf("Export(xml) error = %v, want unknown export format", err)
	}
}
