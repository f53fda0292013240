package sitemap

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// The tree benchmark reads a whole sitemap tree over loopback in a child
// process (this test binary again, told what to do by the environment,
// see TestMain), so that the child's peak resident memory is the reader's
// alone: not the generator's, the server's or the benchmark's.
const (
	treeMode = "SITETXT_TREE_MODE" // "read" or "floor"
	treeURLs = "SITETXT_TREE_URLS" // the root index's URL, then each sitemap's, space-separated
	treeProf = "SITETXT_TREE_PROF" // a path prefix: the child writes .cpu and .heap profiles there
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(treeMode); mode != "" {
		os.Exit(treeChild(mode, strings.Fields(os.Getenv(treeURLs)), os.Getenv(treeProf)))
	}
	os.Exit(m.Run())
}

// treeResult is what the child reports on its standard output.
type treeResult struct {
	URLs, Files int
	Bytes       int64  // compressed, as fetched (floor only)
	PeakRSS     int64  // VmHWM, bytes; 0 where /proc/self/status has none
	TotalAlloc  uint64 // bytes allocated over the run
	NumGC       uint32
	Err         string
}

// treeChild reads the tree at urls[0] as a crawler would (mode "read":
// Fetcher.Walk, every URL yielded), or does only the physical work of it
// (mode "floor": fetch each file of urls and gunzip it, discarding the
// bytes), and prints a treeResult.
func treeChild(mode string, urls []string, prof string) int {
	var res treeResult
	if prof != "" {
		f, err := os.Create(prof + "." + mode + ".cpu")
		if err == nil {
			pprof.StartCPUProfile(f)
			defer f.Close()
		}
	}
	switch mode {
	case "read":
		d := (&Fetcher{}).Walk(context.Background(), nil, urls[0])
		for found, file := range d.All() {
			switch {
			case found != nil:
				res.URLs++
			case file.Err != nil:
				res.Err = file.Err.Error()
			default:
				res.Files++
			}
		}
	case "floor":
		for _, u := range urls {
			n, err := fetchGunzip(u)
			res.Bytes += n
			res.Files++
			if err != nil {
				res.Err = err.Error()
			}
		}
	}
	if prof != "" {
		pprof.StopCPUProfile()
		if f, err := os.Create(prof + "." + mode + ".heap"); err == nil {
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.TotalAlloc, res.NumGC = ms.TotalAlloc, ms.NumGC
	res.PeakRSS = peakRSS()
	json.NewEncoder(os.Stdout).Encode(res)
	return 0
}

// fetchGunzip fetches u and reads it through, gunzipping it when it is
// gzip, and returns the bytes fetched.
func fetchGunzip(u string) (int64, error) {
	resp, err := http.Get(u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	c := &counter{r: resp.Body}
	src := bufio.NewReaderSize(c, 64<<10)
	var r io.Reader = src
	if head, _ := src.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(src)
		if err != nil {
			return c.n, err
		}
		r = zr
	}
	_, err = io.Copy(io.Discard, r)
	return c.n, err
}

// peakRSS returns the process's peak resident memory (VmHWM), in bytes.
func peakRSS() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb)
			return kb << 10
		}
	}
	return 0
}

// corpusPaths returns the URLs of ../shared/corpus/urls (real URLs
// crawled on 1,137 sites) without their scheme ("host/path?query"), each
// once, sorted: the material the tree benchmark's URLs are made of.
func corpusPaths(tb testing.TB) []string {
	dir := shareddata.Require(tb, "corpus", "urls")
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no URL lists in %s (%v)", dir, err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			_, rest, ok := strings.Cut(strings.TrimSpace(l), "://")
			if ok && rest != "" {
				seen[rest] = true
			}
		}
	}
	paths := slices.Sorted(maps.Keys(seen))
	if len(paths) < MaxURLs {
		tb.Fatalf("%d distinct URLs in %s, want at least %d", len(paths), dir, MaxURLs)
	}
	return paths
}

// writeTree writes a sitemap tree for the server at origin into dir: per
// index, sitemaps gzipped sitemaps of perFile URLs each; with more than
// one index, a root index lists them. It returns the root's URL, then
// every other file's. Sitemap k lists origin + "/k/" + the next perFile
// of paths (host and path of a real URL, XML-escaped), each with lastmod
// (a second in 2020-2024), changefreq and priority.
func writeTree(tb testing.TB, dir, origin string, paths []string, indexes, sitemaps, perFile int) []string {
	var files []string
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	k := 0
	for i := range indexes {
		var idx strings.Builder
		idx.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for j := range sitemaps {
			name := fmt.Sprintf("sitemap-%d-%d.xml.gz", i, j)
			fmt.Fprintf(&idx, "<sitemap><loc>%s/%s</loc><lastmod>2025-06-01</lastmod></sitemap>\n", origin, name)
			files = append(files, origin+"/"+name)
			wg.Add(1)
			sem <- struct{}{}
			go func(k int) {
				defer wg.Done()
				defer func() { <-sem }()
				writeSitemap(tb, filepath.Join(dir, name), fmt.Sprintf("%s/%d/", origin, k), paths, k*perFile, perFile)
			}(k)
			k++
		}
		idx.WriteString("</sitemapindex>\n")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("index-%d.xml", i)), []byte(idx.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	wg.Wait()
	root := origin + "/index-0.xml"
	if indexes > 1 {
		var idx strings.Builder
		idx.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := range indexes {
			fmt.Fprintf(&idx, "<sitemap><loc>%s/index-%d.xml</loc></sitemap>\n", origin, i)
		}
		idx.WriteString("</sitemapindex>\n")
		if err := os.WriteFile(filepath.Join(dir, "root.xml"), []byte(idx.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		root = origin + "/root.xml"
		for i := range indexes {
			files = append(files, fmt.Sprintf("%s/index-%d.xml", origin, i))
		}
	}
	return append([]string{root}, files...)
}

// writeSitemap writes a gzipped urlset of n URLs, prefix + paths[from:]
// (wrapping around).
func writeSitemap(tb testing.TB, name, prefix string, paths []string, from, n int) {
	f, err := os.Create(name)
	if err != nil {
		tb.Error(err)
		return
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	w := bufio.NewWriterSize(zw, 64<<10)
	w.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	freqs := []string{"daily", "weekly", "monthly"}
	rng := uint64(from) + 1
	epoch := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		rng = rng*6364136223846793005 + 1442695040888963407
		w.WriteString("<url><loc>")
		xml.EscapeText(w, []byte(prefix+paths[(from+i)%len(paths)]))
		lastmod := epoch.Add(time.Duration(rng>>33%(5*365*86400)) * time.Second)
		fmt.Fprintf(w, "</loc><lastmod>%s</lastmod><changefreq>%s</changefreq><priority>0.%d</priority></url>\n",
			lastmod.Format(time.RFC3339), freqs[rng>>20%3], rng>>40%10)
	}
	w.WriteString("</urlset>\n")
	if err := w.Flush(); err != nil {
		tb.Error(err)
	}
	if err := zw.Close(); err != nil {
		tb.Error(err)
	}
}

// BenchmarkTree reads sitemap trees served on loopback, in a child process
// each time: the 1M tree (an index of 20 gzipped sitemaps of 50,000 URLs:
// 1,000,000 URLs, 170 MB of XML) and the 2.6M tree (a root index of 2
// indexes of 26 such sitemaps: 2,600,000 URLs). The sitemaps are
// synthetic (the shared corpus holds no sitemaps): every URL with
// lastmod, changefreq and priority, gzipped at the default level. Each
// iteration runs the floor (fetch each file and gunzip it, nothing more)
// and the read (Fetcher.Walk yielding every URL) one after the other; the
// benchmark reports their median wall and CPU times (user + system, of the
// child), the read-to-floor ratio of each, and the peak resident memory
// (VmHWM) of each child, the Go runtime and test binary included. Run it
// with -benchtime 3x or more, and not with -race.
//
//	go test -run XXX -bench Tree -benchtime 3x ./sitemap
func BenchmarkTree(b *testing.B) {
	paths := corpusPaths(b)
	for _, c := range []struct {
		name               string
		indexes, sitemaps  int
		wantURLs, wantFile int
	}{
		{"1M", 1, 20, 1000000, 20},
		{"2.6M", 2, 26, 2600000, 52},
	} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
			defer srv.Close()
			urls := writeTree(b, dir, srv.URL, paths, c.indexes, c.sitemaps, MaxURLs)
			var floorWall, floorCPU, readWall, readCPU []time.Duration
			var floorRSS, readRSS int64
			var read, floor treeResult
			for b.Loop() {
				var wall, cpu time.Duration
				floor, wall, cpu = runTreeChild(b, "floor", urls)
				floorWall, floorCPU, floorRSS = append(floorWall, wall), append(floorCPU, cpu), max(floorRSS, floor.PeakRSS)
				if floor.Err != "" || floor.Files != len(urls) {
					b.Fatalf("floor: %+v", floor)
				}
				read, wall, cpu = runTreeChild(b, "read", urls)
				readWall, readCPU, readRSS = append(readWall, wall), append(readCPU, cpu), max(readRSS, read.PeakRSS)
				if read.Err != "" || read.URLs != c.wantURLs || read.Files != c.wantFile+c.indexes+min(c.indexes-1, 1) {
					b.Fatalf("read: %+v; want %d URLs", read, c.wantURLs)
				}
			}
			fw, fc, rw, rc := median(floorWall), median(floorCPU), median(readWall), median(readCPU)
			b.ReportMetric(rw.Seconds(), "read-s")
			b.ReportMetric(fw.Seconds(), "floor-s")
			b.ReportMetric(rw.Seconds()/fw.Seconds(), "read/floor-wall")
			b.ReportMetric(rc.Seconds()/fc.Seconds(), "read/floor-cpu")
			b.ReportMetric(float64(readRSS)/(1<<20), "read-peak-RSS-MiB")
			b.ReportMetric(float64(floorRSS)/(1<<20), "floor-peak-RSS-MiB")
			b.ReportMetric(float64(read.TotalAlloc)/float64(read.URLs), "read-B/URL")
			b.ReportMetric(float64(read.URLs)/rw.Seconds(), "URLs/s")
			b.Logf("%s (%d files, %.1f MB gzipped): read %v wall, %v CPU; floor %v wall, %v CPU; peak RSS read %.1f MiB, floor %.1f MiB; read allocated %.0f MB in %d GCs",
				c.name, len(urls), float64(floor.Bytes)/1e6, rw, rc, fw, fc, float64(readRSS)/(1<<20), float64(floorRSS)/(1<<20), float64(read.TotalAlloc)/1e6, read.NumGC)
		})
	}
}

// TestTree runs BenchmarkTree's machinery on a small tree (a root index of
// 2 indexes of 2 sitemaps of 300 URLs): the floor fetches every file, the
// read yields every URL.
func TestTree(t *testing.T) {
	var paths []string
	for i := range 300 {
		paths = append(paths, fmt.Sprintf("www.example.org/page?id=%d&x=y", i))
	}
	dir := t.TempDir()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	urls := writeTree(t, dir, srv.URL, paths, 2, 2, 300)
	floor, _, _ := runTreeChild(t, "floor", urls)
	read, _, _ := runTreeChild(t, "read", urls)
	if floor.Err != "" || floor.Files != 7 || floor.Bytes == 0 {
		t.Errorf("floor: %+v; want 7 files", floor)
	}
	if read.Err != "" || read.Files != 7 || read.URLs != 1200 {
		t.Errorf("read: %+v; want 7 files, 1,200 URLs", read)
	}
}

// runTreeChild runs treeChild(mode) in a child process and returns its
// result, wall time and CPU time.
func runTreeChild(b testing.TB, mode string, urls []string) (treeResult, time.Duration, time.Duration) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), treeMode+"="+mode, treeURLs+"="+strings.Join(urls, " "))
	cmd.Stderr = os.Stderr
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("%s child: %v", mode, err)
	}
	var res treeResult
	if err := json.Unmarshal(out, &res); err != nil {
		b.Fatalf("%s child: %v in %q", mode, err, out)
	}
	return res, wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
