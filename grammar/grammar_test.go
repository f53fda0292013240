package grammar

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

var update = flag.Bool("update", false, "rewrite golden files")

type lineWant struct {
	kind                  Kind
	field, value, comment string
	typo, noColon         bool
}

func TestLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want lineWant
	}{
		{"agent", "User-agent: FooBot", lineWant{kind: AgentLine, field: "User-agent", value: "FooBot"}},
		{"agent lower", "user-agent:*", lineWant{kind: AgentLine, field: "user-agent", value: "*"}},
		{"allow", "Allow: /a", lineWant{kind: AllowLine, field: "Allow", value: "/a"}},
		{"disallow empty", "Disallow:", lineWant{kind: DisallowLine, field: "Disallow"}},
		{"disallow spaces", " \tDisallow \t:  /x y \t", lineWant{kind: DisallowLine, field: "Disallow", value: "/x y"}},
		{"comment after value", "Disallow: /x # no", lineWant{kind: DisallowLine, field: "Disallow", value: "/x", comment: "# no"}},
		{"comment line", "  # hello", lineWant{kind: CommentLine, comment: "# hello"}},
		{"blank", " \t ", lineWant{kind: Blank}},
		{"empty", "", lineWant{kind: Blank}},
		{"extension", "Crawl-delay: 10", lineWant{kind: Extension, field: "Crawl-delay", value: "10"}},
		{"sitemap with colon in value", "Sitemap: https://x.org/s.xml", lineWant{kind: Extension, field: "Sitemap", value: "https://x.org/s.xml"}},
		{"mobile agent", "Mobile-agent-server: / atp://h:1", lineWant{kind: MobileAgentRec, field: "Mobile-agent-server", value: "/ atp://h:1"}},
		{"typo useragent", "useragent: a", lineWant{kind: AgentLine, field: "useragent", value: "a", typo: true}},
		{"typo user agent", "User agent: a", lineWant{kind: AgentLine, field: "User agent", value: "a", typo: true}},
		{"prefix user-agents", "user-agents: a", lineWant{kind: AgentLine, field: "user-agents", value: "a", typo: true}},
		{"typo disalow", "disalow: /", lineWant{kind: DisallowLine, field: "disalow", value: "/", typo: true}},
		{"typo dissallow", "Dissallow: /", lineWant{kind: DisallowLine, field: "Dissallow", value: "/", typo: true}},
		{"prefix allowance", "allowance: /", lineWant{kind: AllowLine, field: "allowance", value: "/", typo: true}},
		{"not a prefix", "user-agnet: a", lineWant{kind: Extension, field: "user-agnet", value: "a"}},
		{"no colon two words", "disallow /", lineWant{kind: DisallowLine, field: "disallow", value: "/", noColon: true}},
		{"no colon three words", "disallow / now", lineWant{kind: Invalid}},
		{"one word", "hello", lineWant{kind: Invalid}},
		{"no field", ": /x", lineWant{kind: Invalid}},
		{"html two words", "<p>hello there</p>", lineWant{kind: Extension, field: "<p>hello", value: "there</p>", noColon: true}},
		{"html", "<p>hello there again</p>", lineWant{kind: Invalid}},
		{"colon in comment only", "disallow /x # a: b", lineWant{kind: DisallowLine, field: "disallow", value: "/x", comment: "# a: b", noColon: true}},
		// White space is space and tab (RFC 9309's WS, the drafts' space):
		// vertical tab, form feed and NUL belong to the field or value.
		{"vt before colon", "Disallow\v: /x", lineWant{kind: DisallowLine, field: "Disallow\v", value: "/x", typo: true}},
		{"ff after colon", "Disallow:\f/x", lineWant{kind: DisallowLine, field: "Disallow", value: "\f/x"}},
		{"vt after value", "Disallow: /x\v # c", lineWant{kind: DisallowLine, field: "Disallow", value: "/x\v", comment: "# c"}},
		{"ff before field", "\fUser-agent: a", lineWant{kind: Extension, field: "\fUser-agent", value: "a"}},
		{"vt only", "\v", lineWant{kind: Invalid}},
		{"no colon vt is no separator", "disallow\v/x", lineWant{kind: Invalid}},
		{"no colon vt in value", "disallow /x\vy", lineWant{kind: DisallowLine, field: "disallow", value: "/x\vy", noColon: true}},
		{"NUL after value", "Disallow: /x \x00y", lineWant{kind: DisallowLine, field: "Disallow", value: "/x \x00y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseString("t", tt.in, Options{})
			if len(f.Lines) == 0 {
				if tt.in != "" {
					t.Fatalf("Parse(%q): no lines", tt.in)
				}
				return
			}
			l := f.Lines[0]
			got := lineWant{l.Kind, l.Field, l.Value, l.Comment(), l.Typo, l.NoColon}
			if got != tt.want {
				t.Errorf("Parse(%q).Lines[0] = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestPositions(t *testing.T) {
	f := ParseString("p", "a: b\r\n  Disallow:\t/x # c\rz", Options{})
	l := f.Lines[1]
	check := func(what string, got, want Pos) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %+v, want %+v", what, got, want)
		}
	}
	check("Pos", l.Pos, Pos{Offset: 6, Line: 2, Column: 1})
	check("FieldPos", l.FieldPos(), Pos{Offset: 8, Line: 2, Column: 3})
	check("ValuePos", l.ValuePos(), Pos{Offset: 18, Line: 2, Column: 13})
	check("CommentPos", l.CommentPos(), Pos{Offset: 21, Line: 2, Column: 16})
	check("End", l.End(), Pos{Offset: 24, Line: 2, Column: 19})
	check("line 3", f.Lines[2].Pos, Pos{Offset: 25, Line: 3, Column: 1})
	empty := ParseString("p", "Disallow:   # c\nAllow:  ", Options{})
	check("empty ValuePos", empty.Lines[0].ValuePos(), Pos{Offset: 12, Line: 1, Column: 13})
	check("empty ValuePos at end", empty.Lines[1].ValuePos(), Pos{Offset: 24, Line: 2, Column: 9})
	if got := f.Position(l.ValuePos()).String(); got != "p:2:13" {
		t.Errorf("Position = %q, want %q", got, "p:2:13")
	}
}

func TestPosAt(t *testing.T) {
	src := "\xEF\xBB\xBFab\r\ncd\ref\ng"
	tests := []struct {
		off  int
		want Pos
	}{
		{0, Pos{3, 1, 1}}, {3, Pos{3, 1, 1}}, {4, Pos{4, 1, 2}}, {6, Pos{6, 1, 4}}, {7, Pos{7, 2, 1}},
		{10, Pos{10, 3, 1}}, {13, Pos{13, 4, 1}}, {99, Pos{14, 4, 2}},
	}
	for _, tt := range tests {
		if got := PosAt(src, tt.off); got != tt.want {
			t.Errorf("PosAt(%q, %d) = %+v, want %+v", src, tt.off, got, tt.want)
		}
	}
	// Every line start the parser reports agrees with PosAt.
	f := ParseString("p", src, Options{})
	for _, l := range f.Lines {
		if got := PosAt(src, l.Pos.Offset); got != l.Pos {
			t.Errorf("PosAt(%d) = %+v, line starts at %+v", l.Pos.Offset, got, l.Pos)
		}
	}
}

func TestLineEnds(t *testing.T) {
	tests := []struct {
		in   string
		eols []string
	}{
		{"a\nb\n", []string{"\n", "\n"}},
		{"a\r\nb\r\n", []string{"\r\n", "\r\n"}},
		{"a\rb\r", []string{"\r", "\r"}},
		{"a\r\rb", []string{"\r", "\r", ""}},
		{"a\n\rb\r\n\nc", []string{"\n", "\r", "\r\n", "\n", ""}},
		{"\n", []string{"\n"}},
		{"", nil},
	}
	for _, tt := range tests {
		f := ParseString("e", tt.in, Options{})
		var got []string
		for _, l := range f.Lines {
			got = append(got, l.EOL())
		}
		if strings.Join(got, "|") != strings.Join(tt.eols, "|") || len(got) != len(tt.eols) {
			t.Errorf("Parse(%q) line ends = %q, want %q", tt.in, got, tt.eols)
		}
		if f.Text() != tt.in {
			t.Errorf("Parse(%q).Text() = %q", tt.in, f.Text())
		}
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func codes(ds Diagnostics) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Range.Start.String()+" "+d.Severity.String()+" "+d.Code)
	}
	return strings.Join(out, "; ")
}

func TestMessy(t *testing.T) {
	long := "Disallow: /" + strings.Repeat("a", 20000)
	tests := []struct {
		name  string
		in    string
		opts  Options
		diags string // positions, severities and codes of the diagnostics
		check func(t *testing.T, f *File)
	}{
		{"bom", "\xEF\xBB\xBFUser-agent: *\nDisallow: /\n", Options{}, "", func(t *testing.T, f *File) {
			if f.BOM != "\xEF\xBB\xBF" || f.Lines[0].Kind != AgentLine || f.Lines[0].Pos.Offset != 3 {
				t.Errorf("BOM = %q, first line %v at %+v", f.BOM, f.Lines[0].Kind, f.Lines[0].Pos)
			}
		}},
		{"partial bom", "\xEF\xBBUser-agent: *\n", Options{}, "", func(t *testing.T, f *File) {
			if f.BOM != "\xEF\xBB" || f.Lines[0].Kind != AgentLine {
				t.Errorf("BOM = %q, first line %v", f.BOM, f.Lines[0].Kind)
			}
		}},
		{"bom only at start", "User-agent: *\n\xEF\xBB\xBFDisallow: /\n", Options{}, "", func(t *testing.T, f *File) {
			if f.Lines[1].Kind != Extension {
				t.Errorf("line 2 kind = %v, want extension (a BOM is skipped only at the very start)", f.Lines[1].Kind)
			}
		}},
		{"bare cr", "User-agent: *\rDisallow: /\r", Options{}, "", func(t *testing.T, f *File) {
			if len(f.Records) != 1 || len(f.Records[0].Lines) != 2 {
				t.Errorf("bare CR: %d records", len(f.Records))
			}
		}},
		{"nul", "User-agent: *\nDisallow: /a\x00b\n", Options{}, "2:13 warning nul", nil},
		{"invalid utf8", "User-agent: *\nDisallow: /\xff\xfe\n", Options{}, "2:1 warning utf8", nil},
		{"html", "<!DOCTYPE html>\n<html><head><title>404</title></head>\n<body>not found</body></html>\n", Options{}, "1:1 error markup", nil},
		{"xml", "<?xml version=\"1.0\"?>\n<urlset>\n</urlset>\n", Options{}, "1:1 error markup", nil},
		{"no colon", "User-agent *\nDisallow /\n", Options{}, "1:1 warning no-colon; 2:1 warning no-colon", nil},
		{"invalid line", "User-agent: *\nthis is junk\n", Options{}, "2:1 warning invalid-line", nil},
		{"long line", long + "\n", Options{}, "1:16664 warning line-too-long", func(t *testing.T, f *File) {
			if l := f.Lines[0]; !l.TooLong || len(l.Value) != DefaultMaxLineLength-len("Disallow: ") || len(l.Raw) != len(long) {
				t.Errorf("TooLong = %v, len(Value) = %d, len(Raw) = %d", l.TooLong, len(l.Value), len(l.Raw))
			}
		}},
		{"size limit", "User-agent: *\nDisallow: /abcdef\n", Options{MaxSize: 27}, "2:14 warning too-large", func(t *testing.T, f *File) {
			if f.Ignored != "cdef\n" || f.Lines[1].Value != "/ab" {
				t.Errorf("Ignored = %q, value = %q", f.Ignored, f.Lines[1].Value)
			}
		}},
		{"line limit", "a: 1\nb: 2\nc: 3\n", Options{MaxLines: 2}, "3:1 warning too-many-lines", func(t *testing.T, f *File) {
			if len(f.Lines) != 2 || f.Ignored != "c: 3\n" {
				t.Errorf("%d lines, Ignored = %q", len(f.Lines), f.Ignored)
			}
		}},
		{"line and size limit", "a: 1\nb: 2\nc: 3\n", Options{MaxLines: 1, MaxSize: 8}, "2:1 warning too-many-lines", func(t *testing.T, f *File) {
			if len(f.Lines) != 1 || f.Ignored != "b: 2\nc: 3\n" {
				t.Errorf("%d lines, Ignored = %q", len(f.Lines), f.Ignored)
			}
		}},
		{"diagnostics capped", strings.Repeat("junk junk junk\n", 1500), Options{}, "", func(t *testing.T, f *File) {
			if n := len(f.Diagnostics); n != 1001 || !strings.Contains(codes(f.Diagnostics)+f.Diagnostics.Error(), "invalid-line") {
				t.Errorf("%d diagnostics, want 1000 and a summary", n)
			}
			found := false
			for _, d := range f.Diagnostics {
				found = found || d.Summary == `500 more "invalid-line" diagnostics like this one are left out`
			}
			if !found {
				t.Errorf("no summary of the 500 diagnostics left out")
			}
		}},
		{"no size limit", strings.Repeat("# x\n", 10), Options{MaxSize: -1}, "", nil},
		{"rules before agent", "Disallow: /\nUser-agent: *\n", Options{}, "", func(t *testing.T, f *File) {
			if len(f.Preamble) != 1 || f.Preamble[0].Kind != DisallowLine {
				t.Errorf("Preamble = %v", f.Preamble)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseString("m", tt.in, tt.opts)
			if got := codes(f.Diagnostics); got != tt.diags && tt.name != "diagnostics capped" {
				t.Errorf("diagnostics = %q, want %q", got, tt.diags)
			}
			if tt.check != nil {
				tt.check(t, f)
			}
			checkInvariants(t, tt.in, f)
		})
	}
}

// checkInvariants checks what holds for every parse: the input re-joins
// byte for byte, positions are inside the input and agree with offsets,
// records are contiguous runs of lines that start at User-agent lines.
func checkInvariants(t *testing.T, in string, f *File) {
	t.Helper()
	if got := f.Text(); got != in {
		t.Fatalf("Text() does not re-join the input: got %d bytes, want %d", len(got), len(in))
	}
	off := len(f.BOM)
	for i, l := range f.Lines {
		if l.Pos.Offset != off || l.Pos.Line != i+1 || l.Pos.Column != 1 {
			t.Fatalf("line %d at %+v, want offset %d", i+1, l.Pos, off)
		}
		if in[off:off+len(l.Raw)] != l.Raw {
			t.Fatalf("line %d Raw does not match the input", i+1)
		}
		for _, p := range []Pos{l.FieldPos(), l.ValuePos(), l.CommentPos(), l.End()} {
			if p.Offset < off || p.Offset > off+len(l.Raw) || p.Line != l.Pos.Line || p.Column != 1+p.Offset-off {
				t.Fatalf("line %d: position %+v outside the line", i+1, p)
			}
		}
		// The comment runs from the line's first '#' to the end of the
		// text it was split from.
		text := f.LineText(l)
		want := ""
		if h := strings.IndexByte(text, '#'); h >= 0 {
			want = text[h:]
		}
		if got := l.Comment(); got != want {
			t.Fatalf("line %d: Comment() = %q, want %q", i+1, got, want)
		}
		off += len(l.Raw) + len(l.EOL())
	}
	// The preamble is every line before the first User-agent line.
	for i, l := range f.Lines {
		if l.Kind == AgentLine {
			if len(f.Preamble) != i {
				t.Fatalf("Preamble has %d lines, want the %d before the first User-agent line", len(f.Preamble), i)
			}
			break
		}
	}
	checkRecords(t, f)
	for _, d := range f.Diagnostics {
		if p := d.Range.Start; p.Offset < 0 || p.Offset > len(in) {
			t.Fatalf("diagnostic %v outside the input", d)
		}
		if d.Code == CodeGrammar {
			t.Fatalf("the grammar failed on the lexer's tokens: %v", d)
		}
	}
}

func TestDiagnosticFormat(t *testing.T) {
	src := "User-agent: *\n\tDisallow /a /b\n"
	f := ParseString("robots.txt", src, Options{})
	if len(f.Diagnostics) != 1 {
		t.Fatalf("diagnostics = %v", f.Diagnostics)
	}
	got := f.Diagnostics[0].Format(src)
	want := "robots.txt:2:2: warning: line is not a \"field: value\" line\n\n    2 |  Disallow /a /b\n      |  ^"
	if got != want {
		t.Errorf("Format() =\n%s\nwant\n%s", got, want)
	}
	if got, want := f.Diagnostics.Error(), "robots.txt:2:2: warning: line is not a \"field: value\" line"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if f.Diagnostics.HasErrors() || f.Diagnostics.Err() != nil {
		t.Errorf("HasErrors() = true for a warning")
	}
}

func TestDiagnosticsSort(t *testing.T) {
	ds := Diagnostics{
		{Severity: Warning, Summary: "b", Filename: "x", Range: Range{Start: Pos{Offset: 5, Line: 2, Column: 1}}},
		{Severity: Warning, Summary: "a", Filename: "x", Range: Range{Start: Pos{Offset: 0, Line: 1, Column: 1}}},
		{Severity: Error, Summary: "c", Filename: "x", Range: Range{Start: Pos{Offset: 5, Line: 2, Column: 1}}},
		{Severity: Warning, Summary: "d", Filename: "a", Range: Range{Start: Pos{Offset: 9, Line: 3, Column: 1}}},
	}
	ds.Sort()
	var got []string
	for _, d := range ds {
		got = append(got, d.Summary)
	}
	if strings.Join(got, "") != "dacb" {
		t.Errorf("sorted = %v, want [d a c b]", got)
	}
	if !ds.HasErrors() || ds.Count(Warning) != 3 {
		t.Errorf("HasErrors() = %v, Count(Warning) = %d", ds.HasErrors(), ds.Count(Warning))
	}
}

func TestDiagnosticsLimit(t *testing.T) {
	var ds Diagnostics
	for i := 0; i < 5; i++ {
		ds = append(ds, &Diagnostic{Severity: Warning, Code: "a", Summary: "a"}, &Diagnostic{Severity: Error, Code: "b", Summary: "b"})
	}
	ds = append(ds, &Diagnostic{Severity: Warning, Code: "c", Summary: "c"})
	got := ds.Limit(2)
	var sums []string
	for _, d := range got {
		sums = append(sums, d.Code+":"+d.Summary)
	}
	want := `a:a b:b a:a a:3 more "a" diagnostics like this one are left out b:b b:3 more "b" diagnostics like this one are left out c:c`
	if strings.Join(sums, " ") != want {
		t.Errorf("Limit(2) =\n%s\nwant\n%s", strings.Join(sums, " "), want)
	}
	if got := ds.Limit(5); len(got) != len(ds) {
		t.Errorf("Limit(5) dropped diagnostics: %d of %d", len(got), len(ds))
	}
}

func TestEBNF(t *testing.T) {
	const golden = "../docs/grammar.ebnf"
	got := EBNF() + "\n"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./grammar -update)", err)
	}
	if got != string(want) {
		t.Errorf("EBNF() differs from %s (run go test ./grammar -update):\n%s", golden, got)
	}
	// The file and record productions are over line classes, with the
	// BNF's repetitions.
	prods := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
		name, rhs, _ := strings.Cut(line, " = ")
		prods[name] = rhs
	}
	terms := regexp.MustCompile(`<[a-z]+>`)
	for _, name := range []string{"Robotstxt", "Record", "Gap", "Preamble"} {
		if _, ok := prods[name]; !ok {
			t.Errorf("EBNF() has no production %s:\n%s", name, got)
		}
	}
	if !strings.Contains(prods["Robotstxt"], "Record") || !strings.Contains(prods["Robotstxt"], ")*") {
		t.Errorf("Robotstxt = %s, want a repetition of records", prods["Robotstxt"])
	}
	if r := prods["Record"]; !strings.Contains(r, "<agentline>") || !strings.Contains(r, "<ruleline>") || !strings.Contains(r, ")*") {
		t.Errorf("Record = %s, want User-agent and rule lines with repetitions", r)
	}
	seen := map[string]bool{}
	for _, m := range terms.FindAllString(got, -1) {
		seen[m] = true
	}
	if len(seen) != len(symbols)-1 {
		t.Errorf("the productions are over %d line classes, want all %d:\n%s", len(seen), len(symbols)-1, got)
	}
}

// TestLoadCorpus parses the real robots.txt files of the shared corpus and
// checks the invariants on each: a sample by default, every file in the
// slow tier (go test -tags slow).
func TestLoadCorpus(t *testing.T) {
	files, _ := filepath.Glob(shareddata.Path("corpus/robots/*.txt"))
	if len(files) == 0 {
		t.Skip("../shared/corpus/robots is absent")
	}
	if testing.Short() {
		files = files[:500]
	}
	files = shareddata.Sample(t, files)
	records := 0
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f := Parse(name, b, Options{})
		records += len(f.Records)
		t.Run(filepath.Base(name), func(t *testing.T) { checkInvariants(t, string(b), f) })
	}
	t.Logf("%d files, %d records", len(files), records)
}

func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/*/*.txt")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err == nil {
			f.Add(b)
		}
	}
	corpus, _ := filepath.Glob(shareddata.Path("corpus/robots/*.txt"))
	for i := 0; i < len(corpus); i += 500 {
		if b, err := os.ReadFile(corpus[i]); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Add([]byte("\xEF\xBBuser agent FooBot\r\rdisalow /\x00\n:x\n#"))
	f.Fuzz(func(t *testing.T, in []byte) {
		file := Parse("fuzz", in, Options{MaxSize: 4096, MaxLineLength: 64, MaxLines: 100})
		checkInvariants(t, string(in), file)
		for _, l := range file.Lines {
			if l.IsField() && !utf8.ValidString(l.Raw) && l.Field == "" {
				t.Fatalf("field line without a field: %q", l.Raw)
			}
		}
	})
}

// TestCodes: the parser emits every code of Codes and no other, and
// docs/grammar.md's table lists exactly Codes, in order.
func TestCodes(t *testing.T) {
	inputs := []struct {
		in   string
		opts Options
	}{
		{"<!doctype html><html></html>\n", Options{}},
		{"User-agent: *\nDisallow: /abcdef\n", Options{MaxSize: 20}},
		{"a: 1\nb: 2\nc: 3\n", Options{MaxLines: 1}},
		{"Disallow: /" + strings.Repeat("a", 100) + "\n", Options{MaxLineLength: 20}},
		{"disallow /x\njunk\n: x\nDisallow: /\x00\nAllow: /\xff\n", Options{}},
	}
	emitted := map[string]bool{}
	for _, in := range inputs {
		for _, d := range ParseString("t", in.in, in.opts).Diagnostics {
			emitted[d.Code] = true
		}
	}
	listed := map[string]bool{}
	for _, c := range Codes {
		listed[c] = true
		if !emitted[c] {
			t.Errorf("code %q is in Codes but no test input emits it", c)
		}
	}
	for c := range emitted {
		if !listed[c] {
			t.Errorf("code %q is emitted but not in Codes", c)
		}
	}
	doc, err := os.ReadFile("../docs/grammar.md")
	if err != nil {
		t.Skipf("docs/grammar.md: %v", err)
	}
	var documented []string
	for _, line := range strings.Split(string(doc), "\n") {
		if f := strings.Split(line, "|"); len(f) > 3 && strings.HasPrefix(strings.TrimSpace(f[1]), "`") &&
			(strings.TrimSpace(f[2]) == "warning" || strings.TrimSpace(f[2]) == "error") {
			documented = append(documented, strings.Trim(strings.TrimSpace(f[1]), "`"))
		}
	}
	if strings.Join(documented, " ") != strings.Join(Codes, " ") {
		t.Errorf("docs/grammar.md documents the codes %q, want Codes %q", documented, Codes)
	}
}

// TestFormatEscapes: the source line under a diagnostic shows a control
// byte as text output does (\x00, not "?"), and the caret stays under the
// column it names.
func TestFormatEscapes(t *testing.T) {
	src := "Disallow: /a\x00b/c\n"
	d := &Diagnostic{Severity: Warning, Code: "x", Summary: "here", Filename: "r",
		Range: Range{Start: Pos{Line: 1, Column: 15, Offset: 14}}}
	got := d.Format(src)
	want := "    1 | Disallow: /a\\x00b/c\n      | " + strings.Repeat(" ", 17) + "^" // under the "/" after b
	if !strings.HasSuffix(got, want) {
		t.Errorf("Format = %q, want it to end %q", got, want)
	}
}

// TestMarkupASCII checks markup's case-insensitive search over ASCII text
// against the Unicode lowering it replaces there.
func TestMarkupASCII(t *testing.T) {
	for _, src := range []string{
		"", "no tags", "<", "a < b", "<HTML>", "x <Html lang=en>", "<!DOCTYPE HTML>\n<html>", "<body><head>",
		"<?XML version='1.0'?>", "<URLSET>", "<sitemapIndex", "<<html", "<htm", "# <a href> <body",
	} {
		at, what := markup(src)
		wantAt, wantWhat := markupUnicode(src)
		if strings.IndexByte(src, '<') < 0 {
			wantAt, wantWhat = -1, ""
		}
		if at != wantAt || what != wantWhat {
			t.Errorf("markup(%q) = %d, %q, want %d, %q", src, at, what, wantAt, wantWhat)
		}
	}
}

// TestParseConcurrent parses files of many shapes from several
// goroutines at once (run with -race): every file gets its own records.
func TestParseConcurrent(t *testing.T) {
	const n, most = 1000, 20
	src := make([]string, n)
	for i := range src {
		var b strings.Builder
		for k := 0; k < 1+i%most; k++ {
			fmt.Fprintf(&b, "User-agent: bot%d\n", k)
			if (i>>(k%12))&1 == 1 {
				fmt.Fprintf(&b, "Disallow: /%d\n", k)
			}
			b.WriteString("\n")
		}
		src[i] = b.String()
	}
	files := make([]*File, n)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += 4 {
				files[i] = ParseString("r", src[i], Options{})
			}
		}()
	}
	wg.Wait()
	for i, f := range files {
		if want := 1 + i%most; len(f.Records) != want {
			t.Fatalf("file %d: len(Records) = %d, want %d\n%s", i, len(f.Records), want, src[i])
		}
		for k, r := range f.Records {
			if r.Agents[0].Value != fmt.Sprintf("bot%d", k) {
				t.Fatalf("file %d: Records[%d] starts at %q, want bot%d", i, k, r.Agents[0].Raw, k)
			}
		}
		checkInvariants(t, src[i], f)
	}
}

// TestNulOrHigh checks the word-at-a-time search against a byte loop, for
// every position of a NUL or high byte in strings of up to 80 bytes.
func TestNulOrHigh(t *testing.T) {
	want := func(s string) int {
		for i := 0; i < len(s); i++ {
			if s[i] == 0 || s[i] >= 0x80 {
				return i
			}
		}
		return -1
	}
	for n := 0; n <= 80; n++ {
		base := strings.Repeat("a", n)
		if got := nulOrHigh(base); got != -1 {
			t.Fatalf("nulOrHigh(%d x a) = %d, want -1", n, got)
		}
		for i := 0; i < n; i++ {
			for _, c := range []byte{0, 0x80, 0xff, 1} {
				b := []byte(base)
				b[i] = c
				if i+1 < n {
					b[i+1] = 0 // a NUL after the first special byte must not win
				}
				s := string(b)
				if got := nulOrHigh(s); got != want(s) {
					t.Fatalf("nulOrHigh(%q) = %d, want %d", s, got, want(s))
				}
			}
		}
	}
}

// TestLowerToASCII: the only runes beyond ASCII that Unicode lowers to
// ASCII are "İ" and the Kelvin sign, which tagCandidate relies on, and
// tagCandidate accepts every tag of markupTags, in any case, and a tag
// with "İ" for its "i".
func TestLowerToASCII(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if l := unicode.ToLower(r); l < 0x80 && r != 0x130 && r != 0x212A {
			t.Errorf("unicode.ToLower(%U) = %q, ASCII: tagCandidate must accept it", r, l)
		}
	}
	for _, tag := range markupTags {
		if !tagCandidate(tag.tag) || !tagCandidate(strings.ToUpper(tag.tag)) {
			t.Errorf("tagCandidate(%q) = false", tag.tag)
		}
	}
	if at, what := markup("é <sİtemapindex>"); at != len("é ") || what != "XML" {
		t.Errorf(`markup("é <sİtemapindex>") = %d, %q, want %d, "XML"`, at, what, len("é "))
	}
	if at, _ := markup("é <a href> <i> <k>"); at != -1 {
		t.Errorf(`markup("é <a href> <i> <k>") = %d, want -1`, at)
	}
	if at, what := markup("é\n<HTML>"); at != len("é\n") || what != "HTML" {
		t.Errorf(`markup("é\n<HTML>") = %d, %q`, at, what)
	}
}

// TestMarkupKeepsOffsets checks markup on heads beyond ASCII, where it
// searches head itself when lowering keeps every byte's offset, against
// the search of the lowered head (markupUnicode) it stands for.
func TestMarkupKeepsOffsets(t *testing.T) {
	for _, src := range []string{
		"é <HTML>", "Ünïcode\n<!DOCTYPE html>", "ÄÖÜ <Body>", "日本語 <urlset>", "é <a> <hEAD>",
		"İ <html>", "\u212A <html>", "\xff <html>", "é \xc3 <body>", "ſ <urlſet>", "é <sİtemapindex>",
		"é\x00 <?xml", "é <htmł>", "Σ <html>", "é <HTM", "é <a href>",
	} {
		at, what := markup(src)
		wantAt, wantWhat := markupUnicode(src)
		if !tagCandidate(src) {
			wantAt, wantWhat = -1, ""
		}
		if at != wantAt || what != wantWhat {
			t.Errorf("markup(%q) = %d, %q, want %d, %q", src, at, what, wantAt, wantWhat)
		}
	}
}

// lineNumbers returns the line numbers of lines.
func lineNumbers(lines []*Line) []int {
	ns := make([]int, len(lines))
	for i, l := range lines {
		ns[i] = l.Pos.Line
	}
	return ns
}
