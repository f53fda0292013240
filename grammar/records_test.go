package grammar

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

type recWant struct {
	start  int   // line of the record's first line
	n      int   // lines in the record
	agents []int // lines of its User-agent lines
}

func TestRecords(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		preamble int
		recs     []recWant
	}{
		{"empty", "", 0, nil},
		{"no user-agent", "Disallow: /\nAllow: /a\n", 2, nil},
		{"one record", "User-agent: *\nDisallow: /\n", 0, []recWant{{1, 2, []int{1}}}},
		{"rules before agent", "Disallow: /x\n# c\nUser-agent: a\nDisallow: /\n", 2, []recWant{{3, 2, []int{3}}}},
		{"no blank between records", "User-agent: a\nDisallow: /\nUser-agent: b\nAllow: /\n", 0,
			[]recWant{{1, 2, []int{1}}, {3, 2, []int{3}}}},
		{"blank ends record", "User-agent: a\nDisallow: /x\n\nDisallow: /y\n", 0, []recWant{{1, 2, []int{1}}}},
		{"blank lines between records", "User-agent: a\nDisallow: /\n\n \n# c\nUser-agent: b\nDisallow: /\n", 0,
			[]recWant{{1, 2, []int{1}}, {6, 2, []int{6}}}},
		{"agents split by blank", "User-agent: a\n\nUser-agent: b\nDisallow: /\n", 0, []recWant{{1, 1, []int{1}}, {3, 2, []int{3}}}},
		{"extension among agents", "User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\n", 0, []recWant{{1, 4, []int{1, 3}}}},
		{"sitemap after rules stays", "User-agent: a\nDisallow: /\nSitemap: /s\nUser-agent: b\nDisallow: /\n", 0,
			[]recWant{{1, 3, []int{1}}, {4, 2, []int{4}}}},
		// The drafts know no Content-Usage line: an extension line.
		{"content-usage is an extension", "User-agent: a\nContent-Usage: / train-ai=n\nUser-agent: b\nDisallow: /\n", 0,
			[]recWant{{1, 4, []int{1, 3}}}},
		{"content-usage among rules", "User-agent: a\nAllow: /\ncontent-usage : / train-ai=n\nUser-agent: b\n", 0,
			[]recWant{{1, 3, []int{1}}, {4, 1, []int{4}}}},
		{"content-usage before agent", "Content-Usage: / train-ai=n\nUser-agent: a\nDisallow: /\n", 1,
			[]recWant{{2, 2, []int{2}}}},
		// A misspelt field or a line with no colon is no line of the BNF.
		{"typo agent starts no record", "useragent: a\ndisalow: /\nuser agent: b\n", 0, nil},
		{"typo rule ends no agent run", "User-agent: a\ndisalow: /\nUser-agent: b\nDisallow /x\nDisallow: /\n", 0,
			[]recWant{{1, 5, []int{1, 3}}}},
		{"fict.org", readFile(t, "../testdata/robots/fict.org.txt"), 3,
			[]recWant{{4, 2, []int{4}}, {7, 3, []int{7, 8}}, {11, 6, []int{11}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseString("r", tt.in, Options{})
			if len(f.Preamble) != tt.preamble {
				t.Errorf("len(Preamble) = %d, want %d", len(f.Preamble), tt.preamble)
			}
			if len(f.Records) != len(tt.recs) {
				t.Fatalf("len(Records) = %d, want %d", len(f.Records), len(tt.recs))
			}
			for i, r := range f.Records {
				w := tt.recs[i]
				var agents []int
				for _, a := range r.Agents {
					agents = append(agents, a.Pos.Line)
				}
				if r.Pos.Line != w.start || len(r.Lines) != w.n || !equalInts(agents, w.agents) {
					t.Errorf("Records[%d] = {start %d, %d lines, agents %v}, want %+v", i, r.Pos.Line, len(r.Lines), agents, w)
				}
			}
			checkInvariants(t, tt.in, f)
		})
	}
}

// TestNodes: the tree's top level is the records and the gaps between
// them, with the preamble and the lead before the first record.
func TestNodes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // each node: its kind and its first and last line
	}{
		{"empty", "", ""},
		{"record", "User-agent: *\nDisallow: /\n", "record 1-2"},
		{"preamble only", "# c\nDisallow: /\n", "preamble 1-2"},
		{"preamble, record, gap", "# c\nUser-agent: a\nDisallow: /\n\nSitemap: /s\n", "preamble 1-1 record 2-3 gap 4-5"},
		{"records with no gap", "User-agent: a\nDisallow: /\nUser-agent: b\nAllow: /\n", "record 1-2 record 3-4"},
		{"comment ends with the record", "User-agent: a\nDisallow: /\n# c\n\n# d\nUser-agent: b\n", "record 1-3 gap 4-5 record 6-6"},
		{"lead", "useragent: x\nDisallow: /\nUser-agent: a\n", "gap 1-2 record 3-3"},
		{"preamble and lead", "# c\nuser agent: x\n\nUser-agent: a\nAllow: /\n", "preamble 1-1 gap 2-3 record 4-5"},
		{"rules after a blank line", "User-agent: a\n\nDisallow: /\n", "record 1-1 gap 2-3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ParseString("n", tt.in, Options{})
			var got []string
			for _, n := range f.Nodes {
				kind := "gap"
				if n.Record != nil {
					kind = "record"
				} else if n.IsPreamble() {
					kind = "preamble"
				}
				ls := n.Lines()
				got = append(got, fmt.Sprintf("%s %d-%d", kind, ls[0].Pos.Line, ls[len(ls)-1].Pos.Line))
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("ParseString(%q).Nodes = %s, want %s", tt.in, g, tt.want)
			}
			checkInvariants(t, tt.in, f)
		})
	}
}

// lineSpan is a run of a file's lines, 1-based, end exclusive.
type lineSpan struct{ start, end int }

// bnfRecords returns the records where a plain reading of the drafts'
// BNF, line by line, puts them: a User-agent line in the BNF's form
// starts a record unless it follows one of the same record with no rule
// line between them; a blank line ends a record.
func bnfRecords(f *File) []lineSpan {
	var want []lineSpan
	inRec, seenRule := false, false
	for i, l := range f.Lines {
		bnf := !l.Typo && !l.NoColon
		switch {
		case l.Kind == Blank:
			if inRec {
				want[len(want)-1].end, inRec = i+1, false
			}
		case l.Kind == AgentLine && bnf && (!inRec || seenRule):
			if inRec {
				want[len(want)-1].end = i + 1
			}
			want = append(want, lineSpan{i + 1, 0})
			inRec, seenRule = true, false
		case l.Kind.IsRule() && bnf:
			seenRule = true
		}
	}
	if inRec {
		want[len(want)-1].end = len(f.Lines) + 1
	}
	return want
}

// recordSpans returns the lines of the file's records.
func recordSpans(f *File) []lineSpan {
	var got []lineSpan
	for _, r := range f.Records {
		got = append(got, lineSpan{r.Pos.Line, r.Pos.Line + len(r.Lines)})
	}
	return got
}

// checkRecords checks that the records are contiguous runs of the file's
// lines where a plain reading of the drafts' BNF puts them (bnfRecords),
// with the positions participle set and their User-agent lines as Agents,
// and that the tree's nodes are every line once, in order.
func checkRecords(t *testing.T, f *File) {
	t.Helper()
	for i, r := range f.Records {
		// participle's positions: the record's first line, and the line
		// after its last (or the end of the input).
		if r.Pos != f.Lines[r.Pos.Line-1].Pos {
			t.Fatalf("record %d: Pos %v, want its first line's %v", i, r.Pos, f.Lines[r.Pos.Line-1].Pos)
		}
		if last := r.Lines[len(r.Lines)-1]; r.EndPos.Offset != last.Pos.Offset+len(last.Raw)+len(last.EOL()) {
			t.Fatalf("record %d: EndPos %v, want just past its last line %v", i, r.EndPos, last.Pos)
		}
		if len(r.Lines) == 0 || r.Lines[0] != f.Lines[r.Pos.Line-1] {
			t.Fatalf("record %d does not start at its line %d", i, r.Pos.Line)
		}
		var agents []*Line // its User-agent lines in the BNF's form
		for j, l := range r.Lines {
			if l != f.Lines[r.Pos.Line-1+j] {
				t.Fatalf("record %d is not a run of the file's lines", i)
			}
			if l.Kind == AgentLine && !l.Typo && !l.NoColon {
				agents = append(agents, l)
			}
		}
		if !slices.Equal(r.Agents, agents) {
			t.Fatalf("record %d: Agents on lines %v, want its User-agent lines %v", i, lineNumbers(r.Agents), lineNumbers(agents))
		}
	}
	if got, want := recordSpans(f), bnfRecords(f); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("records span lines %v, want %v", got, want)
	}
	checkNodes(t, f)
}

// checkNodes checks the tree's top level: its nodes' lines are the
// file's, each once and in order; each node's positions are where its
// first line starts and where the next node starts (or the input ends);
// Records are its record nodes, Preamble the lines of its preamble, the
// first node; every gap but the preamble and the lead after it starts
// at a blank line, and no gap holds a User-agent line in the BNF's form.
func checkNodes(t *testing.T, f *File) {
	t.Helper()
	next, recs := 0, 0
	for i, n := range f.Nodes {
		lines := n.Lines()
		if len(lines) == 0 || (n.Record == nil) == (n.Gap == nil) {
			t.Fatalf("node %d: %d lines, record %v, gap %v", i, len(lines), n.Record != nil, n.Gap != nil)
		}
		for j, l := range lines {
			if next+j >= len(f.Lines) || l != f.Lines[next+j] {
				t.Fatalf("node %d: line %d is not the file's line %d", i, l.Pos.Line, next+j+1)
			}
		}
		next += len(lines)
		if n.Pos() != lines[0].Pos {
			t.Fatalf("node %d: Pos %v, want its first line's %v", i, n.Pos(), lines[0].Pos)
		}
		if end := endPos("", f.Lines[:next]); n.EndPos() != end { // lines: src is not read
			t.Fatalf("node %d: EndPos %v, want %v", i, n.EndPos(), end)
		}
		switch {
		case n.Record != nil:
			if recs >= len(f.Records) || f.Records[recs] != n.Record {
				t.Fatalf("node %d: record not Records[%d]", i, recs)
			}
			recs++
		case n.IsPreamble():
			if i != 0 || !slices.Equal(f.Preamble, lines) {
				t.Fatalf("node %d: a preamble, not the first node or not File.Preamble", i)
			}
		default:
			lead := i <= 1 && lines[0].Kind == AgentLine && recs == 0
			if lines[0].Kind != Blank && !lead {
				t.Fatalf("node %d: a gap that starts with a %v line", i, lines[0].Kind)
			}
			for _, l := range lines {
				if l.Kind == AgentLine && !l.Typo && !l.NoColon {
					t.Fatalf("node %d: a gap holds User-agent line %d", i, l.Pos.Line)
				}
			}
		}
	}
	if next != len(f.Lines) || recs != len(f.Records) {
		t.Fatalf("the nodes hold %d of %d lines and %d of %d records", next, len(f.Lines), recs, len(f.Records))
	}
	if len(f.Nodes) > 0 && !f.Nodes[0].IsPreamble() && len(f.Preamble) > 0 {
		t.Fatalf("Preamble has %d lines but the first node is no preamble", len(f.Preamble))
	}
}
