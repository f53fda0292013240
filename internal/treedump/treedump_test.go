package treedump

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"
	"github.com/sitetxt/sitetxt/internal/slowtest"
	"github.com/sitetxt/sitetxt/robots"
)

var (
	update = flag.Bool("update", false, "rewrite testdata/dump.sha256")
	out    = flag.String("treedump.out", "", "write the dump to this file")
)

// agents are the crawlers each paired URL is decided for: common tokens,
// a whole User-Agent header, "*" and "".
var agents = []string{"Googlebot", "bingbot", "GPTBot", "Mozilla/5.0 (compatible; Googlebot/2.1)", "*", ""}

// reasons shortens a decision's reason.
var reasons = map[string]string{robots.ReasonRule: "r", robots.ReasonNoRule: "n", robots.ReasonNoGroup: "g", robots.ReasonRobotsTxt: "t"}

// TestTreeDump dumps the tree, groups, rules and decisions of every
// corpus file under every profile and compares the dump's hash with
// testdata/dump.sha256 (-update rewrites it).
func TestTreeDump(t *testing.T) {
	names, _ := filepath.Glob(shareddata.Path("corpus/robots/*.txt"))
	if len(names) == 0 {
		t.Skip("../shared/corpus/robots is absent: the tree dump needs the shared corpus")
	}
	if *out == "" && !*update {
		slowtest.Only(t, "every corpus file under every profile")
	}
	h := sha256.New()
	w := bufio.NewWriterSize(h, 1<<16)
	var dst io.Writer = w
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fw := bufio.NewWriter(f)
		defer fw.Flush()
		dst = io.MultiWriter(w, fw)
	}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		urls := pairedURLs(t, filepath.Base(name))
		dump(dst, filepath.Base(name), src, urls)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got := hex.EncodeToString(h.Sum(nil))
	t.Logf("%d files, dump sha256 %s", len(names), got)
	golden := filepath.Join("testdata", "dump.sha256")
	if *update {
		if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != strings.TrimSpace(string(want)) {
		t.Errorf("dump sha256 = %s, want %s (write both versions' dumps with -treedump.out and diff them)", got, strings.TrimSpace(string(want)))
	}
}

// pairedURLs returns the URLs crawled on the site of a corpus file, or nil.
func pairedURLs(t *testing.T, name string) []string {
	data, err := os.ReadFile(shareddata.Path("corpus/urls", name))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, u := range strings.Split(string(data), "\n") {
		if u = strings.TrimSpace(u); u != "" {
			urls = append(urls, u)
		}
	}
	return urls
}

// dump writes what the grammar and each profile make of one file.
func dump(w io.Writer, name string, src []byte, urls []string) {
	f := grammar.Parse(name, src, grammar.Options{MaxSize: -1})
	fmt.Fprintf(w, "== %s lines=%d preamble=%d bom=%q ignored=%d\n", name, len(f.Lines), len(f.Preamble), f.BOM, len(f.Ignored))
	for _, r := range f.Records {
		fmt.Fprintf(w, "record %d:%d lines=%s agents=%s\n", r.Pos.Line, r.Pos.Column, lineNos(r.Lines), lineNos(r.Agents))
	}
	for _, d := range f.Diagnostics {
		fmt.Fprintf(w, "diag %s %s %v-%v %s\n", d.Severity, d.Code, d.Range.Start, d.Range.End, d.Summary)
	}
	for _, p := range robots.Profiles {
		pol := robots.Compile(f, p)
		fmt.Fprintf(w, "profile %s groups=%d\n", p, len(pol.Groups()))
		for _, g := range pol.Groups() {
			fmt.Fprintf(w, "group %v global=%v agents=%q lines=%s\n", g.Pos(), g.Global, g.Agents, lineNos(g.AgentLines))
			for _, r := range g.Rules {
				fmt.Fprintf(w, "  rule %d allow=%v implied=%v %q\n", r.Line.Pos.Line, r.Allow, r.Implied, r.Pattern)
			}
			if g.CrawlDelay != nil {
				fmt.Fprintf(w, "  crawl-delay %v line %d\n", g.CrawlDelay.Delay, g.CrawlDelay.Line.Pos.Line)
			}
		}
		for _, agent := range agents {
			a := pol.Agent(agent)
			fmt.Fprintf(w, "agent %q global=%v groups=%d rules=%d:", agent, a.Global(), len(a.Groups()), len(a.Rules()))
			for _, u := range append([]string{"/", "/robots.txt"}, urls...) {
				d := a.Decide(u)
				c := byte('D')
				if d.Allowed {
					c = 'A'
				}
				line, group := 0, 0
				if d.Rule != nil {
					line = d.Rule.Line.Pos.Line
				}
				if d.Group != nil {
					group = d.Group.Pos().Line
				}
				fmt.Fprintf(w, " %c%d/%d/%s", c, line, group, reasons[d.Reason])
			}
			fmt.Fprintln(w)
		}
	}
}

// lineNos returns the line numbers of lines, joined by commas.
func lineNos(lines []*grammar.Line) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, l.Pos.Line)
	}
	return b.String()
}
