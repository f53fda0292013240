package audit

import (
	"runtime"
	"sync"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

// Level is how much of a site a file blocks a crawler from.
type Level uint8

// The levels.
const (
	// None: the crawler may fetch "/" and no Disallow rule applies to it.
	None Level = iota
	// Partly: it may fetch "/", but some Disallow rule applies to it.
	Partly
	// Fully: it may not fetch "/".
	Fully
)

var levelNames = [...]string{"none", "partly", "fully"}

// String returns "none", "partly" or "fully".
func (l Level) String() string { return levelNames[l] }

// LevelOf returns how much the agent is blocked.
func LevelOf(a *robots.Agent) Level {
	if !a.Decide("/").Allowed {
		return Fully
	}
	for _, r := range a.Rules() {
		if !r.Allow {
			return Partly
		}
	}
	return None
}

// Input is one file for Summarize.
type Input struct {
	// Name names the file (a path, a URL).
	Name string
	// Data is its content. When Data is nil and Read is set, the worker
	// that audits the file calls Read for it, so files are read on every
	// core rather than by the one goroutine that lists them.
	Data []byte
	Read func() ([]byte, error)
	// Status is the HTTP status of a captured response (ReadWARC), or 0.
	// A file with a status other than 2xx is counted in Summary.NotOK and
	// not audited.
	Status int
	// Err is why it could not be read; Data is then ignored.
	Err error
	// OnError, if set, is told when Read fails.
	OnError func(name string, err error)
}

// Counts counts files by level, under each profile (indexed as
// robots.Profiles).
type Counts [][3]int

// Summary is what Summarize counted.
type Summary struct {
	Registry *Registry
	// Files is how many files were audited; Errors how many could not be
	// read (not counted in Files).
	Files, Errors int
	// NotOK is how many captures had an HTTP status other than 2xx: no
	// file to audit (under RFC 9309 a 4xx allows everything, a 5xx
	// disallows everything).
	NotOK int
	// Disagree is how many files the profiles disagree on: some crawler
	// is blocked at a different level under some profile.
	Disagree int
	// Crawlers counts, for each crawler of the registry (same order), the
	// files by level under each profile.
	Crawlers []Counts
	// Categories counts, for each category (Categories order), the files
	// that block all its crawlers fully, those that block none of them at
	// all, and the rest (partly).
	Categories []Counts
	// ContentUsage, ContentSignal and License count the files with at
	// least one such line.
	ContentUsage, ContentSignal, License int
	// Bytes is the size of the files audited.
	Bytes int64
}

// NewSummary returns a Summary of no file for the registry reg (nil:
// DefaultRegistry), for Add to sum separate runs into.
func NewSummary(reg *Registry) *Summary {
	if reg == nil {
		reg = DefaultRegistry()
	}
	return &Summary{Registry: reg, Crawlers: newCounts(len(reg.Crawlers)), Categories: newCounts(len(Categories))}
}

// newCounts returns n Counts, all zero.
func newCounts(n int) []Counts {
	cs := make([]Counts, n)
	slab := make([][3]int, n*len(robots.Profiles))
	for i := range cs {
		cs[i] = slab[i*len(robots.Profiles) : (i+1)*len(robots.Profiles) : (i+1)*len(robots.Profiles)]
	}
	return cs
}

// Add adds the counts of o, a Summary of other files for the same
// registry, to s: every count is a number of files, so the Summary of
// separate runs added up is the Summary of one run over all their files
// (audit --merge).
func (s *Summary) Add(o *Summary) {
	s.Files += o.Files
	s.Errors += o.Errors
	s.NotOK += o.NotOK
	s.Disagree += o.Disagree
	s.ContentUsage += o.ContentUsage
	s.ContentSignal += o.ContentSignal
	s.License += o.License
	s.Bytes += o.Bytes
	for i := range s.Crawlers {
		addCounts(&s.Crawlers[i], &o.Crawlers[i])
	}
	for i := range s.Categories {
		addCounts(&s.Categories[i], &o.Categories[i])
	}
}

func addCounts(a, b *Counts) {
	for p := range *a {
		for l := range (*a)[p] {
			(*a)[p][l] += (*b)[p][l]
		}
	}
}

// Summarize audits every Input from in, on workers goroutines (0 means
// GOMAXPROCS), and returns the counts. Only counts are kept: memory is
// bounded by the workers' files in flight, whatever the number of files.
func Summarize(in <-chan Input, reg *Registry, workers int) *Summary {
	if reg == nil {
		reg = DefaultRegistry()
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	total := NewSummary(reg)
	var mu sync.Mutex
	var wg sync.WaitGroup
	catOf := make([]int, len(reg.Crawlers))
	for i, c := range reg.Crawlers {
		for j, cat := range Categories {
			if c.Category == cat {
				catOf[i] = j
			}
		}
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := NewSummary(reg)
			levels := make([][]Level, len(reg.Crawlers))
			for i := range levels {
				levels[i] = make([]Level, len(robots.Profiles))
			}
			for f := range in {
				if f.Data == nil && f.Read != nil && f.Err == nil {
					f.Data, f.Err = f.Read()
					if f.Err != nil && f.OnError != nil {
						f.OnError(f.Name, f.Err)
					}
				}
				if f.Err != nil {
					local.Errors++
					continue
				}
				if f.Status != 0 && (f.Status < 200 || f.Status > 299) {
					local.NotOK++
					continue
				}
				local.count(f, levels, catOf)
			}
			mu.Lock()
			total.Add(local)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}

// count audits one file into s.
func (s *Summary) count(f Input, levels [][]Level, catOf []int) {
	s.Files++
	s.Bytes += int64(len(f.Data))
	// Each profile reads as much of the file as it does: Compile parses
	// again for one that reads more (google reads the whole file).
	gf := grammar.Parse(f.Name, f.Data, robots.RFC9309.ParseOptions())
	pols := make([]*robots.Policy, len(robots.Profiles))
	for p, prof := range robots.Profiles {
		pols[p] = robots.Compile(gf, prof)
	}
	if len(pols[0].Licenses()) > 0 {
		s.License++
	}
	usage, signal := false, len(pols[0].Signals()) > 0 // a line outside every group counts too
	for _, g := range pols[0].Groups() {
		usage = usage || len(g.Usage) > 0
		signal = signal || len(g.Signals) > 0
	}
	if usage {
		s.ContentUsage++
	}
	if signal {
		s.ContentSignal++
	}
	disagree := false
	for i := range s.Registry.Crawlers {
		tok := s.Registry.Crawlers[i].Token
		for p := range pols {
			l := LevelOf(pols[p].Agent(tok))
			levels[i][p] = l
			s.Crawlers[i][p][l]++
			if l != levels[i][0] {
				disagree = true
			}
		}
	}
	if disagree {
		s.Disagree++
	}
	// Categories: fully when all its crawlers are, none when all are.
	for c := range Categories {
		for p := range pols {
			all, none, any := true, true, false
			for i := range levels {
				if catOf[i] != c {
					continue
				}
				any = true
				all = all && levels[i][p] == Fully
				none = none && levels[i][p] == None
			}
			if !any {
				continue
			}
			switch {
			case all:
				s.Categories[c][p][Fully]++
			case none:
				s.Categories[c][p][None]++
			default:
				s.Categories[c][p][Partly]++
			}
		}
	}
}
