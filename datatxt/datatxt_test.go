package datatxt

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/grammar"
)

var update = flag.Bool("update", false, "rewrite golden files")

// prefixAccess is a stand-in for a robots.txt policy in tests: the paths an
// agent may not fetch, by exact agent name, else "*". It is not robots.txt
// semantics; it only shows what Parse asks and what it does with answers.
type prefixAccess struct {
	deny  map[string][]string
	calls []string
}

func (a *prefixAccess) Allowed(agent, u string) bool {
	a.calls = append(a.calls, agent+" "+u)
	path := u
	if p, err := url.Parse(u); err == nil {
		path = p.EscapedPath()
	}
	rules, ok := a.deny[strings.ToLower(agent)]
	if !ok {
		rules = a.deny["*"]
	}
	for _, r := range rules {
		if r != "" && strings.HasPrefix(path, r) {
			return false
		}
	}
	return true
}

// compileFake builds a prefixAccess from a file's records.
func compileFake(f *grammar.File) Decider {
	a := &prefixAccess{deny: map[string][]string{}}
	for _, r := range f.Records {
		for _, l := range r.Lines {
			if l.Kind == grammar.DisallowLine {
				for _, ag := range r.Agents {
					k := strings.ToLower(ag.Value)
					a.deny[k] = append(a.deny[k], l.Value)
				}
			}
		}
	}
	return a
}

// diagStrings returns "line:col: severity: code: summary" for each
// diagnostic.
func diagStrings(ds grammar.Diagnostics) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s: %s: %s: %s", d.Range.Start, d.Severity, d.Code, d.Summary))
	}
	return out
}

func codes(ds grammar.Diagnostics) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%s", d.Range.Start.Line, d.Code))
	}
	return out
}

func names(es []*Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Name+"="+strings.Join(e.Paths, ","))
	}
	return out
}

// golden compares got with the golden file, or rewrites it with -update.
func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the output (run go test -update to accept):\n--- got\n%s", file, got)
	}
}

// TestExamples parses the hand-written examples in testdata/datatxt and
// compares entries and diagnostics with golden files.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../testdata/datatxt/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c := Parse(name, src, Options{Base: "https://data.example.org/data.txt", Agent: "mybot", Rules: compileFake})
			out, err := json.MarshalIndent(map[string]any{
				"form": c.Form, "entries": c.Views(), "diagnostics": diagStrings(c.Diagnostics),
			}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("../testdata/datatxt/golden", strings.TrimSuffix(name, ".txt")+".json"), append(out, '\n'))
			checkPositions(t, c, src)
		})
	}
}

// checkPositions fails when an entry or diagnostic position is not inside
// the input, or its line and column disagree with its offset.
func checkPositions(t *testing.T, c *Catalog, src []byte) {
	t.Helper()
	check := func(what string, p grammar.Pos) {
		if !p.IsValid() || p.Offset < 0 || p.Offset > len(src) {
			t.Errorf("%s: position %v (offset %d) is not inside the %d-byte input", what, p, p.Offset, len(src))
			return
		}
		// As the grammar counts: a byte-order mark is not part of line 1.
		bom := grammar.BOMLen(string(src))
		if p.Offset < bom {
			t.Errorf("%s: position %v (offset %d) is inside the byte-order mark", what, p, p.Offset)
			return
		}
		want := grammar.PosAt(string(src), p.Offset)
		line, col := want.Line, want.Column
		if line != p.Line || col != p.Column {
			t.Errorf("%s: position %v, but offset %d is at %d:%d", what, p, p.Offset, line, col)
		}
	}
	for _, e := range c.Entries {
		check(fmt.Sprintf("entry %q", e.Name), e.Pos)
		if len(e.Paths) == 0 {
			t.Errorf("entry %q at %v has no path", e.Name, e.Pos)
		}
	}
	for _, d := range c.Diagnostics {
		if d.Range.Start.IsValid() {
			check("diagnostic "+d.Code, d.Range.Start)
		}
	}
}

func TestParseForm(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Form
		ok   bool
	}{
		{"auto", FormAuto, true}, {"yaml", FormYAML, true}, {"records", FormRecords, true},
		{"YAML", FormYAML, true}, {"robots", FormAuto, false}, {"", FormAuto, false},
	} {
		got, err := ParseForm(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParseForm(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if tc.ok && !strings.EqualFold(got.String(), tc.in) {
			t.Errorf("ParseForm(%q).String() = %q", tc.in, got.String())
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      Form
	}{
		{"list", "- path: a.csv\n", FormYAML},
		{"list after comment", "# data\n\n- path: a.csv\n", FormYAML},
		{"document marker", "---\npath: a.csv\n", FormYAML},
		{"flow list", "[{path: a.csv}]\n", FormYAML},
		{"bom list", "\xEF\xBB\xBF- path: a.csv\n", FormYAML},
		{"user-agent", "User-agent: *\nDisallow: /x\n\nPath: /a.csv\n", FormRecords},
		{"disallow anywhere", "Path: /a.csv\nName: a\n\nDisallow: /b\n", FormRecords},
		{"capital Path", "Path: /a.csv\nName: a\n", FormRecords},
		{"two paths", "path: /a.csv\n\npath: /b.csv\n", FormRecords},
		{"colon in value", "path: /a.csv\ndescription: ratio: 3 to 1\n", FormRecords},
		{"pins mapping", "file: a.csv\ntype: csv\n", FormYAML},
		{"mapping with list", "path:\n- a.csv\n- b.rds\nrows: 3\n", FormYAML},
		{"indented", "path: a.csv\ncolumns:\n  x: integer\n", FormYAML},
		{"empty", "", FormYAML},
		{"comments only", "# nothing\n", FormYAML},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Detect([]byte(tc.src)); got != tc.want {
				t.Errorf("Detect(%q) = %v, want %v", tc.src, got, tc.want)
			}
		})
	}
}

// TestValidation runs every validation case of both forms: the entries that
// come out and the diagnostics (line:code) reported.
func TestValidation(t *testing.T) {
	for _, tc := range []struct {
		name    string
		form    Form
		src     string
		entries []string // name=path,path
		diags   []string // line:code
	}{
		{"yaml list", FormAuto, "- path: a.csv\n  name: a\n- path: [b.csv, b.rds]\n  name: b\n",
			[]string{"a=a.csv", "b=b.csv,b.rds"}, []string{}},
		{"yaml entry without path", FormAuto, "- path: a.csv\n- name: lost\n  rows: 3\n- path: c.csv\n",
			[]string{"=a.csv", "=c.csv"}, []string{"2:missing-path"}},
		{"yaml null path", FormAuto, "- path: ~\n  name: x\n- path: ''\n- path: []\n",
			[]string{}, []string{"1:missing-path", "3:missing-path", "4:missing-path"}},
		{"yaml empty item", FormAuto, "-\n- path: a\n", []string{"=a"}, []string{"1:missing-path"}},
		{"yaml path mapping", FormAuto, "- path: {url: a.csv}\n", []string{}, []string{"1:bad-path"}},
		{"yaml path list with junk", FormAuto, "- path:\n  - a.csv\n  - [x]\n  - ~\n",
			[]string{"=a.csv"}, []string{"3:bad-path", "4:bad-path"}},
		{"yaml bare path", FormAuto, "- a.csv\n- path: b.csv\n", []string{"=a.csv", "=b.csv"}, []string{"1:bare-path"}},
		{"yaml nested list item", FormAuto, "- [a, b]\n- path: b.csv\n", []string{"=b.csv"}, []string{"1:entry-not-mapping"}},
		{"yaml duplicate name", FormAuto, "- path: a.csv\n  name: x\n- path: b.csv\n  name: x\n",
			[]string{"x=a.csv", "x=b.csv"}, []string{"4:duplicate-name"}},
		{"yaml duplicate key", FormAuto, "- path: a.csv\n  rows: 1\n  Rows: 2\n",
			[]string{"=a.csv"}, []string{"3:duplicate-key"}},
		{"yaml bad name", FormAuto, "- path: a.csv\n  name: [x, y]\n", []string{"=a.csv"}, []string{"2:bad-name"}},
		{"yaml bad url", FormAuto, "- path: \"http://[::1\"\n  name: u\n- path: ok.csv\n",
			[]string{"u=http://[::1", "=ok.csv"}, []string{"1:bad-url"}},
		{"yaml single mapping", FormAuto, "path: a.csv\nname: a\n", []string{"a=a.csv"}, []string{"1:single-mapping"}},
		{"yaml pins file key", FormAuto, "file: a.csv\ntype: csv\n", []string{"=a.csv"},
			[]string{"1:file-as-path", "1:single-mapping"}},
		{"yaml file kept when path given", FormAuto, "- path: a.csv\n  file: b.csv\n", []string{"=a.csv"}, []string{}},
		{"yaml scalar document", FormYAML, "just some text\n", []string{}, []string{"1:not-a-list"}},
		{"yaml empty", FormYAML, "", []string{}, []string{"1:no-entries"}},
		{"yaml empty list", FormYAML, "[]\n", []string{}, []string{"1:no-entries"}},
		{"yaml two documents", FormAuto, "- path: a\n---\n- path: b\n", []string{"=a", "=b"}, []string{"2:multiple-documents"}},
		{"yaml syntax error", FormAuto, "- path: a\n  name: [\n", []string{"=a"}, []string{"2:yaml-syntax"}},
		{"yaml syntax error on line 1", FormAuto, "- path: [a\n", []string{}, []string{"1:yaml-syntax"}},
		{"yaml colon in value repaired", FormAuto, "- path: a\n  description: ratio: 3 to 1\n- path: b\n",
			[]string{"=a", "=b"}, []string{"2:yaml-syntax"}},
		{"yaml continuation repaired", FormAuto, "- path: a\n  items:\n    - name: x\n      description: long text that\n      goes on\n- path: b\n",
			[]string{"=a", "=b"}, []string{"5:yaml-syntax"}},
		{"yaml flow unclosed, next entry read", FormAuto, "- path: a.csv\n  name: x\n  description: [unclosed\n- path: b.csv\n  name: y\n",
			[]string{"x=a.csv", "y=b.csv"}, []string{"3:yaml-syntax"}},
		{"yaml under-indented key, next entry read", FormAuto, "- path: a\n  name: x\n bad: y\n- path: b\n",
			[]string{"x=a", "=b"}, []string{"3:yaml-syntax"}},
		{"yaml tab indentation, next entry read", FormAuto, "- path: a\n  name: x\n\td: y\n- path: b\n",
			[]string{"x=a", "=b"}, []string{"3:yaml-syntax"}},
		{"yaml unclosed quote, next entry read", FormAuto, "- path: a\n  name: x\n  d: \"open\n- path: b\n",
			[]string{"x=a", "=b"}, []string{"3:yaml-syntax"}},
		{"yaml two errors, three entries", FormAuto, "- path: a\n  d: [x\n- path: b\n  d: {y\n  more: z\n- path: c\n",
			[]string{"=a", "=b", "=c"}, []string{"2:yaml-syntax", "4:yaml-syntax"}},
		{"yaml error in the last entry", FormAuto, "- path: a\n- path: b\n  name: y\n  d: @x\n  e: 1\n",
			[]string{"=a", "y=b"}, []string{"4:yaml-syntax"}},
		{"yaml error in a single mapping", FormAuto, "path: a\nname: [x\ndescription: d\n",
			[]string{"=a"}, []string{"1:single-mapping", "2:yaml-syntax"}},
		{"yaml merge key", FormAuto, "- &base\n  path: a.csv\n  type: table\n- <<: *base\n  name: b\n",
			[]string{"=a.csv", "b=a.csv"}, []string{}},
		{"yaml alias cycle", FormAuto, "- &a\n  path: x\n  self: *a\n",
			[]string{}, []string{"3:alias-cycle"}},
		{"yaml bad merge", FormAuto, "- path: a\n  <<: [1, 2]\n", []string{"=a"}, []string{"2:bad-merge", "2:bad-merge"}},
		{"yaml odd key", FormAuto, "- path: a\n  [x, y]: z\n", []string{"=a"}, []string{"2:odd-key"}},
		{"yaml too deep", FormAuto, "- path: a\n  x: " + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + "\n",
			[]string{}, []string{"2:too-deep"}},
		{"yaml unknown tag", FormAuto, "- path: a\n  rows: !expr 30+2\n", []string{"=a"}, []string{"2:unknown-tag"}},
		{"yaml tag on path", FormAuto, "- path: !file a.csv\n", []string{"=a.csv"}, []string{"1:unknown-tag"}},
		{"records", FormAuto, "Path: /a.csv\nName: a\n\nPath: /b.csv\nName: b\n", []string{"a=/a.csv", "b=/b.csv"}, []string{}},
		{"records path ends entry", FormRecords, "Path: /a.csv\nName: a\nPath: /b.csv\nName: b\n", []string{"a=/a.csv", "b=/b.csv"}, []string{}},
		{"records user-agent ends entry", FormAuto, "Path: /a.csv\nUser-agent: *\nName: robots-ext\nDisallow: /\n",
			[]string{"=/a.csv"}, []string{}},
		{"records orphan metadata", FormAuto, "Name: lost\nDescription: no path\n\nPath: /b.csv\n",
			[]string{"=/b.csv"}, []string{"1:missing-path"}},
		{"records empty path", FormRecords, "Path:\nName: e\n\nPath: /b\n", []string{"=/b"}, []string{"1:missing-path"}},
		{"records duplicate name key", FormRecords, "Path: /a\nName: x\nName: y\n", []string{"y=/a"}, []string{"3:duplicate-key"}},
		{"records duplicate name", FormRecords, "Path: /a\nName: x\n\nPath: /b\nName: x\n", []string{"x=/a", "x=/b"}, []string{"5:duplicate-name"}},
		{"records rule outside record", FormRecords, "Disallow: /x\nPath: /a\n", []string{"=/a"}, []string{"1:rule-outside-record"}},
		{"records invalid line", FormRecords, "Path: /a\nthis is not a field\n", []string{"=/a"}, []string{"2:invalid-line"}},
		{"records no entries", FormRecords, "User-agent: *\nDisallow: /\n", []string{}, []string{"1:no-entries"}},
		{"records bad url", FormRecords, "Path: http://[::1\n", []string{"=http://[::1"}, []string{"1:bad-url"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Parse("t", []byte(tc.src), Options{Form: tc.form, Base: "https://example.org/data.txt"})
			if got := names(c.Entries); !reflect.DeepEqual(got, tc.entries) {
				t.Errorf("entries = %q, want %q", got, tc.entries)
			}
			if got := codes(c.Diagnostics); !reflect.DeepEqual(got, tc.diags) {
				t.Errorf("diagnostics = %q, want %q\n%s", got, tc.diags, strings.Join(diagStrings(c.Diagnostics), "\n"))
			}
			checkPositions(t, c, []byte(tc.src))
		})
	}
}

func TestMetadata(t *testing.T) {
	src := "- path: a.csv\n  Name: a\n  Rows: 150\n  cols: '5'\n  ratio: 1.5\n  ok: true\n  none: ~\n" +
		"  created: 2021-04-22T20:22:33\n  big: 123456789012345678901234567890\n  inf: .inf\n" +
		"  tags: [x, y]\n  columns:\n    b: integer\n    a: character\n"
	c := Parse("t", []byte(src), Options{})
	if len(c.Entries) != 1 {
		t.Fatalf("entries = %d, want 1: %v", len(c.Entries), diagStrings(c.Diagnostics))
	}
	e := c.Entries[0]
	want := map[string]any{
		"rows": int64(150), "cols": "5", "ratio": 1.5, "ok": true, "none": nil,
		"created": "2021-04-22T20:22:33", "big": "123456789012345678901234567890", "inf": ".inf",
		"tags": []any{"x", "y"}, "columns": map[string]any{"b": "integer", "a": "character"},
	}
	if e.Name != "a" {
		t.Errorf("Name = %q, want %q", e.Name, "a")
	}
	if !reflect.DeepEqual(e.Metadata, want) {
		t.Errorf("Metadata = %#v\nwant %#v", e.Metadata, want)
	}
	if got := e.colOrder; !reflect.DeepEqual(got, []string{"b", "a"}) {
		t.Errorf("column order = %q, want [b a]", got)
	}
	// Records: values are text; repeated fields become lists.
	c = Parse("t", []byte("Path: /a\nName: a\nKeyword: x\nKEYWORD: y\nRows: 3\n"), Options{Form: FormRecords})
	want = map[string]any{"keyword": []any{"x", "y"}, "rows": "3"}
	if got := c.Entries[0].Metadata; !reflect.DeepEqual(got, want) {
		t.Errorf("record Metadata = %#v, want %#v", got, want)
	}
}

func TestExpr(t *testing.T) {
	src := "- path: mtcars/data.csv\n  name: mtcars_expr\n  rows: !expr 30+2\n  cols: !expr system('rm -rf /')\n"
	c := Parse("t", []byte(src), Options{})
	if len(c.Entries) != 1 {
		t.Fatalf("entries = %d, want 1", len(c.Entries))
	}
	if got := c.Entries[0].Metadata["rows"]; got != "30+2" {
		t.Errorf(`Metadata["rows"] = %#v, want the text "30+2"`, got)
	}
	if got := c.Entries[0].Metadata["cols"]; got != "system('rm -rf /')" {
		t.Errorf(`Metadata["cols"] = %#v, want the text as written`, got)
	}
	if got := codes(c.Diagnostics); !reflect.DeepEqual(got, []string{"1:no-base-url", "3:unknown-tag", "4:unknown-tag"}) {
		t.Errorf("diagnostics = %q", got)
	}
	for _, d := range c.Diagnostics {
		if d.Severity != grammar.Warning {
			t.Errorf("%s is %v, want a warning", d.Code, d.Severity)
		}
	}
}

// bomb returns a billion-laughs document: levels of lists each holding
// width aliases of the level below.
func bomb(levels, width int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [lol]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < width; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	fmt.Fprintf(&b, "path: *a%d\n", levels)
	return b.String()
}

func TestAliasBomb(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src      string
		maxNodes int
	}{
		{"billion laughs", bomb(9, 9), 0},
		{"small budget", bomb(3, 10), 100},
		{"bomb in a list", "- &x [a, a, a, a, a, a, a, a, a, a]\n- &y [*x, *x, *x, *x, *x, *x, *x, *x, *x, *x]\n" +
			"- &z [*y, *y, *y, *y, *y, *y, *y, *y, *y, *y]\n- path: a\n  m: [*z, *z, *z, *z, *z, *z, *z, *z, *z, *z]\n", 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			c := Parse("bomb", []byte(tc.src), Options{MaxNodes: tc.maxNodes})
			if !c.Diagnostics.HasErrors() {
				t.Fatalf("no error for an alias bomb: %q", diagStrings(c.Diagnostics))
			}
			found := false
			for _, d := range c.Diagnostics {
				found = found || d.Code == "too-many-nodes"
			}
			if !found {
				t.Errorf("diagnostics = %q, want too-many-nodes", diagStrings(c.Diagnostics))
			}
			t.Logf("%d entries, %v", len(c.Entries), time.Since(start))
		})
	}
	// A file that only defines aliases without expanding them much is fine.
	c := Parse("t", []byte(bomb(3, 3)), Options{})
	for _, d := range c.Diagnostics {
		if d.Code == "too-many-nodes" {
			t.Errorf("bomb(3, 3) reported %s", d.Error())
		}
	}
}

func TestSizeLimit(t *testing.T) {
	src := []byte(strings.Repeat("- path: a.csv\n", 100))
	c := Parse("t", src, Options{MaxSize: 140})
	if got := len(c.Entries); got != 10 {
		t.Errorf("entries = %d, want 10 within 140 bytes", got)
	}
	if got := codes(c.Diagnostics); !reflect.DeepEqual(got, []string{"1:no-base-url", "11:too-large"}) {
		t.Errorf("diagnostics = %q", got)
	}
	rec := []byte(strings.Repeat("Path: /a.csv\n\n", 100))
	c = Parse("t", rec, Options{MaxSize: 140, Form: FormRecords, Base: "https://x.org/data.txt"})
	if got := len(c.Entries); got != 10 {
		t.Errorf("record entries = %d, want 10 within 140 bytes", got)
	}
	if c.Diagnostics.Count(grammar.Warning) != 1 || c.Diagnostics[0].Code != "too-large" {
		t.Errorf("diagnostics = %q, want too-large", diagStrings(c.Diagnostics))
	}
}

func TestResolve(t *testing.T) {
	src := "- path: [a.csv, /b.csv, ../c.csv, 'https://other.org/d.csv', '//cdn.org/e.csv', 'f g.csv']\n"
	for _, tc := range []struct {
		base string
		want []string
	}{
		{"https://example.org/static/data.txt", []string{"https://example.org/static/a.csv", "https://example.org/b.csv",
			"https://example.org/c.csv", "https://other.org/d.csv", "https://cdn.org/e.csv", "https://example.org/static/f%20g.csv"}},
		{"", []string{"/a.csv", "/b.csv", "/c.csv", "https://other.org/d.csv", "//cdn.org/e.csv", "/f%20g.csv"}},
	} {
		c := Parse("t", []byte(src), Options{Base: tc.base})
		if got := c.Entries[0].URLs; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("base %q: URLs = %q, want %q", tc.base, got, tc.want)
		}
		warned := len(c.Diagnostics) == 1 && c.Diagnostics[0].Code == "no-base-url"
		if warned != (tc.base == "") {
			t.Errorf("base %q: diagnostics = %q", tc.base, diagStrings(c.Diagnostics))
		}
	}
	c := Parse("t", []byte(src), Options{Base: "/data.txt"})
	if len(c.Diagnostics) != 1 || c.Diagnostics[0].Code != "relative-base" {
		t.Errorf("relative base: diagnostics = %q", diagStrings(c.Diagnostics))
	}
	c = Parse("t", []byte(src), Options{Base: "::not a url"})
	if !c.Diagnostics.HasErrors() || c.Diagnostics[0].Code != "bad-base" {
		t.Errorf("bad base: diagnostics = %q", diagStrings(c.Diagnostics))
	}
}

func TestAccess(t *testing.T) {
	rec := "User-agent: *\nDisallow: /private/\n\nUser-agent: archiver\nDisallow: /\n\n" +
		"Path: /public.csv\n\nPath: /private/x.csv\n\nPath: https://other.org/private/y.csv\n"
	site := &prefixAccess{deny: map[string][]string{"*": {"/public"}}}
	for _, tc := range []struct {
		name   string
		src    string
		opts   Options
		want   []string // per entry: yes, no (by), or -
		checks int      // how many calls the rules get
	}{
		{"no policy", rec, Options{}, []string{"-", "-", "-"}, 0},
		{"own rules", rec, Options{Agent: "mybot", Rules: compileFake}, []string{"yes", "no data.txt", "yes"}, 0},
		{"own rules, denied agent", rec, Options{Agent: "archiver", Rules: compileFake}, []string{"no data.txt", "no data.txt", "yes"}, 0},
		{"default agent", rec, Options{Rules: compileFake}, []string{"yes", "no data.txt", "yes"}, 0},
		{"robots too", rec, Options{Rules: compileFake, Robots: site}, []string{"no robots.txt", "no data.txt", "yes"}, 0},
		{"robots only, yaml", "- path: /public.csv\n- path: other.csv\n", Options{Robots: site}, []string{"no robots.txt", "yes"}, 0},
		{"on-site base", "- path: /public.csv\n- path: https://example.org/public/x\n- path: http://example.org/public/y\n",
			Options{Robots: site, Base: "https://example.org/data.txt"}, []string{"no robots.txt", "no robots.txt", "yes"}, 0},
		{"records without access records", "Path: /a\n", Options{Rules: func(*grammar.File) Decider {
			t.Error("Rules called for a file with no records")
			return nil
		}}, []string{"-"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Parse("t", []byte(tc.src), tc.opts)
			var got []string
			for _, e := range c.Entries {
				switch e.Access {
				case Unknown:
					got = append(got, "-")
				case Allowed:
					got = append(got, "yes")
				default:
					got = append(got, "no "+e.DeniedBy)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("allowed = %q, want %q", got, tc.want)
			}
		})
	}
	// The agent reaches the policy as given, "*" when empty.
	a := &prefixAccess{}
	Parse("t", []byte("- path: /a\n"), Options{Robots: a, Agent: "FigTree/0.1"})
	Parse("t", []byte("- path: /a\n"), Options{Robots: a})
	if want := []string{"FigTree/0.1 /a", "* /a"}; !reflect.DeepEqual(a.calls, want) {
		t.Errorf("Allowed calls = %q, want %q", a.calls, want)
	}
}

func TestEntryHelpers(t *testing.T) {
	c := Parse("t", []byte("- path: a.csv\n  title: T\n  rows: 3\n- path: b.csv\n  name: b\n- path: c/d.csv\n"), Options{})
	for i, want := range []string{"T", "b", "c/d.csv"} {
		if got := c.Entries[i].Title(); got != want {
			t.Errorf("Entries[%d].Title() = %q, want %q", i, got, want)
		}
	}
	if got := c.Entries[0].Text("rows"); got != "3" {
		t.Errorf(`Text("rows") = %q, want "3"`, got)
	}
	if got := c.Entries[0].Text("missing"); got != "" {
		t.Errorf(`Text("missing") = %q, want ""`, got)
	}
}

func TestLint(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"- path: a\n- name: b\n", []string{"2:missing-path"}},
		{"Path: /a\nbad line here\n", []string{}}, // invalid-line is the grammar's
		{"\xEF\xBB\xBF- path: a\n  x: !expr 1\n", []string{"2:unknown-tag"}},
		{"- path: a\n", []string{}},
	} {
		f := grammar.ParseString("t", tc.src, grammar.Options{})
		if got := codes(Lint(f)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Lint(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestSyntaxErrorLinesNotRead checks that a YAML syntax error names the
// lines it leaves out, and that every other line is read.
func TestSyntaxErrorLinesNotRead(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"one line", "- path: a.csv\n  name: x\n  description: [unclosed\n- path: b.csv\n  name: y\n",
			"t:3:3: error: yaml syntax error: did not find expected ',' or ']'; line 3 is not read"},
		{"to the next item", "- path: a\n  d: {y\n  more: z\n\n- path: c\n",
			"t:2:3: error: yaml syntax error: did not find expected ',' or '}'; lines 2-4 are not read"},
		{"to the end", "- path: a\n- path: b\n  d: @x\n  e: 1\n",
			"t:3:3: error: yaml syntax error: found character that cannot start any token; lines 3-4, to the end of the file, are not read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Parse("t", []byte(tc.src), Options{Form: FormYAML})
			var got []string
			for _, d := range c.Diagnostics {
				if d.Code == "yaml-syntax" {
					got = append(got, d.Error())
				}
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("Parse(%q) yaml-syntax = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}
