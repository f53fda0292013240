package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/fetch"
)

// maxRead is the most sitetxt reads from any one source; the parsers look
// at far less (grammar.DefaultMaxSize), and what they do not look at is
// still reported, but an endless stream must end somewhere.
const maxRead = 128 << 20

// source is one input named on the command line.
type source struct {
	name string // as positions print it
	data []byte
	// cut is set when the source was longer than maxRead.
	cut bool
	// fetched is set for a source fetched over HTTP (resolveSource): what
	// the response meant, where it came from, whether it was cut at the
	// fetch size limit.
	fetched *fetch.Result
}

// readSource reads a file, or standard input for "-".
func readSource(ios *IOStreams, name string) (*source, error) {
	var r io.Reader
	display := name
	if name == "-" {
		r = ios.In
		display = "<stdin>"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, &exitError{code: ExitError, err: fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))}
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxRead+1))
	if err != nil {
		return nil, &exitError{code: ExitError, err: fmt.Errorf("cannot read %s: %w", display, unwrapPath(err))}
	}
	s := &source{name: display, data: data}
	if len(data) > maxRead {
		s.data, s.cut = data[:maxRead], true
	}
	return s, nil
}

// unwrapPath drops the repeated file name of an *os.PathError.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// parse parses the source with the grammar.
func (s *source) parse(opts grammar.Options) *grammar.File {
	f := grammar.Parse(s.name, s.data, opts)
	if s.cut {
		p := grammar.Pos{Offset: len(s.data), Line: 0}
		if n := len(f.Lines); n > 0 {
			p = f.Lines[n-1].End()
		}
		f.Diagnostics = append(f.Diagnostics, &grammar.Diagnostic{
			Severity: grammar.Error, Code: "too-large", Filename: s.name,
			Summary: fmt.Sprintf("input is longer than %d bytes; sitetxt stopped reading it", maxRead),
			Range:   grammar.Range{Start: p, End: p},
		})
		f.Diagnostics.Sort()
	}
	if s.fetched != nil && s.fetched.Truncated {
		p := grammar.Pos{Offset: len(s.data), Line: 0}
		if n := len(f.Lines); n > 0 {
			p = f.Lines[n-1].End()
		}
		f.Diagnostics = append(f.Diagnostics, &grammar.Diagnostic{
			Severity: grammar.Warning, Code: "too-large", Filename: s.name,
			Summary: fmt.Sprintf("the server sent more than %d bytes; sitetxt read only those", len(s.data)),
			Range:   grammar.Range{Start: p, End: p},
		})
		f.Diagnostics.Sort()
	}
	return f
}
