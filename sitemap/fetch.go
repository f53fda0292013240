package sitemap

import (
	"context"
	"fmt"
	"hash/maphash"
	"iter"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// Lister gives the sitemaps a site's robots.txt lists (its Sitemap
// lines, absolute URLs); none, and no error, when the site has no
// robots.txt. robots.Client satisfies it.
type Lister interface {
	Sitemaps(ctx context.Context, site string) ([]string, error)
}

// The defaults of a Fetcher's bounds.
const (
	// DefaultMaxFiles bounds the sitemap files one discovery fetches.
	DefaultMaxFiles = 1000
	// DefaultMaxTime bounds the time one discovery takes.
	DefaultMaxTime = 10 * time.Minute
	// DefaultMaxDepth bounds how many sitemap indexes deep a discovery
	// follows (an index listed by robots.txt is 1; one it lists, 2).
	DefaultMaxDepth = 3
	// DefaultTimeout bounds the fetch of one file, its body included.
	DefaultTimeout = 2 * time.Minute
	// maxOrigins bounds the other sites whose robots.txt one discovery
	// asks whether they name a sitemap (cross-submission).
	maxOrigins = 16
	// maxSeen bounds the URLs a discovery remembers to list each once;
	// past it a URL listed twice is listed twice.
	maxSeen = 1 << 20
)

// A Fetcher follows a site's sitemaps over HTTP: from the Sitemap lines of
// its robots.txt (or, when there are none, /sitemap.xml), or from sitemaps
// given, through sitemap indexes, reading each file as a stream (Reader)
// and each once, whatever lists it again (an index listing itself, two
// indexes listing each other). The zero Fetcher is ready to use; it is
// safe for concurrent use. Set its fields before first use.
type Fetcher struct {
	// Fetcher is the transport: the User-Agent sent, the HTTP client (at
	// most five redirects, http and https only), the timeout of one file,
	// its body included, and the cache, which keeps files of at most its
	// MaxSize (500 KiB by default) between discoveries for as long as
	// their headers allow (at most 24 hours). nil means a fetch.Fetcher
	// with the defaults but a Timeout of DefaultTimeout, and an in-memory
	// cache.
	Fetcher *fetch.Fetcher
	// MaxFiles bounds the files one discovery fetches, MaxTime its time,
	// MaxDepth how deep it follows indexes; 0 means the defaults. The
	// discovery stops at a bound, and Discovery.Stopped names it.
	MaxFiles int
	MaxTime  time.Duration
	MaxDepth int
	// Options bound and qualify the reading of each file (MaxURLs,
	// MaxSize, Lenient); their URL, Name and Cross are set per file.
	Options Options

	once sync.Once
	f    *fetch.Fetcher
}

func (f *Fetcher) init() {
	f.once.Do(func() {
		f.f = f.Fetcher
		if f.f == nil {
			f.f = &fetch.Fetcher{Timeout: DefaultTimeout}
		}
	})
}

// File is one sitemap file a discovery read, or tried to.
type File struct {
	// URL is the file's URL as listed (by robots.txt, an index, or the
	// caller); FinalURL where it came from after redirects.
	URL, FinalURL string
	// Parent is the URL of the index that listed the file, "" for a file
	// the discovery started from; Depth counts the indexes above it.
	Parent string
	Depth  int
	// Guessed is set on /sitemap.xml read because robots.txt named no
	// sitemap: its absence is no error.
	Guessed bool
	Format  Format
	// URLs counts the entries read: pages, or sitemaps for an index;
	// Repeated those left out because an earlier file listed them.
	URLs, Repeated int
	// Diagnostics are the file's, and what the discovery found about it
	// (a nested index, a sitemap listed again).
	Diagnostics grammar.Diagnostics
	// Err says why the file could not be fetched or read: an HTTP status
	// (a *fetch.StatusError, "HTTP 404 Not Found"), a network failure.
	Err error
}

// Found is one URL a discovery found, with the sitemap that listed it.
type Found struct {
	*Entry
	// Sitemap is the absolute URL of the file the entry came from, as
	// listed.
	Sitemap string
}

// Discovery is one walk through a site's sitemaps. All runs it.
type Discovery struct {
	f       *Fetcher
	ctx     context.Context
	site    string // the origin whose robots.txt named the starts, "" if none
	lister  Lister
	starts  []*File
	start   error // why robots.txt gave no starts
	files   []*File
	stopped string

	seen    *hashSet
	seed    maphash.Seed
	named   map[string]map[string]bool // by origin: the sitemaps its robots.txt names
	visited map[string]bool
}

// Discover walks the sitemaps of site ("https://example.org/"): those its
// robots.txt lists (robots says which), or /sitemap.xml when it lists
// none. Their URLs may lie anywhere on site, robots.txt having named them.
func (f *Fetcher) Discover(ctx context.Context, site string, robots Lister) *Discovery {
	d := f.newDiscovery(ctx, robots)
	u, err := url.Parse(site)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		d.start = fmt.Errorf("%s: not an http or https site", site)
		return d
	}
	d.site = Origin(u)
	maps, err := robots.Sitemaps(ctx, d.site+"/")
	if err != nil {
		d.start = fmt.Errorf("cannot read %s/robots.txt: %w", d.site, err)
		return d
	}
	d.named[d.site] = set(maps)
	for _, m := range maps {
		d.starts = append(d.starts, &File{URL: m})
	}
	if len(maps) == 0 {
		d.starts = append(d.starts, &File{URL: d.site + "/sitemap.xml", Guessed: true})
	}
	return d
}

// Walk walks the sitemaps at urls. When robots is not nil, each file's
// scope is widened as the protocol says where a robots.txt names it (the
// robots.txt of its own site, or of another site it lists URLs of, up to
// 16 sites).
func (f *Fetcher) Walk(ctx context.Context, robots Lister, urls ...string) *Discovery {
	d := f.newDiscovery(ctx, robots)
	for _, u := range urls {
		d.starts = append(d.starts, &File{URL: u})
	}
	return d
}

func (f *Fetcher) newDiscovery(ctx context.Context, lister Lister) *Discovery {
	f.init()
	return &Discovery{f: f, ctx: ctx, lister: lister, seen: newHashSet(maxSeen), seed: maphash.MakeSeed(),
		named: map[string]map[string]bool{}, visited: map[string]bool{}}
}

// Err returns why the discovery could not start: robots.txt could not be
// read (a site that has none is not an error: /sitemap.xml is tried).
func (d *Discovery) Err() error { return d.start }

// Stopped says which bound stopped the discovery before it read every
// sitemap listed, naming it; "" when none did.
func (d *Discovery) Stopped() string { return d.stopped }

// Files returns the files the discovery has read or tried, in order.
func (d *Discovery) Files() []*File { return d.files }

// All runs the discovery: it yields each URL found, with a nil File, and
// each file when it has been read (or could not be), with a nil Found, in
// the order they come. Files are read one at a time, depth first in the
// order they are listed; a URL listed by an earlier file is not yielded
// again (File.Repeated counts it). Stopping the loop stops the discovery.
// A file's pages are looked up in batches of 8, so when a page is yielded
// the discovery may have read up to 7 more entries of its file.
func (d *Discovery) All() iter.Seq2[*Found, *File] {
	return func(yield func(*Found, *File) bool) {
		if d.start != nil {
			return
		}
		maxFiles, maxDepth := d.f.MaxFiles, d.f.MaxDepth
		if maxFiles <= 0 {
			maxFiles = DefaultMaxFiles
		}
		if maxDepth <= 0 {
			maxDepth = DefaultMaxDepth
		}
		maxTime := d.f.MaxTime
		if maxTime <= 0 {
			maxTime = DefaultMaxTime
		}
		ctx, cancel := context.WithTimeout(d.ctx, maxTime)
		defer cancel()
		queue := append([]*File(nil), d.starts...)
		chains := map[*File][]string{}
		for len(queue) > 0 {
			file := queue[0]
			queue = queue[1:]
			if len(d.files) >= maxFiles {
				d.stopped = fmt.Sprintf("%d sitemap files read (MaxFiles): the sitemaps listed after them are not read", maxFiles)
				return
			}
			if ctx.Err() != nil {
				d.stopped = d.timeStopped(maxTime, len(queue)+1)
				return
			}
			key := normURL(file.URL)
			chain := append(append([]string(nil), chains[file]...), key)
			delete(chains, file)
			if d.visited[key] {
				continue // reported where it was listed again
			}
			d.visited[key] = true
			d.files = append(d.files, file)
			children, ok := d.read(ctx, file, chain, maxFiles-len(d.files), yield)
			if !ok {
				return
			}
			if ctx.Err() != nil && d.ctx.Err() == nil {
				d.stopped = d.timeStopped(maxTime, len(queue))
			}
			if !yield(nil, file) || d.stopped != "" {
				return
			}
			if file.Format == Index && file.Depth+1 > maxDepth && len(children) > 0 {
				file.Diagnostics = append(file.Diagnostics, &grammar.Diagnostic{Severity: grammar.Error, Code: "too-deep",
					Filename: file.URL, Summary: fmt.Sprintf("an index %d deep (MaxDepth %d): the %d sitemaps it lists are not read", file.Depth+1, maxDepth, len(children))})
				continue
			}
			for _, c := range children {
				chains[c] = chain
			}
			queue = append(children, queue...)
		}
	}
}

func (d *Discovery) timeStopped(maxTime time.Duration, left int) string {
	return fmt.Sprintf("the discovery's time limit of %v (MaxTime) passed: %d listed sitemap files are not read", maxTime, left)
}

// read reads one file, yielding its URLs, and returns the sitemaps it
// lists if it is an index, at most room+1 of them (one more than may
// still be read, which stops the discovery at MaxFiles): an index that
// lists more is not read further; false when the caller stopped.
func (d *Discovery) read(ctx context.Context, file *File, chain []string, room int, yield func(*Found, *File) bool) ([]*File, bool) {
	s, err := d.f.f.Open(ctx, file.URL)
	if err != nil {
		file.Err = err
		return nil, true
	}
	defer s.Body.Close()
	file.FinalURL = s.FinalURL
	opts := d.f.Options
	opts.URL, opts.Name = s.FinalURL, file.URL
	opts.Cross = func(o string) bool { return d.crossed(ctx, o, chain) }
	rd := NewReader(s.Body, opts)
	var children []*File
	listed := map[string]bool{}
	b := urlBatch{d: d, file: file, yield: yield}
	for e, err := range rd.Entries() {
		if err != nil {
			file.Err = err
			break // the pages batched are yielded below
		}
		if rd.Format() == Index {
			if e.OutOfScope {
				continue // never fetched: an index may not send us to other sites
			}
			key := normURL(e.URL)
			switch {
			case contains(chain, key):
				file.Diagnostics = append(file.Diagnostics, findingAt(file, e.Pos, grammar.Warning, "cycle",
					fmt.Sprintf("lists %s, which listed this index (a cycle): not read again", e.URL)))
			case d.visited[key] || listed[key]:
				file.Diagnostics = append(file.Diagnostics, findingAt(file, e.Pos, grammar.Warning, "repeated-sitemap",
					fmt.Sprintf("lists %s, which this discovery has already read or will: read once", e.URL)))
			case len(children) > room:
				file.Diagnostics = append(file.Diagnostics, findingAt(file, e.Pos, grammar.Warning, "max-files",
					"lists more sitemaps than the discovery may still read (MaxFiles): the rest of the index is not read"))
				goto done
			default:
				listed[key] = true
				children = append(children, &File{URL: e.URL, Parent: file.URL, Depth: file.Depth + 1})
			}
			continue
		}
		if !b.add(e) {
			return nil, false
		}
	}
	if !b.flush() {
		return nil, false
	}
done:
	file.Format, file.URLs = rd.Format(), rd.Count()
	file.Diagnostics = append(rd.Diagnostics(), file.Diagnostics...)
	if file.Format == Index && file.Parent != "" {
		file.Diagnostics = append(file.Diagnostics, findingAt(file, fileStart, grammar.Warning, "nested-index",
			fmt.Sprintf("a sitemap index listed by the index %s: the protocol has an index list sitemaps, not indexes; read all the same", file.Parent)))
	}
	file.Diagnostics.Sort()
	return children, true
}

// urlBatch holds the last few pages a file listed, to look them up in
// the discovery's set of URLs together (hashSet.Touch): a lookup is a
// cache miss, and a batch's misses overlap. The pages are yielded in
// order, at most len(entries)-1 entries after they were read.
type urlBatch struct {
	d       *Discovery
	file    *File
	yield   func(*Found, *File) bool
	entries [8]*Entry
	hashes  [8]uint64
	n       int
}

// add adds e to the batch, yielding the batch when it is full; false when
// the caller stopped.
func (b *urlBatch) add(e *Entry) bool {
	b.entries[b.n], b.hashes[b.n] = e, maphash.String(b.d.seed, e.URL)
	if b.n++; b.n < len(b.entries) {
		return true
	}
	return b.flush()
}

// flush yields the batch's pages that no earlier file listed; false when
// the caller stopped.
func (b *urlBatch) flush() bool {
	n := b.n
	b.n = 0
	b.d.seen.Touch(b.hashes[:n])
	for i, e := range b.entries[:n] {
		b.entries[i] = nil
		if b.d.seen.Add(b.hashes[i]) {
			b.file.Repeated++
			continue
		}
		if !b.yield(&Found{Entry: e, Sitemap: b.file.URL}, nil) {
			return false
		}
	}
	return true
}

func findingAt(file *File, at grammar.Pos, sev grammar.Severity, code, msg string) *grammar.Diagnostic {
	return &grammar.Diagnostic{Severity: sev, Code: code, Summary: msg, Filename: file.URL, Range: grammar.Range{Start: at, End: at}}
}

// crossed reports whether the robots.txt of origin o names a file of
// chain (the file being read and the indexes that led to it).
func (d *Discovery) crossed(ctx context.Context, o string, chain []string) bool {
	named, ok := d.named[o]
	if !ok {
		if d.lister == nil || len(d.named) >= maxOrigins {
			return false
		}
		maps, err := d.lister.Sitemaps(ctx, o+"/")
		if err != nil {
			maps = nil
		}
		named = set(maps)
		d.named[o] = named
	}
	for _, u := range chain {
		if named[u] {
			return true
		}
	}
	return false
}

func set(urls []string) map[string]bool {
	m := make(map[string]bool, len(urls))
	for _, u := range urls {
		m[normURL(u)] = true
	}
	return m
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// normURL is the form sitemap URLs are compared in: the origin as Origin
// writes it (fetch's canonical form: lower case, no default port, a host
// in Punycode, an IP address in one form), the path "/" when empty, no
// fragment.
func normURL(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" {
		return s
	}
	o := Origin(u)
	u.Fragment, u.RawFragment = "", ""
	rest := u.EscapedPath()
	if rest == "" {
		rest = "/"
	}
	if u.RawQuery != "" || u.ForceQuery {
		rest += "?" + u.RawQuery
	}
	return o + rest
}
