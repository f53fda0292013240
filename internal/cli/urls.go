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
// "#" (after white space) are skipped. Every URL must be absolute or a
// path starting with "/" (checkURLArg): the command-line ones are checked
// before any is decided, so a bad one stops the command (exit 2) with
// nothing printed; a bad line of file stops it there, naming the line.
func forEachURL(ios *IOStreams, urls []string, file string, fn func(string) error) error {
	if err := checkURLArgs(urls); err != nil {
		return err
	}
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
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if t := strings.TrimLeft(line, " \t"); t == "" || t[0] == '#' {
			continue
		}
		if !isURLOrPath(line) {
			return usageError("%s:%d: %s", name, n, notURLMessage(line))
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

// needURLs checks that a command has URLs to work on, that those named on
// the command line are URLs or paths, and that SOURCE and --urls do not
// both claim standard input: before anything is printed.
func needURLs(cmd, source string, urls []string, file string) error {
	if len(urls) == 0 && file == "" {
		return usageError("%s: no URL given (name URLs after SOURCE or use --urls)", cmd)
	}
	if file == "-" && source == "-" {
		return usageError("%s: SOURCE and --urls cannot both be standard input", cmd)
	}
	if err := checkURLsFile(file); err != nil {
		return err
	}
	return checkURLArgs(urls)
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
		return &exitError{code: ExitError, err: fmt.Errorf("cannot read %s: %w", file, unwrapPath(err))}
	}
	return f.Close()
}

// checkURLArgs checks URLs named on the command line, all of them before
// any is used: a URL that is neither absolute nor a path ("org/plans.html")
// would otherwise be read as a host name by some commands and refused by
// others.
//
// The empty URL is accepted: it is the site's root, as Google's parser
// and its test suite read it.
func checkURLArgs(urls []string) error {
	for _, u := range urls {
		if u != "" && !isURLOrPath(u) {
			return usageError("%s", notURLMessage(u))
		}
	}
	return nil
}

// checkPathArgs checks the values of a flag that takes paths only (audit
// --path) as checkURLArgs checks URLs, with the same hint.
func checkPathArgs(flag string, paths []string) error {
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") {
			msg := fmt.Sprintf("%s %q is not a path starting with \"/\"", flag, visible(p))
			return usageError("%s%s", msg, meantHint(p))
		}
	}
	return nil
}

// notURLMessage says what is wrong with u, and what was probably meant.
func notURLMessage(u string) string {
	return fmt.Sprintf("%q is neither an absolute URL nor a path starting with \"/\"", visible(u)) + meantHint(u)
}

// meantHint guesses the path meant by a relative one ("org/plans.html"):
// " (did you mean /org/plans.html?)", or "" when there is no good guess.
func meantHint(u string) string {
	if u == "" || strings.ContainsAny(u, ": ") {
		return ""
	}
	return fmt.Sprintf(" (did you mean /%s?)", visible(u))
}

// isURLOrPath reports whether u is an absolute URL (scheme ":") or a path.
func isURLOrPath(u string) bool {
	if strings.HasPrefix(u, "/") {
		return true
	}
	i := 0
	for i < len(u) && (u[i] >= 'a' && u[i] <= 'z' || u[i] >= 'A' && u[i] <= 'Z' ||
		i > 0 && (u[i] >= '0' && u[i] <= '9' || u[i] == '+' || u[i] == '-' || u[i] == '.')) {
		i++
	}
	return i > 0 && i < len(u) && u[i] == ':'
}
