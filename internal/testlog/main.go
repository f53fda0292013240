// Command testlog reads the go test -json logs of CI's steps (.ci/run).
//
//	go run ./internal/testlog show LOG          print LOG as go test prints without -v
//	go run ./internal/testlog skipped LOG...    fail when a test is skipped in every LOG
//
// show prints each package's result line and the whole output of every
// failed test, which keeps a CI log readable although the step kept the
// verbose JSON. skipped lists the tests (subtests included) that some log
// skipped and no log ran: a test that needs a component CI did not
// install, or a slow test no tier selects, is then an error, not a line
// nobody reads. It exits 1 when it lists one, 2 on a usage or read error.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) < 3 || (os.Args[1] != "show" && os.Args[1] != "skipped") {
		fmt.Fprintln(os.Stderr, "usage: testlog show LOG | testlog skipped LOG...")
		os.Exit(2)
	}
	var logs [][]event
	for _, name := range os.Args[2:] {
		evs, err := readFile(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testlog: %v\n", err)
			os.Exit(2)
		}
		logs = append(logs, evs)
	}
	if os.Args[1] == "show" {
		show(os.Stdout, logs[0])
		return
	}
	never := skipped(logs)
	for _, s := range never {
		fmt.Printf("skipped in every step: %s %s: %s\n", s.pkg, s.test, s.why)
	}
	if len(never) > 0 {
		fmt.Printf("testlog: %d tests skipped in every CI step: make each run in one (a slow test starts with slowtest.Only)\n", len(never))
		os.Exit(1)
	}
}

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

func readFile(name string) ([]event, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	evs, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return evs, nil
}

// read decodes a go test -json stream; lines that are not JSON (a build
// error printed before any test ran) become package output.
func read(r io.Reader) ([]event, error) {
	var evs []event
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			evs = append(evs, event{Action: "output", Output: sc.Text() + "\n"})
			continue
		}
		evs = append(evs, e)
	}
	return evs, sc.Err()
}

// show writes what go test writes without -v: package lines and build
// output as they come, and a failed test's output when it fails.
func show(w io.Writer, evs []event) {
	held := map[[2]string][]string{}
	for _, e := range evs {
		key := [2]string{e.Package, e.Test}
		switch {
		case e.Action == "build-output" || (e.Action == "output" && e.Test == ""):
			fmt.Fprint(w, e.Output)
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Action == "fail" && e.Test != "":
			fmt.Fprint(w, strings.Join(held[key], ""))
			delete(held, key)
		case e.Action == "pass" || e.Action == "skip":
			delete(held, key)
		}
	}
}

// skip is a test no log ran, with the reason a log gave.
type skip struct{ pkg, test, why string }

// skipped returns the tests that at least one log skipped and no log ran
// (passed or failed), sorted by package and name.
func skipped(logs [][]event) []skip {
	ran := map[[2]string]bool{}
	why := map[[2]string]string{}
	for _, evs := range logs {
		last := map[[2]string]string{}
		for _, e := range evs {
			if e.Test == "" {
				continue
			}
			key := [2]string{e.Package, e.Test}
			switch e.Action {
			case "output":
				if s := strings.TrimSpace(e.Output); s != "" && !strings.HasPrefix(s, "=== ") && !strings.HasPrefix(s, "--- ") {
					last[key] = s
				}
			case "pass", "fail":
				ran[key] = true
			case "skip":
				if w, seen := why[key]; !seen || w == "" {
					why[key] = last[key]
				}
			}
		}
	}
	var out []skip
	for key, w := range why {
		if !ran[key] {
			out = append(out, skip{key[0], key[1], w})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].pkg != out[j].pkg {
			return out[i].pkg < out[j].pkg
		}
		return out[i].test < out[j].test
	})
	return out
}
