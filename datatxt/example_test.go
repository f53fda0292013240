package datatxt_test

import (
	"fmt"
	"os"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

func ExampleParse() {
	src := []byte(`- path: iris/data.csv
  name: iris
  rows: 150
- name: no-path
- path: [mtcars/data.csv, mtcars/data.rds]
  name: mtcars
`)
	c := datatxt.Parse("data.txt", src, datatxt.Options{Base: "https://example.org/data.txt"})
	for _, e := range c.Entries {
		fmt.Println(e.Pos.Line, e.Name, e.URLs, e.Metadata)
	}
	for _, d := range c.Diagnostics {
		fmt.Println(d.Error())
	}
	// Output:
	// 1 iris [https://example.org/iris/data.csv] map[rows:150]
	// 5 mtcars [https://example.org/mtcars/data.csv https://example.org/mtcars/data.rds] map[]
	// data.txt:4:3: error: dataset entry "no-path" has no path; it is left out
}

func ExampleParse_records() {
	src := []byte(`User-agent: *
Disallow: /private/

Path: /census.csv
Name: census

Path: /private/salaries.csv
Name: salaries
`)
	c := datatxt.Parse("data.txt", src, datatxt.Options{
		Base:  "https://example.org/data.txt",
		Agent: "mybot",
		// The file's own records, compiled by a robots.txt interpreter.
		Rules: datatxt.CompileRules(robots.Compile, robots.RFC9309),
		// The site's robots.txt: a *robots.Policy is a Decider as it is.
		Robots: robots.Compile(grammar.ParseString("robots.txt", "User-agent: *\nDisallow: /census.csv\n", grammar.Options{}), robots.RFC9309),
	})
	fmt.Println(c.Form)
	for _, e := range c.Entries {
		fmt.Printf("%s %s %v denied-by=%q\n", e.Name, e.URLs[0], e.Access, e.DeniedBy)
	}
	// Output:
	// records
	// census https://example.org/census.csv disallowed denied-by="robots.txt"
	// salaries https://example.org/private/salaries.csv disallowed denied-by="data.txt"
}

func ExampleDetect() {
	fmt.Println(datatxt.Detect([]byte("- path: a.csv\n")))
	fmt.Println(datatxt.Detect([]byte("Path: /a.csv\nName: a\n")))
	fmt.Println(datatxt.Detect([]byte("file: a.csv\ntype: csv\n")))
	// Output:
	// yaml
	// records
	// yaml
}

func ExampleParseForm() {
	f, err := datatxt.ParseForm("records")
	fmt.Println(f, err)
	_, err = datatxt.ParseForm("xml")
	fmt.Println(err)
	// Output:
	// records <nil>
	// unknown data.txt form "xml" (want auto, yaml or records)
}

func ExampleExport() {
	c := datatxt.Parse("data.txt", []byte("- path: a.csv\n  name: a\n  rows: 3\n"),
		datatxt.Options{Base: "https://example.org/data.txt"})
	datatxt.Export(os.Stdout, c, "csv", datatxt.ExportOptions{})
	// Output:
	// name,path,url,line,column,verdict,metadata
	// a,a.csv,https://example.org/a.csv,1,3,,"{""rows"":3}"
}

func exampleCatalog() *datatxt.Catalog {
	return datatxt.Parse("data.txt", []byte("- path: iris.csv\n  name: iris\n  description: Fisher's iris data.\n"),
		datatxt.Options{Base: "https://example.org/data.txt"})
}

func ExampleSchemaOrg() {
	doc, probs := datatxt.SchemaOrg(exampleCatalog(), datatxt.ExportOptions{})
	d := doc["dataset"].([]any)[0].(map[string]any)
	fmt.Println(doc["@type"], d["@type"], d["name"], d["distribution"])
	for _, p := range probs {
		fmt.Println(p.Field, "-", p.Error())
	}
	// Output:
	// DataCatalog Dataset iris [map[@type:DataDownload contentUrl:https://example.org/iris.csv encodingFormat:text/csv]]
	// description - data.txt:1:3: error: schemaorg: dataset "iris": description has 19 characters; Google Dataset Search requires 50 to 5000
}

func ExampleDCAT() {
	doc, probs := datatxt.DCAT(exampleCatalog(), datatxt.ExportOptions{Publisher: "Example Org"})
	d := doc["dcat:dataset"].([]any)[0].(map[string]any)
	fmt.Println(doc["@type"], doc["dct:publisher"], d["@id"], d["dct:title"], len(probs))
	// Output:
	// dcat:Catalog map[@type:foaf:Agent foaf:name:Example Org] https://example.org/data.txt#iris iris 0
}

func ExampleDataJSON() {
	doc, probs := datatxt.DataJSON(exampleCatalog(), datatxt.ExportOptions{ContactName: "Data Team"})
	d := doc["dataset"].([]any)[0].(map[string]any)
	fmt.Println(doc["conformsTo"])
	fmt.Println(d["title"], d["identifier"], d["accessLevel"], d["contactPoint"])
	for _, p := range probs {
		fmt.Println(p.Field, "-", p.Error())
	}
	// Output:
	// https://project-open-data.cio.gov/v1.1/schema
	// iris https://example.org/data.txt#iris public map[@type:vcard:Contact fn:Data Team]
	// publisher - data.txt:1:3: error: datajson: dataset "iris": no publisher: a data.txt cannot name one: give --publisher
}

func ExampleDataPackage() {
	doc, _ := datatxt.DataPackage(exampleCatalog(), datatxt.ExportOptions{})
	r := doc["resources"].([]any)[0].(map[string]any)
	fmt.Println(doc["name"], r["name"], r["path"], r["format"])
	// Output:
	// example.org iris https://example.org/iris.csv csv
}

func ExampleCroissant() {
	c := datatxt.Parse("data.txt", []byte(`- path: iris.csv
  name: iris
  description: Fisher's iris data, 150 flowers of three species.
  license: https://creativecommons.org/publicdomain/zero/1.0/
  created: 2024-05-01
  columns:
    species: character
    petal_length: numeric
`), datatxt.Options{Base: "https://example.org/data.txt"})
	docs, probs := datatxt.Croissant(c, datatxt.ExportOptions{Publisher: "Example Org"})
	d := docs[0].(map[string]any)
	rs := d["recordSet"].([]any)[0].(map[string]any)
	fmt.Println(d["conformsTo"], d["url"], d["datePublished"], len(probs))
	for _, f := range rs["field"].([]any) {
		f := f.(map[string]any)
		fmt.Println(f["@id"], f["dataType"])
	}
	// Output:
	// http://mlcommons.org/croissant/1.1 https://example.org/data.txt#iris 2024-05-01 0
	// https://example.org/data.txt#iris/records/species sc:Text
	// https://example.org/data.txt#iris/records/petal_length sc:Float
}

func ExampleLint() {
	f := grammar.ParseString("data.txt", "Name: orphan\n\nPath: /a.csv\nName: a\n\nPath: /b.csv\nName: a\n", grammar.Options{})
	for _, d := range datatxt.Lint(f) {
		fmt.Println(d.Error())
	}
	// Output:
	// data.txt:1:1: error: dataset entry has no path: "Name" line is not under a "Path" line; it is left out
	// data.txt:7:7: warning: dataset name "a" is also used at line 3
}
