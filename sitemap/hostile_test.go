package sitemap

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// measure runs f and returns how long it took and the peak of the live
// heap while it ran, sampled every millisecond, above what was live
// before.
// The collector runs at 5% growth meanwhile, so the peak is what is
// live, not garbage waiting for a collection.
func measure(f func()) (time.Duration, uint64) {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	start := time.Now()
	f()
	took := time.Since(start)
	close(done)
	wg.Wait()
	if p := peak.Load(); p > base {
		return took, p - base
	}
	return took, 0
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestHostileGzipBomb reads 1 GiB gzip bombs: each stops at the 50 MB
// uncompressed limit (or sooner at another limit), naming it, with a few
// megabytes of heap.
func TestHostileGzipBomb(t *testing.T) {
	slowtest.Only(t, "1 GiB gzip bombs")
	const urlsetHead = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
	tests := []struct {
		name, head, fill, code string
	}{
		{"zeros", "", "\x00", "line-too-long"},
		{"new lines", "", "\n", "too-large"},
		{"XML white space", urlsetHead, " ", "token-too-long"},
		// "<!---->" over and over: every token small, no entry; only the
		// size limit stops it.
		{"XML comments", urlsetHead, "<!---->", "too-large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := sitetest.Bomb(tt.head, tt.fill)
			c := &counter{r: src}
			var s *Sitemap
			took, heap := measure(func() { s = Parse(c, Options{}) })
			t.Logf("%s: read %.1f MB compressed in %v, peak heap %.1f MiB, %v", tt.name, float64(c.n)/1e6, took, float64(heap)/(1<<20), codes(s.Diagnostics))
			found := false
			for _, d := range s.Diagnostics {
				found = found || d.Code == tt.code
			}
			if !found || len(s.Entries) != 0 {
				t.Errorf("%d entries, diagnostics %v; want none, and %s", len(s.Entries), codes(s.Diagnostics), tt.code)
			}
			if heap > 64<<20 {
				t.Errorf("peak heap %d MiB, want under 64 MiB", heap>>20)
			}
		})
	}
}

// TestHostile50001 reads 50,001 URLs: 50,000 are kept, the last is
// reported and not read.
func TestHostile50001(t *testing.T) {
	slowtest.Only(t, "50,001 URLs")
	data := manyURLs(50001)
	var s *Sitemap
	n := 0
	took, heap := measure(func() {
		rd := NewReader(bytes.NewReader(data), Options{URL: "https://www.example.org/sitemap.xml"})
		for _, err := range rd.Entries() {
			if err == nil {
				n++
			}
		}
		s = &Sitemap{Diagnostics: rd.Diagnostics()}
	})
	t.Logf("50,001 URLs (%.1f MB): %v, peak heap %.2f MiB (entries dropped as they come)", float64(len(data))/1e6, took, float64(heap)/(1<<20))
	if n != 50000 || len(s.Diagnostics) != 1 || s.Diagnostics[0].Code != "too-many-urls" || s.Diagnostics[0].Range.Start.Line != 50003 {
		t.Errorf("%d entries, %v; want 50,000 and too-many-urls at line 50003", n, codes(s.Diagnostics))
	}
}

// manyURLs is a urlset of n URLs, each with every optional tag.
func manyURLs(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range n {
		fmt.Fprintf(&b, "<url><loc>https://www.example.org/products/item-%d.html</loc><lastmod>2025-06-%02dT10:00:00+00:00</lastmod><changefreq>weekly</changefreq><priority>0.%d</priority></url>\n", i, i%28+1, i%10)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

// TestHostileEntities: no external entity is fetched or read and no
// entity expanded (XXE, billion laughs, an entity no DOCTYPE declares):
// each reference is an error at its position and the value holding it is
// not read (a loc: the entry is dropped), while XML's five predefined
// entities and character references still read as what they stand for.
func TestHostileEntities(t *testing.T) {
	const site = "https://www.example.org/"
	const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://www.example.org/%s"/></entry></feed>`
	file := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "sitemap", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	tests := []struct {
		name, in string
		want     []string // URLs
		diags    []string // "line:col code", every entity one an error
	}{
		{"XXE", file("hostile-xxe.xml"), nil, []string{"2:1 doctype", "7:37 entity", "8:37 entity"}},
		{"billion laughs", file("hostile-laughs.xml"), nil, []string{"2:1 doctype", "15:37 entity"}},
		{"undeclared entity", urlset(`<url><loc>https://www.example.org/&nbsp;</loc></url><url><loc>https://www.example.org/b</loc></url>`),
			[]string{site + "b"}, []string{"1:95 entity"}},
		{"entity in lastmod: the date is not read", urlset(`<url><loc>https://www.example.org/a</loc><lastmod>&today;</lastmod></url>`),
			[]string{site + "a"}, []string{"1:111 entity"}},
		{"entity in an Atom href", fmt.Sprintf(atom, "&xxe;"), nil, []string{"1:86 entity"}},
		{"predefined entities and character references", urlset(`<url><loc>https://www.example.org/?a=1&amp;b=&lt;&gt;&quot;&apos;&#65;&#x42;</loc></url>`),
			[]string{site + `?a=1&b=<>"'AB`}, nil},
		{"predefined in an Atom href", fmt.Sprintf(atom, "?a&amp;b&#x3D;c"), []string{site + "?a&b=c"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *Sitemap
			took, heap := measure(func() { s = Parse(strings.NewReader(tt.in), Options{URL: site + "sitemap.xml"}) })
			t.Logf("%v, peak heap %d KiB", took, heap>>10)
			if got := urls(s.Entries); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("entries %q, want %q", got, tt.want)
			}
			if got := codes(s.Diagnostics); !reflect.DeepEqual(got, tt.diags) {
				t.Errorf("diagnostics %q, want %q", got, tt.diags)
			}
			for _, d := range s.Diagnostics {
				if d.Code == "entity" && (d.Severity != grammar.Error || !strings.Contains(d.Summary, "never expanded")) {
					t.Errorf("%s: want an error saying the entity is never expanded", d.Error())
				}
			}
		})
	}
}

// TestHostileStructure: a file nested a million deep and one comment of
// 50 MB stop at their bounds, named.
func TestHostileStructure(t *testing.T) {
	deep := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + strings.Repeat("<a>", 1000000)
	s := Parse(strings.NewReader(deep), Options{})
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Code != "too-deep" || !strings.Contains(s.Diagnostics[0].Summary, "64") {
		t.Errorf("nested a million deep: %v", s.Diagnostics)
	}
	long := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><!--` + strings.Repeat("x", 3<<20) + "-->"
	var took time.Duration
	took, heap := measure(func() { s = Parse(strings.NewReader(long), Options{}) })
	t.Logf("a 3 MiB comment: %v, peak heap %.1f MiB", took, float64(heap)/(1<<20))
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Code != "token-too-long" || !strings.Contains(s.Diagnostics[0].Summary, "MaxToken") {
		t.Errorf("a 3 MiB comment: %v", s.Diagnostics)
	}
}

// TestHostileIndexFanOut: an index that lists 50,000 sitemaps which are
// all the same index again (under other query strings, so no two URLs are
// equal) is bounded by MaxFiles and MaxDepth; one that lists itself is
// read once.
func TestHostileIndexFanOut(t *testing.T) {
	slowtest.Only(t, "an index of 50,000 sitemaps")
	var hits atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/robots.txt" {
			fmt.Fprintf(w, "Sitemap: %s/index.xml\nSitemap: %s/self.xml\n", srv.URL, srv.URL)
			return
		}
		if r.URL.Path == "/self.xml" {
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/self.xml</loc></sitemap></sitemapindex>`, srv.URL)
			return
		}
		var b strings.Builder
		b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range 50000 {
			fmt.Fprintf(&b, "<sitemap><loc>%s/index.xml?n=%d</loc></sitemap>\n", srv.URL, i)
		}
		b.WriteString("</sitemapindex>")
		io.WriteString(w, b.String())
	}))
	defer srv.Close()
	f := &Fetcher{MaxFiles: 50}
	var d *Discovery
	took, heap := measure(func() {
		d = f.Discover(context.Background(), srv.URL, staticLister{srv.URL + "/index.xml", srv.URL + "/self.xml"})
		for range d.All() {
		}
	})
	t.Logf("index fan-out: %d requests, %v, peak heap %.1f MiB; %s", hits.Load(), took, float64(heap)/(1<<20), d.Stopped())
	if len(d.Files()) != 50 || !strings.Contains(d.Stopped(), "MaxFiles") {
		t.Errorf("%d files read, Stopped %q; want 50 and MaxFiles", len(d.Files()), d.Stopped())
	}
}

// staticLister lists the same sitemaps for every site.
type staticLister []string

func (l staticLister) Sitemaps(context.Context, string) ([]string, error) { return l, nil }
