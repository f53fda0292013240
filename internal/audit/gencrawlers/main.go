// Command gencrawlers rebuilds the crawler registry's generated part,
// internal/audit/airobots.yaml, from a copy of the community list
// github.com/ai-robots-txt/ai.robots.txt's robots.json, recording the
// commit and date it was read at (which sitetxt audit prints). It then
// reads the whole registry (crawlers.yaml over the new part) as sitetxt
// does and fails, naming them, on the names that have no category (the
// list's function is free text: crawlers.yaml must give one) and on the
// names of the previous part the new one drops.
//
// go generate runs it in internal/audit:
//
//	AIROBOTS_JSON=/path/to/robots.json AIROBOTS_COMMIT=<commit> AIROBOTS_DATE=YYYY-MM-DD go generate ./internal/audit
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/sitetxt/sitetxt/internal/audit"
)

func main() {
	in := flag.String("in", "", "the list's robots.json (a file)")
	commit := flag.String("commit", "", "the commit robots.json was read at")
	date := flag.String("date", "", "that commit's date, YYYY-MM-DD")
	out := flag.String("out", "airobots.yaml", "the generated part to write")
	hand := flag.String("hand", "crawlers.yaml", "the hand-written part it is checked with")
	flag.Parse()
	if *in == "" {
		// go generate ./... without a copy of the list: nothing to rebuild.
		fmt.Fprintln(os.Stderr, "gencrawlers: no robots.json given (set AIROBOTS_JSON, and AIROBOTS_COMMIT or AIROBOTS_DATE, for go generate, or pass -in): "+*out+" left as it is")
		return
	}
	if err := run(*in, *commit, *date, *out, *hand); err != nil {
		fmt.Fprintln(os.Stderr, "gencrawlers:", err)
		os.Exit(1)
	}
}

func run(in, commit, date, out, hand string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	lf, err := audit.ReadRobotsJSON(f, commit, date)
	if err != nil {
		return err
	}
	b, err := lf.Encode()
	if err != nil {
		return err
	}
	handYAML, err := os.ReadFile(hand)
	if err != nil {
		return err
	}
	var dropped []string
	if old, err := os.ReadFile(out); err == nil {
		dropped = audit.DroppedNames(old, b)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gencrawlers: wrote %s: %s\n", out, lf.ListRef)
	if len(dropped) > 0 {
		fmt.Fprintf(os.Stderr, "gencrawlers: the list no longer names %s: remove them from internal/audit/testdata/registry-names.txt if that is right\n", strings.Join(dropped, ", "))
	}
	if _, err := audit.ParseRegistry(handYAML, b); err != nil {
		return fmt.Errorf("the registry does not read with the new part (give each name without a category one in %s): %v", hand, err)
	}
	return nil
}
