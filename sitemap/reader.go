package sitemap

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/url"
	"sort"
	"strings"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// A Reader reads one sitemap file as a stream: Entries yields each entry
// as soon as it is parsed, holding one entry (and one bounded XML token)
// at a time, so a 50 MB file costs a few hundred kilobytes. The format is
// found from the bytes, not from a name or a Content-Type: gzip by its
// magic number (any file may be compressed), then XML when the first
// character that is not white space is "<", else a text sitemap. The root
// element of an XML file decides between a urlset, a sitemap index, an RSS
// feed and an Atom feed.
//
// Reading never fails on content: everything the protocol says about a
// file is a diagnostic (Diagnostics), and an entry is kept or dropped as
// the protocol says, with the reason. Only an error of the underlying
// reader (a network failure, a timeout) is an error.
//
// The entries of an XML file are allocated a few dozen at a time (8 KiB):
// an Entry kept after the loop keeps that block in memory, not only
// itself.
type Reader struct {
	opts   Options
	src    io.Reader
	format Format
	diags  grammar.Diagnostics
	counts map[string]int
	n      int
	fast   int // entries the fast path read (fast.go)
	used   bool
	scope  *scope
}

// maxPerCode is how many diagnostics of one code a Reader keeps; past it
// they are counted, and one more diagnostic at the end says how many were
// left out (a sitemap with a bad date on each of 50,000 entries gives a
// readable report in bounded memory).
const maxPerCode = 100

// NewReader returns a Reader of the sitemap in r, found where opts say.
func NewReader(r io.Reader, opts Options) *Reader {
	return &Reader{opts: opts, src: r, scope: newScope(&opts)}
}

// Format returns the file's format, once Entries has read its start.
func (r *Reader) Format() Format { return r.format }

// Count returns how many entries Entries has yielded.
func (r *Reader) Count() int { return r.n }

// Diagnostics returns what the Reader found, sorted by position: those
// so far while Entries runs, all of them after.
func (r *Reader) Diagnostics() grammar.Diagnostics {
	out := append(grammar.Diagnostics(nil), r.diags...)
	codes := make([]string, 0, len(r.counts))
	for code, n := range r.counts {
		if n > maxPerCode {
			codes = append(codes, code)
		}
	}
	sort.Strings(codes)
	for _, code := range codes {
		var last *grammar.Diagnostic
		for _, d := range r.diags {
			if d.Code == code {
				last = d
			}
		}
		out = append(out, &grammar.Diagnostic{Severity: last.Severity, Code: code, Filename: last.Filename, Range: last.Range,
			Summary: fmt.Sprintf("%d more %q diagnostics like this one are left out", r.counts[code]-maxPerCode, code)})
	}
	out.Sort()
	return out
}

func (r *Reader) diag(sev grammar.Severity, code string, at grammar.Pos, msg string) {
	if r.counts == nil {
		r.counts = map[string]int{}
	}
	r.counts[code]++
	if r.counts[code] > maxPerCode {
		return
	}
	r.diags = append(r.diags, &grammar.Diagnostic{Severity: sev, Code: code, Summary: msg,
		Filename: r.opts.name(), Range: grammar.Range{Start: at, End: at}})
}

// ioError marks an error of the underlying reader, as opposed to one about
// the content (bad gzip, a limit).
type ioError struct{ err error }

func (e ioError) Error() string { return e.err.Error() }
func (e ioError) Unwrap() error { return e.err }

// rawReader bounds and counts the bytes of the file as it arrives
// (compressed, if it is), and marks the underlying reader's errors.
type rawReader struct {
	r      io.Reader
	n, max int64
}

func (c *rawReader) Read(p []byte) (int, error) {
	if c.n >= c.max {
		return 0, errRawTooLarge
	}
	if int64(len(p)) > c.max-c.n {
		p = p[:c.max-c.n]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		err = ioError{err}
	}
	return n, err
}

// Entries returns the file's entries as they are parsed: each with a nil
// error, and, if the underlying reader fails, one last nil entry with its
// error. Stopping the loop stops reading. It may be ranged over once.
func (r *Reader) Entries() iter.Seq2[*Entry, error] {
	return func(yield func(*Entry, error) bool) {
		if r.used {
			yield(nil, errors.New("sitemap: Reader.Entries ranged over twice"))
			return
		}
		r.used = true
		if err := r.read(yield); err != nil {
			yield(nil, err)
		}
	}
}

// fileStart is the position of a file's first byte.
var fileStart = grammar.Pos{Offset: 0, Line: 1, Column: 1}

func (r *Reader) read(yield func(*Entry, error) bool) error {
	max := r.opts.maxSize()
	raw := &rawReader{r: r.src, max: max + 1} // one byte more tells a file of max bytes from a longer one
	src := bufio.NewReaderSize(raw, 64<<10)
	if head, _ := src.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(src)
		if err != nil {
			return r.stopped(err, raw, fileStart, "gzip")
		}
		defer zr.Close()
		src = bufio.NewReaderSize(zr, 64<<10)
	}
	at := fileStart
	if head, _ := src.Peek(3); string(head) == "\xEF\xBB\xBF" {
		src.Discard(3)
		r.diag(grammar.Warning, "bom", at, "the file starts with a byte-order mark: skipped (sitemaps are UTF-8, which needs none)")
		at = grammar.Pos{Offset: 3, Line: 1, Column: 4}
	}
	if isXML(src) {
		return r.readXML(src, raw, at, max, yield)
	}
	return r.readText(src, raw, at, max, yield)
}

// isXML reports whether the first byte of src that is not white space,
// within the first 64 KiB, is '<'. It waits for no more bytes than that
// takes.
func isXML(src *bufio.Reader) bool {
	for n := 1; n <= src.Size(); n++ {
		head, err := src.Peek(n)
		if len(head) < n {
			return false
		}
		switch c := head[n-1]; c {
		case ' ', '\t', '\r', '\n':
			if err != nil {
				return false
			}
			continue
		default:
			return c == '<'
		}
	}
	return false
}

// stopped reports why reading stopped at at, when it was not the end of
// the file, and returns the error to give the caller: only an error of
// the underlying reader.
func (r *Reader) stopped(err error, raw *rawReader, at grammar.Pos, code string) error {
	var ie ioError
	switch {
	case err == nil || err == io.EOF:
		return nil
	case errors.As(err, &ie):
		return ie.err
	case errors.Is(err, errRawTooLarge):
		r.diag(grammar.Error, "too-large", at, fmt.Sprintf("the file is larger than %d bytes as it arrived (the protocol's limit, MaxSize, bounds compressed files too): the rest is not read", raw.max-1))
	case errors.Is(err, errTooLarge):
		r.diag(grammar.Error, "too-large", at, fmt.Sprintf("the file is larger than %d bytes uncompressed (the protocol's 50 MB limit, MaxSize): the rest is not read", r.opts.maxSize()))
	case errors.Is(err, errTokenTooLong):
		r.diag(grammar.Error, "token-too-long", at, fmt.Sprintf("one XML token (text, tag, comment or declaration) is longer than %d bytes (MaxToken): the rest of the file is not read", maxToken))
	case code == "gzip" || errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, io.ErrUnexpectedEOF):
		r.diag(grammar.Error, "gzip", at, fmt.Sprintf("the gzip stream is broken (%v): the rest is not read", err))
	default:
		r.diag(grammar.Error, code, at, fmt.Sprintf("%v: the rest of the file is not read", err))
	}
	return nil
}

// entryStart checks the URL limit before an entry at at is read; false
// means the limit is reached and reading stops, reported.
func (r *Reader) entryStart(at grammar.Pos) bool {
	if r.n < r.opts.maxURLs() {
		return true
	}
	r.diag(grammar.Error, "too-many-urls", at, fmt.Sprintf("more than %d entries (the protocol's limit of 50,000 per file, MaxURLs): this one and the rest of the file are not read", r.opts.maxURLs()))
	return false
}

// emit yields a finished entry.
func (r *Reader) emit(e *Entry, yield func(*Entry, error) bool) bool {
	r.n++
	return yield(e, nil)
}

// Origin returns the site of u as the location rules compare sites:
// "scheme://host[:port]" in the form package fetch fetches by
// (fetch.Origin: lower case, no default port, an internationalised host
// in Punycode, an IP address in one form), so that a loc names the site
// its sitemap came from however either is spelt ("http://bücher.example"
// and "http://xn--bcher-kva.example" are one site). A host fetch refuses
// is compared as written, in lower case.
func Origin(u *url.URL) string {
	if o, err := fetch.Origin(u); err == nil {
		return o
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	scheme := strings.ToLower(u.Scheme)
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if len(host) > 0 && strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}
