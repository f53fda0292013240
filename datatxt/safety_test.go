package datatxt

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestCSVFormulaNeutralised: a cell a spreadsheet would run as a formula
// gets a leading "'"; the rest are as written.
func TestCSVFormulaNeutralised(t *testing.T) {
	src := "- path: '=HYPERLINK(\"http://evil/\",\"x\").csv'\n  name: '+cmd|calc'\n- path: ok.csv\n  name: '-2+3'\n- path: b.csv\n  name: '@SUM(A1)'\n- path: c.csv\n  name: plain\n"
	c := Parse("t", []byte(src), Options{Base: "https://example.org/data.txt"})
	var buf bytes.Buffer
	if _, err := Export(&buf, c, "csv", ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows[1:] {
		for _, cell := range row {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q starts a formula", cell)
			}
		}
	}
	for i, want := range []string{"'+cmd|calc", "'-2+3", "'@SUM(A1)", "plain"} {
		if got := rows[i+1][0]; got != want {
			t.Errorf("row %d name = %q, want %q", i+1, got, want)
		}
	}
	if got := rows[1][1]; got != `'=HYPERLINK("http://evil/","x").csv` {
		t.Errorf("path cell = %q", got)
	}
}

// TestNonHTTPPaths: paths resolving outside http(s) are reported, have no
// URL, are never allowed and appear in no export.
func TestNonHTTPPaths(t *testing.T) {
	src := "- path: file:///etc/passwd\n  name: local\n- path: 'javascript:alert(1)'\n  name: js\n- path: 'data:text/csv,a,b'\n  name: inline\n- path: ftp://example.org/x.csv\n  name: ftp\n- path: ok.csv\n  name: ok\n"
	c := Parse("t", []byte(src), Options{Base: "https://example.org/data.txt", Robots: allowAll{}})
	for _, e := range c.Entries {
		if e.Name == "ok" {
			if e.Access != Allowed {
				t.Errorf("ok: Access = %v, want allowed", e.Access)
			}
			continue
		}
		if e.Access != Disallowed || e.DeniedBy != "scheme" || len(e.URLs) != 0 {
			t.Errorf("%s: Access = %v by %q, URLs %q; want disallowed by scheme, no URL", e.Name, e.Access, e.DeniedBy, e.URLs)
		}
	}
	if n := countCode(c, "bad-scheme"); n != 4 {
		t.Errorf("%d bad-scheme diagnostics, want 4: %q", n, diagStrings(c.Diagnostics))
	}
	// Without any access rules too.
	c2 := Parse("t", []byte(src), Options{})
	if c2.Entries[0].Access != Disallowed {
		t.Errorf("file: path with no rules: Access = %v, want disallowed", c2.Entries[0].Access)
	}
	for _, format := range Formats {
		var buf bytes.Buffer
		if _, err := Export(&buf, c, format, ExportOptions{Publisher: "P", ContactName: "C"}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, bad := range []string{"file:///etc/passwd", "javascript:alert", "data:text/csv", "ftp://"} {
			if format == "json" || format == "yaml" || format == "csv" {
				// The entry views show paths as written, with no URL and
				// "allowed": false.
				continue
			}
			if strings.Contains(out, bad) {
				t.Errorf("-o %s exports %q", format, bad)
			}
		}
	}
	var views []map[string]any
	var buf bytes.Buffer
	Export(&buf, c, "json", ExportOptions{})
	if err := json.Unmarshal(buf.Bytes(), &views); err != nil {
		t.Fatal(err)
	}
	if views[0]["allowed"] != false || len(views[0]["urls"].([]any)) != 0 {
		t.Errorf("json view of file: path = %v", views[0])
	}
}

type allowAll struct{}

func (allowAll) Allowed(string, string) bool { return true }

func countCode(c *Catalog, code string) int {
	n := 0
	for _, d := range c.Diagnostics {
		if d.Code == code {
			n++
		}
	}
	return n
}

// TestYAML11Quoting: a value a YAML 1.1 reader (R, PyYAML) would take for
// a bool, null, number or timestamp is quoted, and reads back as the same
// string under YAML 1.2 too.
func TestYAML11Quoting(t *testing.T) {
	values := []string{"yes", "no", "on", "Off", "y", "N", "~", "null", "2021-08-12", "2001-12-14 21:59:43.10 -5",
		"1:20", "0b101", "0777", "0x1F", "1_000", "+12", ".5", ".inf", ".NaN", "<<", "=", "12e3"}
	var src strings.Builder
	src.WriteString("- path: a.csv\n")
	for i, v := range values {
		src.WriteString("  k" + string(rune('a'+i)) + ": '" + v + "'\n")
	}
	c := Parse("t", []byte(src.String()), Options{})
	var buf bytes.Buffer
	if _, err := Export(&buf, c, "yaml", ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, v := range values {
		if !strings.Contains(out, `"`+v+`"`) && !strings.Contains(out, `'`+v+`'`) {
			t.Errorf("YAML output has %q unquoted:\n%s", v, out)
		}
	}
	var back []map[string]any
	if err := yaml.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	meta := back[0]["metadata"].(map[string]any)
	for i, v := range values {
		if got := meta["k"+string(rune('a'+i))]; got != v {
			t.Errorf("k%c read back as %#v, want %q", 'a'+i, got, v)
		}
	}
	for _, s := range []string{"hello", "2021", "a: b", "yesterday"} {
		if yaml11NotString(s) && s != "2021" {
			t.Errorf("yaml11NotString(%q) = true", s)
		}
	}
}

// TestExportStable: identifiers are unique within a catalog, modified is
// never the export date, a malformed date is reported and left out, and a
// disallowed dataset is not "public".
func TestExportStable(t *testing.T) {
	src := "User-agent: *\nDisallow: /private/\n\nPath: /a.csv\nName: same\nModified: 2021-13-45\nDescription: first\n\nPath: /private/b.csv\nName: same\nDescription: second\n\nPath: /c.csv\nName: Same\nCreated: 2020-02-03\nDescription: third\n"
	c := Parse("t", []byte(src), Options{Base: "https://example.org/data.txt", Rules: compileFake})
	doc, probs := DataJSON(c, ExportOptions{Publisher: "P", ContactName: "C"})
	ids := map[string]bool{}
	var access, modified []any
	for _, d := range doc["dataset"].([]any) {
		d := d.(map[string]any)
		id := d["identifier"].(string)
		if ids[id] {
			t.Errorf("identifier %q is used twice", id)
		}
		ids[id] = true
		access = append(access, d["accessLevel"])
		modified = append(modified, d["modified"])
	}
	if access[0] != "public" || access[1] != "restricted public" {
		t.Errorf("accessLevel = %v, want public then restricted public (disallowed)", access)
	}
	if modified[0] != nil || modified[1] != nil || modified[2] != "2020-02-03" {
		t.Errorf("modified = %v, want only the third's created date", modified)
	}
	bad := false
	for _, p := range probs {
		if p.Field == "modified" && strings.Contains(p.Summary, `"2021-13-45" is not a date`) {
			bad = true
		}
	}
	if !bad {
		t.Errorf("the malformed date is not reported: %v", probs.Diagnostics())
	}
	dcat, _ := DCAT(c, ExportOptions{Publisher: "P"})
	seen := map[string]bool{}
	for _, d := range dcat["dcat:dataset"].([]any) {
		id, _ := d.(map[string]any)["@id"].(string)
		if id == "" || seen[id] {
			t.Errorf("DCAT dataset @id %q is missing or not unique", id)
		}
		seen[id] = true
	}
}

// TestExportRelativeWithoutBase: with no absolute data.txt URL, exports
// report the URLs they cannot write instead of writing relative ones.
func TestExportRelativeWithoutBase(t *testing.T) {
	c := Parse("t", []byte("- path: a.csv\n  description: A dataset whose data.txt was read from a file, with no URL given.\n"), Options{})
	for format, field := range map[string]string{"schemaorg": "contentUrl", "dcat": "accessURL", "datajson": "downloadURL", "croissant": "url"} {
		var buf bytes.Buffer
		probs, err := Export(&buf, c, format, ExportOptions{Publisher: "P", ContactName: "C"})
		if err != nil {
			t.Fatal(err)
		}
		if !hasProblem(probs, field) {
			t.Errorf("-o %s: no problem names %q: %v", format, field, probs.Diagnostics())
		}
		if strings.Contains(buf.String(), `"/a.csv"`) {
			t.Errorf("-o %s writes the relative path:\n%s", format, buf.String())
		}
	}
}
