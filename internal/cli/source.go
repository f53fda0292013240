package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// maxRead is the most sitetxt reads from any one source. The parsers look
// at far less (grammar.DefaultMaxSize) and keep the rest unparsed, but an
// endless stream must end somewhere: past maxRead sitetxt stops reading and
// says so with an error diagnostic.
const maxRead = 64 << 20

// source is one input named on the command line.
type source struct {
	name string // as positions print it
	data string
	// cut is set when the source was longer than maxRead.
	cut bool
	// fetched is set for a source fetched over HTTP (resolveSource): what
	// the response meant, where it came from, whether it was cut at the
	// fetch size limit.
	fetched *fetch.Result
	// cached is set when fetched came from a cache written before this
	// run (fetchFlags.cached).
	cached bool
}

// manifestURL is the URL a fetched source was asked for, "" for a file:
// a fetched robots.txt governs its own origin only (input.URL.Governs).
func (s *source) manifestURL() string {
	if s.fetched == nil {
		return ""
	}
	return s.fetched.URL
}

// readSource reads a file, or standard input for "-".
func readSource(ios *IOStreams, name string) (*source, error) {
	r, display, err := openNamed(ios, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// Reserve the most it may take at once: pages are touched only as
	// they fill, and no doubling copy is made on the way.
	size := int64(maxRead + 1) // standard input
	if f, ok := r.(*os.File); ok {
		size = 0
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = min(st.Size(), size)
		}
	}
	var b strings.Builder
	b.Grow(int(size))
	// A strings.Builder hands its bytes to the parser without a copy.
	if _, err := io.Copy(&b, io.LimitReader(r, maxRead+1)); err != nil {
		return nil, cannotRead(display, unwrapPath(err))
	}
	s := &source{name: display, data: b.String()}
	if len(s.data) > maxRead {
		s.data, s.cut = s.data[:maxRead], true
	}
	return s, nil
}

// needBody returns an error for a fetched source that has no body to read:
// the response meant allow all, disallow all, come back later, or no such
// file, which a command that shows the file itself cannot show.
func (s *source) needBody() error {
	if s.fetched == nil || s.fetched.Status == fetch.Parse {
		return nil
	}
	if s.fetched.Err != nil && !s.fetched.Stale {
		return &exitError{code: ExitError, err: fmt.Errorf("%w; no file to read", s.fetched.Failure())}
	}
	return &exitError{code: ExitError, err: fmt.Errorf("%s: no file to read: %s", s.name, s.fetched.Reason)}
}

// openNamed opens a file named on the command line, or standard input
// for "-", and returns the name to show for it.
func openNamed(ios *IOStreams, name string) (io.ReadCloser, string, error) {
	if name == "-" {
		return io.NopCloser(ios.In), "<stdin>", nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, name, cannotRead(name, unwrapPath(err))
	}
	return f, name, nil
}

// cannotRead is the error for an input that could not be read: exit 2.
func cannotRead(name string, err error) error {
	return &exitError{code: ExitError, err: fmt.Errorf("cannot read %s: %w", name, err)}
}

// unwrapPath drops the repeated file name of an *os.PathError.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// parse parses the source with the grammar and adds what the source
// itself has to say (cutDiagnostics).
func (s *source) parse(opts grammar.Options) *grammar.File {
	f := grammar.ParseString(s.name, s.data, opts)
	if cut := s.cutDiagnostics(); len(cut) > 0 {
		f.Diagnostics = append(f.Diagnostics, cut...)
		f.Diagnostics.Sort()
	}
	return f
}

// cutDiagnostics says where sitetxt read less than the source held: past
// maxRead bytes (an error) or past the fetch size limit (a warning), at the
// end of what was read. It is nil, and costs nothing, for a whole source.
func (s *source) cutDiagnostics() grammar.Diagnostics {
	if !s.cut && (s.fetched == nil || !s.fetched.Truncated) {
		return nil
	}
	var ds grammar.Diagnostics
	p := grammar.PosAt(s.data, len(s.data))
	at := grammar.Range{Start: p, End: p}
	if s.cut {
		ds = append(ds, &grammar.Diagnostic{
			Severity: grammar.Error, Code: "too-large", Filename: s.name, Range: at,
			Summary: fmt.Sprintf("input is longer than %d bytes; sitetxt stopped reading it", maxRead),
		})
	}
	if s.fetched != nil && s.fetched.Truncated {
		ds = append(ds, &grammar.Diagnostic{
			Severity: grammar.Warning, Code: "too-large", Filename: s.name, Range: at,
			Summary: fmt.Sprintf("the server sent more than %d bytes; sitetxt read only those", len(s.data)),
		})
	}
	return ds
}

// maxLine is the longest line sitetxt reads of a list, one item a line
// (--urls, datasets --list, audit's "-"): a longer line is an error
// naming the limit and the line's number (lineError).
const maxLine = 16 << 20

// lineError is a line of a list longer than the limit.
type lineError struct{ n, limit int }

func (e *lineError) Error() string {
	return fmt.Sprintf("line %d is longer than %s, the most sitetxt reads of one line", e.n, byteSize(e.limit))
}

// byteSize writes a limit for people: "16 MiB", "64 KiB", "100 bytes".
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// eachLine calls fn with the number and the text of each line of r,
// without its line end ("\n", "\r\n", or a final "\r"); for a line longer
// than maxLine, which is not kept, with "" and a *lineError. An error of
// fn stops the reading and is returned; one reading r (called name) is
// returned as cannotRead's.
func eachLine(r io.Reader, name string, fn func(n int, line string, long error) error) error {
	return eachLineUpTo(r, name, maxLine, fn)
}

// maxSkip is how many bytes of a line over limit are passed over in
// search of its end before the reading stops (an endless line on a pipe
// has none): four times the limit, or of the reader's 64 KiB buffer.
func maxSkip(limit int) int { return 4 * max(limit, 64<<10) }

// eachLineUpTo is eachLine with lines of at most limit bytes.
func eachLineUpTo(r io.Reader, name string, limit int, fn func(n int, line string, long error) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than the buffer, gathered
	for n := 1; ; n++ {
		chunk, err := br.ReadSlice('\n')
		over, skipped := false, 0
		for err == bufio.ErrBufferFull {
			if !over && len(long)+len(chunk) <= limit+2 { // room for "\r\n"
				long = append(long, chunk...)
			} else {
				over, long = true, long[:0]
				if skipped += len(chunk); skipped > maxSkip(limit) {
					return cannotRead(name, &lineError{n, limit})
				}
			}
			chunk, err = br.ReadSlice('\n')
		}
		if len(long) > 0 || over {
			if !over && len(long)+len(chunk) <= limit+2 {
				long = append(long, chunk...)
			} else {
				over = true
			}
			chunk, long = long, long[:0]
		}
		if err != nil && err != io.EOF {
			return cannotRead(name, err)
		}
		if err == io.EOF && len(chunk) == 0 && !over {
			return nil
		}
		line := strings.TrimSuffix(strings.TrimSuffix(string(chunk), "\n"), "\r")
		var ferr error
		if over || len(line) > limit {
			ferr = fn(n, "", &lineError{n, limit})
		} else {
			ferr = fn(n, line, nil)
		}
		if ferr != nil || err == io.EOF {
			return ferr
		}
	}
}
