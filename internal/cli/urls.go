package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sitetxt/sitetxt/internal/input"
)

// batch is a stream of URLs to answer (the command line's, then those of
// --urls), read the one way package input reads them. A URL that cannot
// be answered is an error for that URL alone: in -o json an object
// {"url", "error"} in its place, otherwise a message on standard error
// naming where it came from ("<stdin>:2: ..."); every other URL is
// answered, and the command then exits 2 (docs/cli.md).
type batch struct {
	ios *IOStreams
	// jl is set for -o json: errors are written there, in order.
	jl       *jsonLines
	urls     []string
	file     string
	answered int
	failed   int
	noted    bool // the note on relative references was printed
}

// urlError is the JSON object of a URL that could not be answered.
type urlError struct {
	URL   string `json:"url"`
	Error string `json:"error"`
}

// badURL is an error for one URL of a batch: the batch reports it and
// goes on with the next URL.
type badURL struct{ err error }

func (e *badURL) Error() string { return e.err.Error() }

// notAnswered makes err an error for the URL being answered.
func notAnswered(format string, args ...any) error {
	return &badURL{err: fmt.Errorf(format, args...)}
}

// newBatch returns the batch of urls (named on the command line) and the
// lines of file ("-" for standard input; "" for none).
func newBatch(ios *IOStreams, urls []string, file string) *batch {
	return &batch{ios: ios, urls: urls, file: file}
}

// each calls fn for each URL, the command line's first, then each line of
// the file as it is read. Lines keep everything but their line end; blank
// lines and lines starting with "#" (after white space) are skipped. A URL
// package input cannot read, or for which fn returns a badURL, is
// reported (fail) and the next is read; any other error of fn stops the
// batch.
func (b *batch) each(fn func(input.URL) error) error {
	for i, u := range b.urls {
		if err := b.one("URL", i+1, u, fn); err != nil {
			return err
		}
	}
	if b.file == "" {
		return nil
	}
	r, name, err := openNamed(b.ios, b.file)
	if err != nil {
		return err
	}
	defer r.Close()
	where := name + ":"
	return eachLine(r, name, func(n int, line string, long error) error {
		if long != nil {
			return b.failAt(name, "", long) // the error names the line
		}
		if t := strings.TrimLeft(line, " \t"); t == "" || t[0] == '#' {
			return nil
		}
		return b.one(where, n, line, fn)
	})
}

// eachOn calls fn as each does, for the URLs the manifest fetched from
// manifestURL governs ("" for a file: all of them); any other URL is
// reported and skipped (input.URL.Governs).
func (b *batch) eachOn(manifestURL string, fn func(input.URL) error) error {
	return b.each(func(u input.URL) error {
		if err := u.Governs(manifestURL); err != nil {
			return &badURL{err}
		}
		return fn(u)
	})
}

// one reads and answers one URL typed at where and n ("URL 3" for the
// third on the command line, "<stdin>:2" for a line), the place said
// only when the URL fails.
func (b *batch) one(where string, n int, typed string, fn func(input.URL) error) error {
	u, err := input.ReadURL(typed)
	if err != nil {
		return b.fail(where, n, typed, err)
	}
	var bad *badURL
	switch err := fn(u); {
	case err == nil:
		b.answered++
		if u.Relative() && !b.noted {
			note(b.ios, "%s", u.RelativeNote())
			b.noted = true
		}
		return nil
	case errors.As(err, &bad):
		return b.fail(where, n, typed, bad.err)
	default:
		return err
	}
}

// fail reports a URL that could not be answered, typed at where and n.
func (b *batch) fail(where string, n int, typed string, err error) error {
	sep := " "
	if strings.HasSuffix(where, ":") {
		sep = ""
	}
	return b.failAt(fmt.Sprintf("%s%s%d", where, sep, n), typed, err)
}

// failAt reports a URL that could not be answered, typed at at ("URL 3",
// "<stdin>:2").
func (b *batch) failAt(at, typed string, err error) error {
	b.failed++
	if b.jl != nil {
		return b.jl.write(urlError{URL: typed, Error: err.Error()})
	}
	fmt.Fprintf(b.ios.ErrOut, "sitetxt: %s: %s\n", at, visible(err.Error()))
	return nil
}

// exit returns the exit error for URLs that could not be answered (exit
// 2, with a count of them on standard error), or nil.
func (b *batch) exit() error {
	if b.failed == 0 {
		return nil
	}
	return &exitError{code: ExitError, err: fmt.Errorf("%s of %d not answered", plural(b.failed, "URL"), b.failed+b.answered)}
}

// needURLs checks that a command has URLs to work on and that SOURCE and
// --urls do not both claim standard input, before anything is printed.
func needURLs(cmd, source string, urls []string, file string) error {
	if len(urls) == 0 && file == "" {
		return usageError("%s: no URL given (name URLs after SOURCE or use --urls)", cmd)
	}
	if file == "-" && source == "-" {
		return usageError("%s: SOURCE and --urls cannot both be standard input", cmd)
	}
	return checkURLsFile(file)
}

// checkURLsFile checks that a --urls file can be opened, before anything
// is printed: a CSV header or a table heading followed by "cannot read"
// would be an empty report before an error.
func checkURLsFile(file string) error {
	if file == "" || file == "-" {
		return nil
	}
	f, err := os.Open(file)
	if err != nil {
		return cannotRead(file, unwrapPath(err))
	}
	return f.Close()
}

// readPaths reads the values of a flag that takes paths (audit --path)
// the way a URL to decide is read: a relative one is the path from the
// site's root, with the same note; an absolute URL is refused.
func readPaths(ios *IOStreams, flag string, paths []string) ([]string, error) {
	out := make([]string, len(paths))
	noted := false
	for i, p := range paths {
		u, err := input.ReadURL(p)
		if err == nil && u.Decide != "" && u.Decide[0] != '/' {
			err = fmt.Errorf("%q is not a path", p)
		}
		if err != nil {
			return nil, usageError("%s %s", flag, visible(err.Error()))
		}
		if u.Relative() && !noted {
			note(ios, "%s %s", flag, u.RelativeNote())
			noted = true
		}
		out[i] = u.Decide
	}
	return out, nil
}
