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
	"syscall"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"
	"github.com/temoto/robotstxt"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// corpusDir is the shared corpus, relative to this package.
var corpusDir = shareddata.Path("corpus")

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
func loadCorpus(b testing.TB) ([]corpusFile, int64) {
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
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				_ = Compile(grammar.Parse(f.name, f.data, parseOptions), RFC9309)
			}
		}
		reportCPU(b, cpu0)
	})
	b.Run("temoto", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				_, _ = robotstxt.FromBytes(f.data)
			}
		}
		reportCPU(b, cpu0)
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
		agent.Decide("/") // what a first decision prepares is not timed
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
		decideLoop(b, func(i int) bool {
			c := &cases[i%len(cases)]
			return c.agent.Decide(c.url).Allowed
		})
	})
	b.Run("temoto", func(b *testing.B) {
		decideLoop(b, func(i int) bool {
			c := &cases[i%len(cases)]
			return c.temoto == nil || c.temoto.Test(c.path)
		})
	})
}

var sink int

// decideLoop makes b.N decisions, decide(0) to decide(b.N-1), and reports
// their allocations and CPU time (reportCPU).
func decideLoop(b *testing.B, decide func(i int) bool) {
	b.ReportAllocs()
	n := 0
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if decide(i) {
			n++
		}
	}
	reportCPU(b, cpu0)
	sink = n
}

// cpuTime returns the CPU time the process has used, all threads (the
// garbage collector's included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per op since start as "cpu-ns/op": on a
// machine shared with other jobs, wall time per op measures the load as
// much as the code.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkCorpusMatchProfiles is BenchmarkCorpusMatch/sitetxt under each
// profile.
func BenchmarkCorpusMatchProfiles(b *testing.B) {
	for _, p := range Profiles {
		cases := loadMatchCases(b, p)
		b.Run(p.String(), func(b *testing.B) {
			decideLoop(b, func(i int) bool {
				c := &cases[i%len(cases)]
				return c.agent.Decide(c.url).Allowed
			})
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
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					_ = a.Decide(c.path)
				}
				reportCPU(b, cpu0)
			})
		}
	}
}

// BenchmarkMemory reports the heap a compiled policy keeps (the parsed
// file included, and the rule index of every agent built), per policy and
// per byte of robots.txt: for the corpus' 10 largest files, and for files
// of nothing but wildcards ("Disallow: /" and 16,000 '*', and 8,000 "*a",
// 30 lines each, 481 KB).
func BenchmarkMemory(b *testing.B) {
	files, _ := loadCorpus(b)
	largest := append([]corpusFile(nil), files...)
	sort.Slice(largest, func(i, j int) bool { return len(largest[i].data) > len(largest[j].data) })
	largest = largest[:10]
	star := func(line string) []corpusFile {
		var sb strings.Builder
		sb.WriteString("User-agent: *\n")
		for i := 0; i < 30; i++ {
			sb.WriteString("Disallow: " + line + "\n")
		}
		return []corpusFile{{"stars.txt", []byte(sb.String())}}
	}
	for _, c := range []struct {
		name  string
		files []corpusFile
	}{
		{"largest10", largest},
		{"stars", star("/" + strings.Repeat("*", 16000))},
		{"star-a", star("/" + strings.Repeat("*a", 8000))},
	} {
		for _, p := range []Profile{RFC9309, Google} {
			b.Run(c.name+"/"+p.String(), func(b *testing.B) {
				var size int
				for _, f := range c.files {
					size += len(f.data)
				}
				var heap uint64
				for i := 0; i < b.N; i++ {
					runtime.GC()
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					keep := make([]*Policy, len(c.files))
					for j, f := range c.files {
						pol := Compile(grammar.Parse(f.name, f.data, parseOptions), p)
						for _, a := range pol.allAgents() {
							a.index()
						}
						keep[j] = pol
					}
					runtime.GC()
					runtime.ReadMemStats(&after)
					heap = after.HeapAlloc - before.HeapAlloc
					runtime.KeepAlive(keep)
				}
				b.ReportMetric(float64(heap)/float64(len(c.files)), "heap-B/policy")
				b.ReportMetric(float64(heap)/float64(size), "heap-B/file-byte")
			})
		}
	}
}

// BenchmarkCorpusCompile splits BenchmarkCorpusParse/sitetxt in two: the
// grammar's parse alone, and compiling files parsed beforehand.
func BenchmarkCorpusCompile(b *testing.B) {
	files, size := loadCorpus(b)
	b.Run("grammar", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				_ = grammar.Parse(f.name, f.data, parseOptions)
			}
		}
		reportCPU(b, cpu0)
	})
	parsed := make([]*grammar.File, len(files))
	for i, f := range files {
		parsed[i] = grammar.Parse(f.name, f.data, parseOptions)
	}
	for _, p := range Profiles {
		b.Run("compile-"+p.String(), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				for _, f := range parsed {
					_ = Compile(f, p)
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

// medianFile returns the corpus file of median size.
func medianFile(b *testing.B) corpusFile {
	files, _ := loadCorpus(b)
	sorted := append([]corpusFile(nil), files...)
	sort.SliceStable(sorted, func(i, j int) bool { return len(sorted[i].data) < len(sorted[j].data) })
	return sorted[len(sorted)/2]
}

// BenchmarkSmallFile parses and compiles the corpus' median file (by size)
// once per op: the fixed cost a crawler pays per site.
func BenchmarkSmallFile(b *testing.B) {
	f := medianFile(b)
	b.Run("sitetxt", func(b *testing.B) {
		b.SetBytes(int64(len(f.data)))
		b.ReportAllocs()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			_ = Compile(grammar.Parse(f.name, f.data, grammar.Options{}), RFC9309)
		}
		reportCPU(b, cpu0)
	})
	b.Run("temoto", func(b *testing.B) {
		b.SetBytes(int64(len(f.data)))
		b.ReportAllocs()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			_, _ = robotstxt.FromBytes(f.data)
		}
		reportCPU(b, cpu0)
	})
}

// manyRules returns a robots.txt with n rules for "*", a quarter of them
// with wildcards, and paths to decide against it, about half of them
// matched by some rule.
func manyRules(n int) (src string, paths []string) {
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for i := 0; i < n; i++ {
		dir := i % 97
		switch {
		case i%4 == 3:
			fmt.Fprintf(&sb, "Disallow: /s%d/*/x%d*.pdf$\n", dir, i)
		case i%8 == 1:
			fmt.Fprintf(&sb, "Allow: /s%d/p%d/\n", dir, i)
		default:
			fmt.Fprintf(&sb, "Disallow: /s%d/p%d\n", dir, i)
		}
	}
	for k := 0; k < 1024; k++ {
		i := (k * 7919) % (2 * n)
		dir := i % 97
		switch k % 4 {
		case 0:
			paths = append(paths, fmt.Sprintf("/s%d/p%d/page.html", dir, i))
		case 1:
			paths = append(paths, fmt.Sprintf("/s%d/a/b/x%d-1.pdf", dir, i))
		case 2:
			paths = append(paths, fmt.Sprintf("/s%d/q%d?x=1", dir, i))
		default:
			paths = append(paths, fmt.Sprintf("/other/%d", i))
		}
	}
	return sb.String(), paths
}

// BenchmarkManyRules makes one decision per op against a file of N rules
// for "*" (a quarter with wildcards): the cost of a decision as the rule
// count grows.
func BenchmarkManyRules(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		src, paths := manyRules(n)
		a := Compile(grammar.ParseString("robots.txt", src, grammar.Options{MaxSize: -1}), RFC9309).Agent("Googlebot")
		td, err := robotstxt.FromString(src)
		if err != nil {
			b.Fatal(err)
		}
		tg := td.FindGroup("Googlebot")
		a.Decide("/")
		b.Run(fmt.Sprintf("N=%d/sitetxt", n), func(b *testing.B) {
			decideLoop(b, func(i int) bool { return a.Decide(paths[i%len(paths)]).Allowed })
		})
		b.Run(fmt.Sprintf("N=%d/temoto", n), func(b *testing.B) {
			decideLoop(b, func(i int) bool { return tg.Test(paths[i%len(paths)]) })
		})
	}
}

// BenchmarkLargeFile decides 1,000,000 URLs per op against the corpus'
// docs.oracle.com robots.txt (853 KB, 31,847 rules for "*"): the site's
// crawled URLs, and one URL in 40 under /h, where 30,561 of its rules
// start, as `sitetxt check --urls` would.
func BenchmarkLargeFile(b *testing.B) {
	const name = "docs.oracle.com.txt"
	body, err := os.ReadFile(filepath.Join(corpusDir, "robots", name))
	if err != nil {
		b.Skipf("corpus not found (%v); skipping", err)
	}
	list, err := os.ReadFile(filepath.Join(corpusDir, "urls", name))
	if err != nil {
		b.Skipf("corpus not found (%v); skipping", err)
	}
	real := strings.Fields(string(list))
	pol := Compile(grammar.Parse(name, body, parseOptions), RFC9309)
	var h []string
	for _, r := range pol.Agent("Googlebot").Rules() {
		if strings.HasPrefix(r.Pattern, "/h") {
			h = append(h, "https://docs.oracle.com"+r.Pattern+"x/y.html")
		}
	}
	urls := make([]string, 1_000_000)
	for i := range urls {
		if i%40 == 39 && len(h) > 0 {
			urls[i] = h[(i*7919)%len(h)]
		} else {
			urls[i] = real[i%len(real)]
		}
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		a := pol.Agent("Googlebot")
		k := 0
		for _, u := range urls {
			if a.Decide(u).Allowed {
				k++
			}
		}
		sink = k
	}
	reportCPU(b, cpu0)
}

// BenchmarkPathFloor is the floor a decision is measured against: finding
// the path in each corpus URL and one strings.HasPrefix against it.
func BenchmarkPathFloor(b *testing.B) {
	cases := loadMatchCases(b, RFC9309)
	b.ReportAllocs()
	n := 0
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		c := &cases[i%len(cases)]
		if p, _ := match.PathOf(c.url); strings.HasPrefix(p, "/wp-admin/") {
			n++
		}
	}
	reportCPU(b, cpu0)
	sink = n
}

// BenchmarkCompileSize compiles files of the same kind of rules at 10 KB
// and 2 MB (parsed beforehand) and reports the CPU time per line: compile
// is linear when the two agree. "index" builds the agent's rule index,
// which its first decision does.
func BenchmarkCompileSize(b *testing.B) {
	for _, n := range []int{400, 80000} {
		src, _ := manyRules(n)
		f := grammar.ParseString("robots.txt", src, grammar.Options{MaxSize: -1})
		lines := float64(len(f.Lines))
		b.Run(fmt.Sprintf("%dKB/compile", len(src)>>10), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				_ = Compile(f, RFC9309)
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/lines, "cpu-ns/line")
		})
		b.Run(fmt.Sprintf("%dKB/index", len(src)>>10), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				a := Compile(f, RFC9309).Agent("x")
				b.StartTimer()
				cpu0 := cpuTime()
				a.Decide("/")
				cpu += cpuTime() - cpu0
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/lines, "cpu-ns/line")
		})
	}
}
