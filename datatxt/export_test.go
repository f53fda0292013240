package datatxt

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

var exportNow = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)

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
	if err := Export(&buf, c, format, ExportOptions{Now: exportNow}); err != nil {
		t.Fatalf("Export(%s): %v", format, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("Export(%s) is not a JSON object: %v\n%s", format, err, buf.Bytes())
	}
	return doc
}

// need fails unless m[key] is present and, for strings and lists, not empty.
func need(t *testing.T, where string, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		v, ok := m[k]
		switch x := v.(type) {
		case string:
			ok = ok && strings.TrimSpace(x) != ""
		case []any:
			ok = ok && len(x) > 0
		case nil:
			ok = false
		}
		if !ok {
			t.Errorf("%s: required %q is missing or empty in %v", where, k, m)
		}
	}
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

// Project Open Data v1.1 (https://resources.data.gov/resources/dcat-us/):
// the catalog needs conformsTo and dataset; every dataset title,
// description, keyword, modified, publisher, contactPoint, identifier and
// accessLevel; a distribution with a downloadURL needs a mediaType.
var (
	podModified  = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?|R/P.+|P.+)$`)
	podEmail     = regexp.MustCompile(`^mailto:[\w_~!$&'()*+,;=:.-]+@[\w.-]+\.[\w.-]+?$`)
	podMediaType = regexp.MustCompile(`^[-\w]+/[-\w]+(\.[-\w]+)*([+][-\w]+)?$`)
)

func TestExportDataJSON(t *testing.T) {
	for name, c := range exportCases(t) {
		t.Run(name, func(t *testing.T) {
			doc := exportJSON(t, c, "datajson")
			need(t, "catalog", doc, "conformsTo", "@type")
			if doc["conformsTo"] != "https://project-open-data.cio.gov/v1.1/schema" {
				t.Errorf("conformsTo = %v", doc["conformsTo"])
			}
			ds := list(t, "dataset", doc["dataset"])
			if len(ds) != len(c.Entries) {
				t.Errorf("%d datasets, want %d", len(ds), len(c.Entries))
			}
			for _, d := range ds {
				need(t, "dataset", d, "title", "description", "keyword", "modified", "publisher",
					"contactPoint", "identifier", "accessLevel")
				if m, _ := d["modified"].(string); !podModified.MatchString(m) {
					t.Errorf("modified = %q is not ISO 8601", m)
				}
				if a := d["accessLevel"]; a != "public" && a != "restricted public" && a != "non-public" {
					t.Errorf("accessLevel = %v", a)
				}
				need(t, "publisher", d["publisher"].(map[string]any), "name")
				cp := d["contactPoint"].(map[string]any)
				need(t, "contactPoint", cp, "fn", "hasEmail")
				if e, _ := cp["hasEmail"].(string); !podEmail.MatchString(e) {
					t.Errorf("hasEmail = %q does not match the schema", e)
				}
				for _, k := range d["keyword"].([]any) {
					if s, ok := k.(string); !ok || s == "" {
						t.Errorf("keyword %v is not a non-empty string", k)
					}
				}
				for _, dist := range list(t, "distribution", d["distribution"]) {
					need(t, "distribution", dist, "downloadURL", "mediaType")
					if mt, _ := dist["mediaType"].(string); !podMediaType.MatchString(mt) {
						t.Errorf("mediaType = %q does not match the schema", mt)
					}
				}
			}
		})
	}
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
	if err := Export(&buf, &Catalog{Name: "empty"}, "datapackage", ExportOptions{}); err == nil {
		t.Errorf("Export(datapackage) of no entries succeeded; a package needs a resource")
	}
}

// schema.org: a DataCatalog whose datasets are Datasets with a name and a
// description (what Google's dataset search requires), and DataDownload
// distributions with a contentUrl.
func TestExportSchemaOrg(t *testing.T) {
	for name, c := range exportCases(t) {
		t.Run(name, func(t *testing.T) {
			doc := exportJSON(t, c, "schemaorg")
			need(t, "catalog", doc, "@context", "@type", "name")
			if !strings.Contains(doc["@context"].(string), "schema.org") || doc["@type"] != "DataCatalog" {
				t.Errorf("@context/@type = %v/%v", doc["@context"], doc["@type"])
			}
			for _, d := range list(t, "dataset", doc["dataset"]) {
				need(t, "dataset", d, "@type", "name", "description", "distribution")
				if d["@type"] != "Dataset" {
					t.Errorf("dataset @type = %v", d["@type"])
				}
				for _, dist := range list(t, "distribution", d["distribution"]) {
					need(t, "distribution", dist, "@type", "contentUrl", "encodingFormat")
					if dist["@type"] != "DataDownload" {
						t.Errorf("distribution @type = %v", dist["@type"])
					}
				}
			}
		})
	}
}

// DCAT (DCAT-AP's mandatory properties): a dcat:Catalog with dct:title,
// dct:description, dct:publisher and dcat:dataset; datasets with dct:title
// and dct:description; distributions with dcat:accessURL.
func TestExportDCAT(t *testing.T) {
	for name, c := range exportCases(t) {
		t.Run(name, func(t *testing.T) {
			doc := exportJSON(t, c, "dcat")
			need(t, "catalog", doc, "@context", "@type", "dct:title", "dct:description", "dct:publisher")
			ctx := doc["@context"].(map[string]any)
			if ctx["dcat"] != "http://www.w3.org/ns/dcat#" || ctx["dct"] != "http://purl.org/dc/terms/" {
				t.Errorf("@context = %v", ctx)
			}
			if doc["@type"] != "dcat:Catalog" {
				t.Errorf("@type = %v", doc["@type"])
			}
			ds := list(t, "dcat:dataset", doc["dcat:dataset"])
			if len(ds) != len(c.Entries) {
				t.Errorf("%d datasets, want %d", len(ds), len(c.Entries))
			}
			for _, d := range ds {
				need(t, "dataset", d, "@type", "dct:title", "dct:description", "dcat:distribution")
				for _, dist := range list(t, "distribution", d["dcat:distribution"]) {
					need(t, "distribution", dist, "@type", "dcat:accessURL")
				}
			}
		})
	}
}

func TestExportJSONYAMLCSV(t *testing.T) {
	for name, c := range exportCases(t) {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Export(&buf, c, "json", ExportOptions{}); err != nil {
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
				for _, k := range []string{"name", "path", "urls", "line", "allowed", "metadata"} {
					if _, ok := e[k]; !ok {
						t.Errorf("json entry lacks %q: %v", k, e)
					}
				}
			}
			buf.Reset()
			if err := Export(&buf, c, "yaml", ExportOptions{}); err != nil {
				t.Fatal(err)
			}
			var ys []map[string]any
			if err := yaml.Unmarshal(buf.Bytes(), &ys); err != nil || len(ys) != len(c.Entries) {
				t.Errorf("yaml: %d entries, %v; want %d", len(ys), err, len(c.Entries))
			}
			buf.Reset()
			if err := Export(&buf, c, "csv", ExportOptions{}); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 1+paths(c) || strings.Join(rows[0], ",") != "name,path,url,line,column,allowed,metadata" {
				t.Errorf("csv: %d rows, header %q; want %d", len(rows), rows[0], 1+paths(c))
			}
		})
	}
	if err := Export(new(bytes.Buffer), &Catalog{}, "xml", ExportOptions{}); err == nil {
		t.Error(`Export("xml") succeeded`)
	}
}

// TestExportFill checks what is filled from where: metadata when given,
// the documented placeholders when not.
func TestExportFill(t *testing.T) {
	c := exportCases(t)["list"]
	doc := exportJSON(t, c, "datajson")
	d := doc["dataset"].([]any)[0].(map[string]any)
	for k, want := range map[string]any{
		"title": "Population by county, 2020 census", "modified": "2021-08-12",
		"license": "https://creativecommons.org/licenses/by/4.0/", "identifier": "https://data.example.org/census/population-2020.csv",
	} {
		if d[k] != want {
			t.Errorf("dataset[0][%q] = %v, want %v", k, d[k], want)
		}
	}
	if kw := d["keyword"].([]any); len(kw) != 2 || kw[0] != "census" {
		t.Errorf("keyword = %v, want [census population]", kw)
	}
	if p := d["publisher"].(map[string]any)["name"]; p != "data.example.org" {
		t.Errorf("publisher = %v, want the base URL's host", p)
	}
	d = doc["dataset"].([]any)[1].(map[string]any)
	if d["modified"] != "2026-11-22" || d["keyword"].([]any)[0] != PlaceholderKeyword {
		t.Errorf("dataset[1] modified, keyword = %v, %v; want the export date and the placeholder", d["modified"], d["keyword"])
	}
	if cp := d["contactPoint"].(map[string]any); cp["fn"] != PlaceholderContact || cp["hasEmail"] != PlaceholderEmail {
		t.Errorf("contactPoint = %v, want the placeholders", cp)
	}
	pins := exportJSON(t, exportCases(t)["pins"], "datajson")["dataset"].([]any)[0].(map[string]any)
	if pins["description"] != PlaceholderDescription || pins["modified"] != "2022-08-11T15:58:05Z" {
		t.Errorf("pins description, modified = %v, %v", pins["description"], pins["modified"])
	}
	if pins["publisher"].(map[string]any)["name"] != PlaceholderPublisher {
		t.Errorf("pins publisher = %v, want the placeholder", pins["publisher"])
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
}
