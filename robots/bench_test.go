package robots

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/temoto/robotstxt"
)

// corpusDir is the shared corpus, relative to this package.
var corpusDir = filepath.Join("..", "..", "shared", "corpus")

type corpusFile struct {
	name string
	data []byte
}

var corpusCache struct {
	files []corpusFile
	size  int64
}

// loadCorpus reads every robots.txt of the corpus once, skipping the
// benchmark when the corpus is absent.
func loadCorpus(b *testing.B) ([]corpusFile, int64) {
	b.Helper()
	if corpusCache.files != nil {
		return corpusCache.files, corpusCache.size
	}
	dir := filepath.Join(corpusDir, "robots")
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Skipf("corpus not found (%v); skipping", err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		corpusCache.files = append(corpusCache.files, corpusFile{e.Name(), data})
		corpusCache.size += int64(len(data))
	}
	return corpusCache.files, corpusCache.size
}

// parseOptions parse whole files, as temoto does, so both parse the same
// bytes.
var parseOptions = grammar.Options{MaxSize: -1}

// BenchmarkCorpusParse parses (and for sitetxt compiles) every robots.txt
// of the corpus once per op.
func BenchmarkCorpusParse(b *testing.B) {
	files, size := loadCorpus(b)
	b.Run("sitetxt", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				_ = Compile(grammar.Parse(f.name, f.data, parseOptions), RFC9309)
			}
		}
	})
	b.Run("temoto", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				_, _ = robotstxt.FromBytes(f.data)
			}
		}
	})
}

// matchCase is one URL of the corpus with its robots.txt, compiled both
// ways, the agent's rules selected once per file.
type matchCase struct {
	url    string
	path   string // for temoto, which takes a path: computed outside the timing
	agent  *Agent
	temoto *robotstxt.Group
}

func loadMatchCases(b testing.TB, p Profile) []matchCase {
	b.Helper()
	dir := filepath.Join(corpusDir, "urls")
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Skipf("corpus not found (%v); skipping", err)
	}
	var cases []matchCase
	for _, e := range ents {
		body, err := os.ReadFile(filepath.Join(corpusDir, "robots", e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		agent := Compile(grammar.Parse(e.Name(), body, parseOptions), p).Agent("Googlebot")
		var tg *robotstxt.Group
		if td, err := robotstxt.FromBytes(body); err == nil {
			tg = td.FindGroup("Googlebot")
		}
		list, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(list))
		sc.Buffer(make([]byte, 1<<16), 1<<24)
		for sc.Scan() {
			u := strings.TrimSpace(sc.Text())
			if u == "" {
				continue
			}
			path := "/"
			if pu, err := url.Parse(u); err == nil {
				path = pu.EscapedPath()
				if path == "" {
					path = "/"
				}
				if pu.RawQuery != "" {
					path += "?" + pu.RawQuery
				}
			}
			cases = append(cases, matchCase{url: u, path: path, agent: agent, temoto: tg})
		}
	}
	return cases
}

// BenchmarkCorpusMatch makes one decision per op, cycling through the
// corpus' URLs, agent Googlebot. sitetxt is given the whole URL and finds
// the path itself; temoto is given the path, computed beforehand.
func BenchmarkCorpusMatch(b *testing.B) {
	cases := loadMatchCases(b, RFC9309)
	b.Run("sitetxt", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for i := 0; i < b.N; i++ {
			c := &cases[i%len(cases)]
			if c.agent.Decide(c.url).Allowed {
				n++
			}
		}
		sink = n
	})
	b.Run("temoto", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for i := 0; i < b.N; i++ {
			c := &cases[i%len(cases)]
			if c.temoto == nil || c.temoto.Test(c.path) {
				n++
			}
		}
		sink = n
	})
}

var sink int

// BenchmarkCorpusMatchProfiles is BenchmarkCorpusMatch/sitetxt under each
// profile.
func BenchmarkCorpusMatchProfiles(b *testing.B) {
	for _, p := range Profiles {
		cases := loadMatchCases(b, p)
		b.Run(p.String(), func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for i := 0; i < b.N; i++ {
				c := &cases[i%len(cases)]
				if c.agent.Decide(c.url).Allowed {
					n++
				}
			}
			sink = n
		})
	}
}

// BenchmarkAdversarial matches 30 rules "/*a*a*...*a$" (15 KB each)
// against paths of 2, 4 and 8 KB that none of them matches: the cost per
// path byte stays flat as the path grows (MB/s is path bytes per second;
// each op runs all 30 rules). It also reports the memory a
// compiled policy takes for the corpus' largest files.
func BenchmarkAdversarial(b *testing.B) {
	pat := "/" + strings.Repeat("*a", 7500) + "$"
	var src strings.Builder
	src.WriteString("User-agent: *\n")
	for i := 0; i < 30; i++ {
		src.WriteString("Disallow: " + pat + "\n")
	}
	pol := Compile(grammar.ParseString("robots.txt", src.String(), grammar.Options{}), RFC9309)
	for _, kb := range []int{2, 4, 8} {
		// "xaxa...xa": fewer 'a's than the patterns have, and ending in
		// 'a', so every rule passes the suffix check and fails only after
		// placing an 'a' segment at every 'a' of the path: the worst case.
		scan := "/" + strings.Repeat("xa", kb<<9-1) + "a"
		// "aaa...ab": rejected by the suffix check at once.
		fast := "/" + strings.Repeat("a", kb<<10-2) + "b"
		for _, c := range []struct{ name, path string }{{"scan", scan}, {"suffix", fast}} {
			b.Run(fmt.Sprintf("%s/path=%dKB", c.name, kb), func(b *testing.B) {
				a := pol.Agent("bot")
				if !a.Allowed(c.path) {
					b.Fatal("adversarial path is disallowed")
				}
				b.SetBytes(int64(len(c.path)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					_ = a.Decide(c.path)
				}
			})
		}
	}
	b.Run("policy-memory", func(b *testing.B) {
		files, _ := loadCorpus(b)
		largest := append([]corpusFile(nil), files...)
		sort.Slice(largest, func(i, j int) bool { return len(largest[i].data) > len(largest[j].data) })
		largest = largest[:10]
		var size int
		for _, f := range largest {
			size += len(f.data)
		}
		var heap uint64
		for i := 0; i < b.N; i++ {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			keep := make([]*Policy, len(largest))
			for j, f := range largest {
				keep[j] = Compile(grammar.Parse(f.name, f.data, parseOptions), RFC9309)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			heap = after.HeapAlloc - before.HeapAlloc
			runtime.KeepAlive(keep)
		}
		b.ReportMetric(float64(heap)/float64(len(largest)), "heap-B/policy")
		b.ReportMetric(float64(heap)/float64(size), "heap-B/file-byte")
	})
}

// BenchmarkCorpusCompile splits BenchmarkCorpusParse/sitetxt in two: the
// grammar's parse alone, and compiling files parsed beforehand.
func BenchmarkCorpusCompile(b *testing.B) {
	files, size := loadCorpus(b)
	b.Run("grammar", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				_ = grammar.Parse(f.name, f.data, parseOptions)
			}
		}
	})
	parsed := make([]*grammar.File, len(files))
	for i, f := range files {
		parsed[i] = grammar.Parse(f.name, f.data, parseOptions)
	}
	for _, p := range Profiles {
		b.Run("compile-"+p.String(), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, f := range parsed {
					_ = Compile(f, p)
				}
			}
		})
	}
}
