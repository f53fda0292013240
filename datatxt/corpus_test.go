package datatxt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// corpusDir holds the 60 real data.txt files (../shared/corpus/datatxt,
// seen from the repository root). Tests skip when it is absent.
var corpusDir = shareddata.Path("corpus/datatxt")

func corpusFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Skipf("corpus not found at %s", corpusDir)
	}
	sort.Strings(files)
	return files
}

// corpusBase is the base URL corpus files are read with (the cellar site;
// the pins fixtures have no site of their own).
const corpusBase = "https://cellar.kasa.ai/data.txt"

// TestCorpus parses every real data.txt and compares its entries (name,
// paths, line) and diagnostics with a compact golden file of our own
// output; the inputs are not copied into the repository.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	if len(files) != 60 {
		t.Errorf("corpus has %d files, want 60", len(files))
	}
	type entry struct {
		Name  string   `json:"name,omitempty"`
		Paths []string `json:"paths"`
		Line  int      `json:"line"`
		Keys  []string `json:"keys,omitempty"`
	}
	total, byCode := 0, map[string]int{}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c := Parse(name, src, Options{Base: corpusBase})
			if len(c.Entries) == 0 {
				t.Errorf("no entries: %q", diagStrings(c.Diagnostics))
			}
			checkPositions(t, c, src)
			g := struct {
				Form        Form     `json:"form"`
				Entries     []entry  `json:"entries"`
				Diagnostics []string `json:"diagnostics"`
			}{Form: c.Form, Entries: []entry{}, Diagnostics: diagStrings(c.Diagnostics)}
			for _, e := range c.Entries {
				g.Entries = append(g.Entries, entry{e.Name, e.Paths, e.Pos.Line, sortedKeys(e.Metadata)})
			}
			total += len(c.Entries)
			for _, d := range c.Diagnostics {
				byCode[d.Severity.String()+" "+d.Code]++
			}
			out, err := json.MarshalIndent(g, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("../testdata/datatxt/corpus-golden", strings.TrimSuffix(name, ".txt")+".json"), append(out, '\n'))
		})
	}
	t.Logf("%d files, %d entries, diagnostics by code: %v", len(files), total, byCode)
}

func BenchmarkCorpus(b *testing.B) {
	files := corpusFiles(b)
	var srcs [][]byte
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		n += len(src)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			Parse("bench", src, Options{Base: corpusBase})
		}
	}
}
