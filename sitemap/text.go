package sitemap

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/grammar"
)

// readText reads a text sitemap: "one URL per line", UTF-8, nothing else
// ("Other Sitemap formats"). Lines end at LF, CRLF or a bare CR; blank
// lines are skipped; every other line is a URL or a diagnostic.
// Positions are kept here, not by the grammar's scanner, which parses a
// whole file held in memory: this reads a line at a time.
func (r *Reader) readText(src *bufio.Reader, raw *rawReader, at grammar.Pos, max int64, yield func(*Entry, error) bool) error {
	r.format = Text
	pos := at
	sawLine, skipping := false, false
	for {
		if int64(pos.Offset) >= max {
			if _, err := src.Peek(1); err == nil {
				return r.stopped(errTooLarge, raw, pos, "text")
			}
			break
		}
		buf, err := peekLine(src)
		if len(buf) == 0 {
			if err == io.EOF {
				break
			}
			return r.stopped(err, raw, pos, "text")
		}
		cut := false
		if rest := max - int64(pos.Offset); int64(len(buf)) > rest {
			buf, cut = buf[:rest], true
		}
		line, _, brk := cutLine(buf)
		if brk == 0 && cut {
			return r.stopped(errTooLarge, raw, pos, "text")
		}
		if brk == 0 && len(buf) == src.Size() {
			// A whole buffer without a line break.
			if !skipping {
				r.diag(grammar.Error, "line-too-long", pos, fmt.Sprintf("a line longer than %d bytes: not read as a URL", src.Size()))
				skipping = true
			}
			src.Discard(len(buf))
			pos.Offset += len(buf)
			pos.Column += len(buf)
			continue
		}
		// Every whole line in what is buffered, then the last one (with no
		// break: the end of the input) alone.
		consumed := 0
		for {
			if skipping {
				skipping = false
			} else if len(bytes.Trim(line, " \t")) > 0 {
				sawLine = true
				if !r.textLine(line, pos, yield) {
					return nil
				}
			}
			consumed += len(line) + brk
			pos.Offset += len(line) + brk
			if brk == 0 {
				pos.Column += len(line)
				break
			}
			pos.Line, pos.Column = pos.Line+1, 1
			if line, _, brk = cutLine(buf[consumed:]); brk == 0 || (buf[consumed+len(line)] == '\r' && consumed+len(line) == len(buf)-1) {
				break // not a whole line yet (a CR at the end may have its LF to come)
			}
		}
		src.Discard(consumed)
	}
	if !sawLine {
		r.diag(grammar.Warning, "empty", pos, "the text sitemap lists no URLs")
	}
	return nil
}

// peekLine returns the buffered bytes of src from its next line on, up to
// and including that line's break (or the whole buffer, or what is left
// before the end), without consuming them. It waits for no more bytes than
// the line takes, so a text sitemap arriving through a pipe or a slow
// connection yields each URL as its line arrives.
func peekLine(src *bufio.Reader) ([]byte, error) {
	n, from := max(src.Buffered(), 1), 0
	for {
		buf, err := src.Peek(n)
		if err != nil {
			return buf, err
		}
		if i := bytes.IndexAny(buf[from:], "\r\n"); i >= 0 {
			i += from
			if buf[i] == '\r' && i == len(buf)-1 && n < src.Size() {
				// A CR at the end: an LF may follow.
				if more, _ := src.Peek(n + 1); len(more) > n {
					return more, nil
				}
			}
			return buf, nil
		}
		if n == src.Size() {
			return buf, nil
		}
		from = n
		n = min(max(n+1, src.Buffered()), src.Size())
	}
}

// cutLine splits data at its first line break (LF, CRLF or a bare CR),
// returning the line, what follows, and how many bytes the break took.
func cutLine(data []byte) (line, rest []byte, brk int) {
	i := bytes.IndexAny(data, "\r\n")
	if i < 0 {
		return data, nil, 0
	}
	brk = 1
	if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
		brk = 2
	}
	return data[:i], data[i+brk:], brk
}

// textLine reads one line that is not blank; false stops reading.
func (r *Reader) textLine(line []byte, at grammar.Pos, yield func(*Entry, error) bool) bool {
	if !r.entryStart(at) {
		return false
	}
	if !utf8.Valid(line) {
		r.diag(grammar.Error, "utf8", at, "the line is not UTF-8 (text sitemaps must be UTF-8): dropped")
		return true
	}
	u, ok, out := r.loc(string(line), at, "URL", false, false)
	if !ok {
		return true
	}
	return r.emit(&Entry{URL: u, Pos: at, OutOfScope: out}, yield)
}
