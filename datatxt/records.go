package datatxt

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// records reads src as the record form, through the shared grammar.
//
// A Path line starts an entry; the field lines after it are its metadata,
// until the next Path line, a User-agent, Allow or Disallow line, or a
// blank line (comment lines do not end it). Field lines that are not under
// a Path line and not in a User-agent record (where they are robots.txt
// extensions such as Crawl-delay) make an entry without a path: an error.
func (p *parser) records(src []byte) {
	f := grammar.Parse(p.name, src, grammar.Options{MaxSize: p.opts.MaxSize})
	p.c.File = f
	p.c.Diagnostics = append(p.c.Diagnostics, f.Diagnostics...)
	var (
		cur      *Entry
		orphan   []*grammar.Line // field lines with no Path line above them
		inRecord bool            // after a User-agent line, before a blank line
	)
	end := func() {
		if cur != nil && len(cur.Paths) > 0 {
			p.c.Entries = append(p.c.Entries, cur)
		}
		cur = nil
		if len(orphan) > 0 {
			l := orphan[0]
			fields := make([]string, len(orphan))
			for i, o := range orphan {
				fields[i] = o.Field
			}
			what := "line is"
			if len(fields) > 1 {
				what = "lines are"
			}
			d := p.diag(grammar.Error, "missing-path", l.Pos, l.End(),
				fmt.Sprintf("dataset entry has no path: %s %s not under a \"Path\" line; it is left out", quoteList(fields), what))
			d.Detail = "in the record form a Path line starts each dataset entry"
			orphan = nil
		}
	}
	// The lines of the grammar's tree, node after node; a rule line in the
	// preamble (before any User-agent line) is in no record.
	for _, n := range f.Nodes {
		preamble := n.IsPreamble()
		for _, l := range n.Lines() {
			switch {
			case l.Kind == grammar.Blank:
				end()
				inRecord = false
			case l.Kind == grammar.CommentLine, l.Kind == grammar.Invalid:
				// Comments do not end an entry; the grammar reports invalid lines.
			case l.Kind == grammar.AgentLine:
				end()
				inRecord = true
			case l.Kind.IsRule():
				end()
				if preamble {
					p.diag(grammar.Warning, "rule-outside-record", l.Pos, l.End(),
						fmt.Sprintf("%q line is not in a User-agent record; it applies to no agent", l.Field))
				}
			case l.FieldIs("path"):
				end()
				vp := l.ValuePos()
				cur = &Entry{Pos: l.Pos, namePos: l.Pos, Metadata: map[string]any{}}
				if l.Value == "" {
					d := p.diag(grammar.Error, "missing-path", l.Pos, l.End(), `"Path" line has no value; the dataset entry is left out`)
					d.Detail = "the field lines under it belong to this entry and are left out with it"
				} else {
					cur.Paths, cur.pathPos = []string{l.Value}, []grammar.Pos{vp}
				}
			case cur != nil:
				key := strings.ToLower(l.Field)
				if key == "name" {
					if cur.Name != "" {
						p.diag(grammar.Warning, "duplicate-key", l.FieldPos(), l.FieldPos(),
							fmt.Sprintf("key %q is also given at line %d; the later value is used", l.Field, cur.namePos.Line))
					}
					cur.Name, cur.namePos = l.Value, l.ValuePos()
					continue
				}
				switch old := cur.Metadata[key].(type) {
				case nil:
					cur.Metadata[key] = l.Value
				case []any:
					cur.Metadata[key] = append(old, l.Value)
				default:
					cur.Metadata[key] = []any{old, l.Value}
				}
			case inRecord:
				// A robots.txt extension line in an access record.
			default:
				orphan = append(orphan, l)
			}
		}
	}
	end()
	if len(p.c.Entries) == 0 && !p.c.Diagnostics.HasErrors() {
		at := grammar.Pos{Offset: len(f.BOM), Line: 1, Column: 1}
		p.diag(grammar.Warning, "no-entries", at, at, "file lists no datasets")
	}
}

func quoteList(fields []string) string {
	if len(fields) > 3 {
		fields = append(fields[:3:3], "...")
	}
	return `"` + strings.Join(fields, `", "`) + `"`
}
