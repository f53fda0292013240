package robots

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// corpusAgents are the crawler names TestCorpusGoogleVerdicts asks about:
// common tokens, tokens with digits (which the file's values are cut
// before under google), a whole User-Agent header, "*" and "".
var corpusAgents = []string{
	"Googlebot", "googlebot-image", "bingbot", "MJ12bot", "AhrefsBot", "360Spider", "008",
	"Baiduspider", "YandexBot", "GPTBot", "Mozilla/5.0 (compatible; Googlebot/2.1)", "*", "",
}

// TestLoadCorpusGoogleVerdicts pins the google profile's verdicts on the
// shared corpus: for each robots.txt with a list of URLs crawled on the
// same site, every (agent, URL) verdict, hashed per file, against
// testdata/corpus-google.golden. A change of Google-profile behaviour that
// moves any real file's verdict fails here; -update rewrites the file.
//
// It runs in the slow tier (go test -tags slow).
func TestLoadCorpusGoogleVerdicts(t *testing.T) {
	t.Parallel()
	lists, _ := filepath.Glob(shareddata.Path("corpus/urls/*.txt"))
	if len(lists) == 0 {
		t.Skip("../shared/corpus/urls is absent: the corpus verdict check needs the shared data")
	}
	slowtest.Only(t, "every verdict of the corpus")
	var out strings.Builder
	decisions, disallowed := urlListVerdicts(t, lists, &out)
	t.Logf("%d decisions on URL lists, %d disallowed", decisions, disallowed)
	// Every file of the corpus, asked about the paths its own rule lines
	// name (with and without a trailing "x") and "/". Under -race only
	// the URL lists are checked (the race detector makes this part take a
	// minute).
	files, _ := filepath.Glob(shareddata.Path("corpus/robots/*.txt"))
	if raceEnabled && !*update {
		t.Log("under -race a fifth of the URL lists is checked; run without -race for all of them and every file's own rule paths")
		files = nil
	}
	t.Logf("%d decisions on the files' own rule paths", selfPathVerdicts(t, files, &out))
	golden := filepath.Join("testdata", "corpus-google.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	compareCorpusGolden(t, out.String(), string(want))
}

// urlListVerdicts writes to out, for each corpus robots.txt with a list
// of URLs crawled on its site (a fifth of them under -race), the hash of
// every (agent, URL) verdict under google, and counts the decisions.
func urlListVerdicts(t *testing.T, lists []string, out *strings.Builder) (decisions, disallowed int) {
	for li, list := range lists {
		if raceEnabled && !*update && li%5 != 0 {
			continue // a sample under -race
		}
		name := filepath.Base(list)
		src, err := os.ReadFile(filepath.Join(shareddata.Path("corpus/robots"), name))
		if err != nil {
			continue // a URL list without its robots.txt
		}
		urls, err := readLines(list)
		if err != nil {
			t.Fatal(err)
		}
		pol := Compile(grammar.Parse(name, src, grammar.Options{MaxSize: -1}), Google)
		h := sha256.New()
		for _, agent := range corpusAgents {
			a := pol.Agent(agent)
			for _, u := range urls {
				v := byte('A')
				if !a.Allowed(u) {
					v = 'D'
					disallowed++
				}
				decisions++
				h.Write([]byte{v})
			}
		}
		fmt.Fprintf(out, "%s %s\n", name, hex.EncodeToString(h.Sum(nil))[:16])
	}
	return decisions, disallowed
}

// selfPathVerdicts writes to out the hash of the verdicts of files (100
// files a line keeps the golden file small) on the paths their own rule
// lines name, and returns how many there were.
func selfPathVerdicts(t *testing.T, files []string, out *strings.Builder) int {
	selfDecisions := 0
	chunk := sha256.New()
	for i, fn := range files {
		src, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		f := grammar.Parse(filepath.Base(fn), src, grammar.Options{MaxSize: -1})
		pol := Compile(f, Google)
		paths := []string{"/"}
		for _, l := range f.Lines {
			if l.Kind.IsRule() && len(paths) < 400 {
				v := strings.ReplaceAll(l.Value, "*", "x")
				paths = append(paths, v, v+"x")
			}
		}
		for _, agent := range corpusAgents {
			a := pol.Agent(agent)
			for _, u := range paths {
				v := byte('A')
				if !a.Allowed(u) {
					v = 'D'
				}
				selfDecisions++
				chunk.Write([]byte{v})
			}
		}
		if i%100 == 99 || i == len(files)-1 {
			fmt.Fprintf(out, "self %s..%s %s\n", filepath.Base(files[i-i%100]), filepath.Base(fn), hex.EncodeToString(chunk.Sum(nil))[:16])
			chunk.Reset()
		}
	}
	return selfDecisions
}

// compareCorpusGolden fails for each line of got that differs from the
// golden file's want (the first 20), and when their lengths differ; under
// -race, only the sampled URL lists' lines of want are compared.
func compareCorpusGolden(t *testing.T, got, want string) {
	if raceEnabled {
		// Compare the sampled URL-list lines only.
		keep := map[string]bool{}
		for _, l := range strings.Split(got, "\n") {
			if name, _, ok := strings.Cut(l, " "); ok {
				keep[name] = true
			}
		}
		var w strings.Builder
		for _, l := range strings.SplitAfter(want, "\n") {
			if name, _, ok := strings.Cut(l, " "); ok && keep[name] {
				w.WriteString(l)
			}
		}
		want = w.String()
	}
	if got == want {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	n := 0
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Errorf("google verdicts changed: got %q, want %q", gl[i], wl[i])
			if n++; n == 20 {
				break
			}
		}
	}
	if len(gl) != len(wl) {
		t.Errorf("google verdicts: %d files, want %d", len(gl), len(wl))
	}
}

func readLines(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			out = append(out, s)
		}
	}
	return out, sc.Err()
}
