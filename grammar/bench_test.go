package grammar

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// corpus reads the shared corpus of real robots.txt files, or skips.
func corpus(b *testing.B) (files [][]byte, total int64, largest []byte) {
	names, _ := filepath.Glob(shareddata.Path("corpus/robots/*.txt"))
	if len(names) == 0 {
		b.Skip("../shared/corpus/robots is absent")
	}
	for _, n := range names {
		d, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, d)
		total += int64(len(d))
		if len(d) > len(largest) {
			largest = d
		}
	}
	return files, total, largest
}

// BenchmarkParseCorpus parses every corpus file once per op.
func BenchmarkParseCorpus(b *testing.B) {
	files, total, _ := corpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, d := range files {
			Parse("robots.txt", d, Options{})
		}
	}
	reportCPU(b, cpu0)
}

// BenchmarkParseMedian parses the corpus' median file (by size) once per
// op: the fixed cost of a parse (robots.BenchmarkSmallFile adds compiling
// it).
func BenchmarkParseMedian(b *testing.B) {
	files, _, _ := corpus(b)
	sorted := append([][]byte(nil), files...)
	sort.SliceStable(sorted, func(i, j int) bool { return len(sorted[i]) < len(sorted[j]) })
	median := sorted[len(sorted)/2]
	b.SetBytes(int64(len(median)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		Parse("robots.txt", median, Options{})
	}
	reportCPU(b, cpu0)
}

// BenchmarkParseLargest parses the largest corpus file (1.8 MB), whole and
// with the default 500 KiB limit.
func BenchmarkParseLargest(b *testing.B) {
	_, _, largest := corpus(b)
	for _, bc := range []struct {
		name string
		opts Options
	}{{"limit", Options{}}, {"whole", Options{MaxSize: -1}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(largest)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Parse("robots.txt", largest, bc.opts)
			}
		})
	}
}

// BenchmarkLineSplit is the floor a parse is measured against: finding
// every line end of the corpus with bytes.IndexByte, and nothing else.
func BenchmarkLineSplit(b *testing.B) {
	files, total, _ := corpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		for _, d := range files {
			for rest := d; ; {
				j := bytes.IndexByte(rest, '\n')
				if j < 0 {
					break
				}
				n++
				rest = rest[j+1:]
			}
		}
	}
	reportCPU(b, cpu0)
	lineSink = n
}

// cpuTime returns the CPU time the process has used, all threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per op since start as "cpu-ns/op" (wall
// time on a shared machine measures the load as much as the code).
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

var lineSink int
