package robots

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// validSignal is a Content-Signal member as Cloudflare defines it in
// 2026, and validUsage one of vocab-08's labels with y or n: written here
// apart from package aipref, so that the test checks lint against the
// texts rather than against itself.
var (
	validSignal = regexp.MustCompile(`(?i)^\s*((search|ai-input|ai-train)\s*=\s*(yes|no)|use\s*=\s*(immediate|reference|full))\s*$`)
	validUsage  = regexp.MustCompile(`^ *(train-ai|ai-use|search)=[yn]$`)
)

// TestCorpusUsageLint lints the shared corpus of real robots.txt files
// and fails on a usage warning about a line every member of which is
// valid: no false warning on ai-use, use= or Cloudflare's keys. It logs
// how many usage lines and warnings the corpus has.
func TestCorpusUsageLint(t *testing.T) {
	t.Parallel()
	dir := shareddata.Require(t, "corpus", "robots")
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(names) == 0 {
		t.Skipf("no files in %s", dir)
	}
	lines, warnings := 0, 0
	for _, name := range shareddata.Sample(t, names) {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f := grammar.Parse(filepath.Base(name), src, grammar.Options{})
		for _, l := range f.Lines {
			if l.FieldIs("content-signal") || l.FieldIs("content-usage") {
				lines++
			}
		}
		for _, d := range Lint(f) {
			if !strings.HasPrefix(d.Code, "usage-") {
				continue
			}
			warnings++
			l := f.Lines[d.Range.Start.Line-1]
			if allValid(l) {
				t.Errorf("%s: %s on a valid line %q", d.Range.Start, d.Code, l.Value)
			}
		}
	}
	t.Logf("%d usage lines, %d usage warnings", lines, warnings)
}

// allValid reports whether every member of a Content-Signal or a
// path-less Content-Usage line is valid.
func allValid(l *grammar.Line) bool {
	re := validUsage
	if l.FieldIs("content-signal") {
		re = validSignal
	} else if !l.FieldIs("content-usage") {
		return false
	}
	v := l.Value
	if p, rest, ok := strings.Cut(v, " "); ok && strings.HasPrefix(p, "/") {
		v = rest
	}
	for _, m := range strings.Split(v, ",") {
		if !re.MatchString(m) {
			return false
		}
	}
	return true
}

// TestAllValid: the independent check accepts what the texts define and
// refuses the rest, so TestCorpusUsageLint can fail.
func TestAllValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want bool
	}{
		{"Content-Signal: search=yes,ai-train=no,use=reference", true},
		{"Content-Signal: search=yes, ai-input=yes, ai-train=no, use=reference", true},
		{"Content-Usage: ai-use=n, search=y", true},
		{"Content-Usage: /a train-ai=n", true},
		{"Content-Signal: ai_train=no", false},
		{"Content-Usage: train-genai=n", false},
	}
	for _, tt := range tests {
		f := grammar.ParseString("r", "User-agent: *\n"+tt.line+"\n", grammar.Options{})
		if got := allValid(f.Lines[1]); got != tt.want {
			t.Errorf("allValid(%q) = %v, want %v", tt.line, got, tt.want)
		}
		if ds := Lint(f); tt.want && len(ds) > 0 {
			t.Errorf("Lint(%q) = %v, want nothing", tt.line, ds)
		}
	}
}
