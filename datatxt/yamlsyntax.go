package datatxt

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
	"gopkg.in/yaml.v3"
)

// maxRepairs is how many syntax errors decodeAll works around.
const maxRepairs = 16

// decodeAll decodes every YAML document in p.src. A syntax error is an
// error diagnostic at its line; then, so that the entries of a file with a
// typo still come out, it retries with the offending line repaired as its
// writer evidently meant it (a plain value holding ": " is read as quoted;
// an under-indented continuation line as indented), or failing that with
// the lines from the error to the next top-level item left out (blanked,
// so that every other line keeps its number), and the diagnostic names
// them. After maxRepairs errors, or when leaving lines out does not help,
// only the lines before the error are read.
func (p *parser) decodeAll() []*yaml.Node {
	lines := splitLines(p.src)
	docs, err := decodeText(p.src)
	for try := 0; ; try++ {
		if err == nil {
			return docs
		}
		yline, msg := syntaxErrorLine(err)
		line := errorLine(lines, yline, msg)
		at := p.lineStart(lines, line)
		d := p.diag(grammar.Error, "yaml-syntax", at, at, "yaml syntax error: "+msg)
		if try < maxRepairs && line > 0 {
			if fixed, how := repairLine(lines, line-1); fixed != "" {
				d.Summary += "; " + how
				lines[line-1].text = fixed
				docs, err = decodeText(joinLines(lines))
				continue
			}
			if next := skipTo(lines, line); next > line {
				cut := blank(lines, line-1, next-1)
				cdocs, cerr := decodeText(joinLines(cut))
				if cerr == nil || reportedFrom(cerr) >= next-1 {
					d.Summary += "; " + notRead(line, next-1, len(lines))
					lines, docs, err = cut, cdocs, cerr
					continue
				}
			}
		}
		// Read what comes before the error.
		if line > 1 {
			if docs, err := decodeText(joinLines(lines[:line-1])); err == nil {
				d.Summary += "; " + notRead(line, len(lines), len(lines))
				return docs
			}
		}
		d.Summary += "; nothing in the file could be read"
		return nil
	}
}

// lineStart is the position of line's first character that is not a
// space (line 1 when line is 0).
func (p *parser) lineStart(lines []srcLine, line int) grammar.Pos {
	if line < 1 || line > len(lines) {
		return p.lines.posOf(p.src, 0)
	}
	t := lines[line-1].text
	if line == 1 {
		t = t[grammar.BOMLen(t):]
	}
	return p.lines.pos(p.src, line, len(t)-len(strings.TrimLeft(t, " \t"))+1)
}

// parserProblems are the messages of yaml.v3's parser (the scanner has
// its own). yaml.v3 numbers a parser error's line from 0, a scanner's from
// 1 (its parser.fail adds one for scanner errors only).
var parserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// maxShift bounds how far errorLine moves the line yaml.v3 names.
const maxShift = 2

// errorLine returns the 1-based line of a syntax error yaml.v3 reported at
// yline with msg: the first line that cannot be read after the ones before
// it. yaml.v3 names the line where the construct it was reading began
// (an unclosed "[" on line 3 is "line 2" for its parser, counted from 0)
// or, for a scanner error, sometimes the line before the bad character; so
// the line it names is corrected by reading the lines before it.
func errorLine(lines []srcLine, yline int, msg string) int {
	if len(lines) == 0 {
		return 0
	}
	line := max(yline, 1)
	if parserProblems[msg] && yline > 0 {
		line = yline + 1
	}
	for line > len(lines) || (line > 1 && strings.TrimSpace(lines[line-1].text) == "") {
		line-- // an error at the end of the input stands on its last written line
	}
	reads := func(n int) bool { _, err := decodeText(joinLines(lines[:n])); return err == nil }
	for i := 0; i < maxShift && line > 1 && !reads(line-1); i++ {
		line--
	}
	for i := 0; i < maxShift && line < len(lines) && reads(line); i++ {
		line++
	}
	return line
}

// skipTo returns the 1-based line of the first top-level item after line
// (an item of the file's top-level list, a key of its top-level mapping,
// or a document marker), or len(lines)+1 when there is none.
func skipTo(lines []srcLine, line int) int {
	base, list := -1, false
	for _, l := range lines {
		t := strings.TrimLeft(l.text, " ")
		if t == "" || t[0] == '#' || strings.HasPrefix(l.text, "---") || strings.HasPrefix(l.text, "%") {
			continue
		}
		base, list = len(l.text)-len(t), t[0] == '-'
		break
	}
	for i := line; i < len(lines); i++ {
		l := lines[i].text
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...") {
			return i + 1
		}
		t := strings.TrimLeft(l, " ")
		if t == "" || t[0] == '#' || len(l)-len(t) != base {
			continue
		}
		if !list || t == "-" || strings.HasPrefix(t, "- ") {
			return i + 1
		}
	}
	return len(lines) + 1
}

// blank returns a copy of lines with lines[from:to] emptied, their line
// ends kept.
func blank(lines []srcLine, from, to int) []srcLine {
	out := append([]srcLine(nil), lines...)
	for i := from; i < to && i < len(out); i++ {
		out[i].text = ""
	}
	return out
}

// reportedFrom is the earliest line a yaml.v3 error may stand on: the
// line it names, or the one after for its parser (see errorLine).
func reportedFrom(err error) int {
	yline, _ := syntaxErrorLine(err)
	return max(yline, 1)
}

// notRead says which lines a syntax error left out.
func notRead(from, to, last int) string {
	end := ""
	if to >= last {
		end = ", to the end of the file,"
	}
	if from == to {
		return fmt.Sprintf("line %d%s is not read", from, end)
	}
	return fmt.Sprintf("lines %d-%d%s are not read", from, to, end)
}

func decodeText(text string) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	var docs []*yaml.Node
	for {
		n := new(yaml.Node)
		err := decode(dec, n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return docs, err
		}
		docs = append(docs, n)
	}
}

// srcLine is a line of input and its line end.
type srcLine struct{ text, eol string }

func splitLines(s string) []srcLine {
	var out []srcLine
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			out = append(out, srcLine{s, ""})
			break
		}
		eol := s[i : i+1]
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			eol = "\r\n"
		}
		out = append(out, srcLine{s[:i], eol})
		s = s[i+len(eol):]
	}
	return out
}

func joinLines(ls []srcLine) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.text)
		b.WriteString(l.eol)
	}
	return b.String()
}

// plainValue matches a block mapping line whose value is a plain scalar:
// indentation, an optional "- ", a key, ": " and the value.
var plainValue = regexp.MustCompile(`^(\s*(?:-\s+)?[^\s"'#\-?:,\[\]{}][^:#]*:\s+)([^\s"'|>\[{&*!%@\x60].*)$`)

// repairLine returns line i rewritten so that it parses, and how, or "".
func repairLine(ls []srcLine, i int) (string, string) {
	line := ls[i].text
	if m := plainValue.FindStringSubmatch(line); m != nil && strings.Contains(m[2], ": ") {
		v := strings.TrimRight(m[2], " \t")
		q := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)
		return m[1] + `"` + q + `"`, "the value is read as if it were quoted"
	}
	// An under-indented continuation of the plain value on the line above.
	j := i - 1
	for j >= 0 && strings.TrimSpace(ls[j].text) == "" {
		j--
	}
	if j >= 0 && strings.TrimSpace(line) != "" && !strings.Contains(line, ": ") {
		prev := ls[j].text
		if m := plainValue.FindStringSubmatch(prev); m != nil {
			ind := len(prev) - len(strings.TrimLeft(prev, " "))
			if strings.HasPrefix(strings.TrimLeft(prev, " "), "- ") {
				ind += 2
			}
			cur := len(line) - len(strings.TrimLeft(line, " "))
			if cur <= ind {
				return strings.Repeat(" ", ind+2) + strings.TrimLeft(line, " "),
					fmt.Sprintf("the line is read as a continuation of the value on line %d", j+1)
			}
		}
	}
	return "", ""
}

// decode runs the YAML decoder, turning a panic inside it into an error.
func decode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: internal error: %v", r)
		}
	}()
	return dec.Decode(n)
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxErrorLine returns the line of a yaml.v3 error (0 when it has
// none) and its message.
func syntaxErrorLine(err error) (int, string) {
	msg := err.Error()
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		if n, e := strconv.Atoi(m[1]); e == nil {
			return n, m[2]
		}
	}
	return 0, strings.TrimPrefix(msg, "yaml: ")
}
