package robots

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
)

// realRules holds the corpus' distinct Allow and Disallow values (those
// starting with '/', from files that are not HTML), split into plain
// values and values with '*' or '$', and the paths of the corpus' URLs:
// what BenchmarkRealRules builds its files from, as ../shared/bench's
// scale-decide does.
var realRules struct {
	once        sync.Once
	plain, wild []string
	paths       []string
}

func loadRealRules(b testing.TB) {
	b.Helper()
	files, _ := loadCorpus(b)
	cases := loadMatchCases(b, RFC9309)
	realRules.once.Do(func() {
		seen := map[string]bool{}
		for _, f := range files {
			pf := grammar.Parse(f.name, f.data, parseOptions)
			if len(pf.Diagnostics) > 0 && pf.Diagnostics[0].Code == "markup" {
				continue
			}
			for _, l := range pf.Lines {
				if !l.Kind.IsRule() || l.Typo || l.NoColon {
					continue
				}
				v := l.Value
				if v == "" || v[0] != '/' || len(l.Raw) > 300 || seen[v] {
					continue
				}
				seen[v] = true
				if strings.ContainsAny(v, "*$") {
					realRules.wild = append(realRules.wild, v)
				} else {
					realRules.plain = append(realRules.plain, v)
				}
			}
		}
		for _, c := range cases {
			realRules.paths = append(realRules.paths, c.path)
		}
	})
}

// realRuleFile returns "User-agent: Googlebot" and n distinct real rules,
// every fourth with a wildcard, one in five an Allow rule.
func realRuleFile(n int) string {
	r := rand.New(rand.NewSource(int64(n)))
	var sb strings.Builder
	sb.WriteString("User-agent: Googlebot\n")
	pi, wi := r.Perm(len(realRules.plain)), r.Perm(len(realRules.wild))
	p, w := 0, 0
	for k := 0; k < n; k++ {
		var v string
		if k%4 == 3 {
			v = realRules.wild[wi[w%len(wi)]]
			w++
		} else {
			v = realRules.plain[pi[p%len(pi)]]
			p++
		}
		if r.Intn(5) == 0 {
			sb.WriteString("Allow: " + v + "\n")
		} else {
			sb.WriteString("Disallow: " + v + "\n")
		}
	}
	return sb.String()
}

// BenchmarkRealRules makes one decision per op against a file of N real
// rules for the agent (drawn from the corpus, a quarter with '*' or '$'),
// cycling through the corpus' URL paths on one host: the cost of a
// decision as the rule count grows. "index-B/rule" is the heap the
// agent's rule index takes, per rule; MB/s counts path bytes.
func BenchmarkRealRules(b *testing.B) {
	loadRealRules(b)
	urls := make([]string, len(realRules.paths))
	var pathBytes int
	for i, p := range realRules.paths {
		urls[i] = "https://example.com" + p
		pathBytes += len(p)
	}
	for _, n := range []int{10, 100, 1000, 10000, 100000} {
		src := realRuleFile(n)
		a := Compile(grammar.ParseString("rules.txt", src, parseOptions), RFC9309).Agent("Googlebot")
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		a.Decide("/")
		runtime.GC()
		runtime.ReadMemStats(&m1)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			b.SetBytes(int64(pathBytes / len(urls)))
			decideLoop(b, func(i int) bool { return a.Decide(urls[i%len(urls)]).Allowed })
			b.ReportMetric(float64(m1.HeapAlloc-m0.HeapAlloc)/float64(n), "index-B/rule")
		})
	}
}
