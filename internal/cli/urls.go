package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// forEachURL calls fn for each URL named on the command line, then for each
// line of file ("-" for standard input; "" for none), as it is read. Lines
// keep everything but their line end; blank lines and lines starting with
// "#" (after white space) are skipped. A URL named on the command line is
// passed on as it is, empty or not.
func forEachURL(ios *IOStreams, urls []string, file string, fn func(string) error) error {
	for _, u := range urls {
		if err := fn(u); err != nil {
			return err
		}
	}
	if file == "" {
		return nil
	}
	var r io.Reader
	name := file
	if file == "-" {
		r, name = ios.In, "<stdin>"
	} else {
		f, err := os.Open(file)
		if err != nil {
			return &exitError{code: ExitError, err: fmt.Errorf("cannot read %s: %w", file, unwrapPath(err))}
		}
		defer f.Close()
		r = f
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if t := strings.TrimLeft(line, " \t"); t == "" || t[0] == '#' {
			continue
		}
		if err := fn(line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("cannot read %s: %w", name, err)}
	}
	return nil
}

// needURLs checks that a command has URLs to work on, and that SOURCE and
// --urls do not both claim standard input.
func needURLs(cmd, source string, urls []string, file string) error {
	if len(urls) == 0 && file == "" {
		return usageError("%s: no URL given (name URLs after SOURCE or use --urls)", cmd)
	}
	if file == "-" && source == "-" {
		return usageError("%s: SOURCE and --urls cannot both be standard input", cmd)
	}
	return nil
}
