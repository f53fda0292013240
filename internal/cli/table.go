package cli

import (
	"io"
	"strings"
	"unicode/utf8"
)

// table lays out rows in aligned columns for people, with optional note
// lines under a row that span the table. Cells are padded before they are
// painted, so colour codes do not upset the alignment.
type table struct {
	rows  [][]string
	paint [][]func(string) string
	notes map[int][]string // notes after row i
	width []int
}

func (t *table) add(cells []string, paint []func(string) string) {
	cells = append([]string(nil), cells...)
	for i, c := range cells {
		c = visible(c)
		cells[i] = c
		if i >= len(t.width) {
			t.width = append(t.width, 0)
		}
		if n := utf8.RuneCountInString(c); n > t.width[i] {
			t.width[i] = n
		}
	}
	t.rows = append(t.rows, cells)
	t.paint = append(t.paint, paint)
}

func (t *table) note(line string) {
	if t.notes == nil {
		t.notes = map[int][]string{}
	}
	i := len(t.rows) - 1
	t.notes[i] = append(t.notes[i], visible(line))
}

func (t *table) write(w io.Writer) error {
	var b strings.Builder
	for i, row := range t.rows {
		b.Reset()
		for j, c := range row {
			cell := c
			if j < len(row)-1 {
				cell += strings.Repeat(" ", t.width[j]-utf8.RuneCountInString(c)+2)
			}
			if p := t.paint[i]; j < len(p) && p[j] != nil {
				cell = p[j](c) + cell[len(c):]
			}
			b.WriteString(cell)
		}
		b.WriteByte('\n')
		for _, n := range t.notes[i] {
			b.WriteString(n)
			b.WriteByte('\n')
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}
