package mobileagent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// TestCorpus compiles every real robots.txt of the shared corpus. None of
// them has a Mobile-agent-server line (the corpus README says so), so the
// table must be empty and the near-miss check must stay silent: a warning
// on a real file would be a false alarm.
//
// By default a sample is compiled; the slow tier (go test -tags slow)
// compiles every file.
func TestLoadCorpus(t *testing.T) {
	files, _ := filepath.Glob(shareddata.Path("corpus/robots/*.txt"))
	if len(files) == 0 {
		t.Skip("../shared/corpus/robots is absent")
	}
	if testing.Short() {
		files = files[:len(files)/20]
	}
	files = shareddata.Sample(t, files)
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		tab := Compile(grammar.Parse(filepath.Base(name), src, grammar.Options{}))
		if n := len(tab.Rules()); n != 0 {
			t.Errorf("%s: %d Mobile-agent-server rules, want 0", name, n)
		}
		for _, d := range tab.Diagnostics() {
			t.Errorf("%s: unexpected diagnostic %v", name, d)
		}
		if r := tab.Lookup("/"); r.Rule != nil {
			t.Errorf("%s: Lookup(/) = %+v, want no line", name, r)
		}
	}
	t.Logf("%d files, no Mobile-agent-server line and no false alarm", len(files))
}
