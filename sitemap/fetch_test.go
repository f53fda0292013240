package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/sitetxt/sitetxt/sitemap"
)

func urlset(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "  <url><loc>%s</loc></url>\n", l)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

func index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "  <sitemap><loc>%s</loc></sitemap>\n", l)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

// run runs a discovery and returns the URLs found ("path <- sitemap path")
// and the files in the order they ended.
func run(t *testing.T, s *sitetest.Site, d *sitemap.Discovery) ([]string, []*sitemap.File) {
	t.Helper()
	var found []string
	var files []*sitemap.File
	for u, f := range d.All() {
		if u != nil {
			found = append(found, strings.TrimPrefix(u.URL, s.URL)+" <- "+strings.TrimPrefix(u.Sitemap, s.URL))
		}
		if f != nil {
			files = append(files, f)
		}
	}
	return found, files
}

func client() *robots.Client {
	return &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "TestBot/1.0"}}
}

// TestDiscover follows robots.txt -> index -> gzip urlset -> text sitemap,
// with an index that lists itself and a nested index that lists a sitemap
// again and one that is missing: every URL once, every file once.
func TestDiscover(t *testing.T) {
	s := sitetest.New(t, map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\nSitemap: $SITE/sitemap_index.xml\nSitemap: $SITE/sitemaps/pages.xml.gz\n",
		"/sitemap_index.xml": index("$SITE/sitemaps/pages.xml.gz", "$SITE/sitemap_index.xml", "$SITE/sitemaps/nested.xml",
			"$SITE/sitemaps/more.txt"),
		"/sitemaps/pages.xml.gz": "gz:" + urlset("$SITE/", "$SITE/private/a", "$SITE/about"),
		"/sitemaps/nested.xml":   index("$SITE/sitemaps/pages.xml.gz", "$SITE/sitemaps/missing.xml"),
		"/sitemaps/more.txt":     "$SITE/private/b\n$SITE/about\n$SITE/news\n",
	})
	f := &sitemap.Fetcher{Fetcher: &fetch.Fetcher{UserAgent: "TestBot/1.0"}}
	d := f.Discover(context.Background(), s.URL+"/", client())
	found, files := run(t, s, d)
	want := []string{
		"/ <- /sitemaps/pages.xml.gz", "/private/a <- /sitemaps/pages.xml.gz", "/about <- /sitemaps/pages.xml.gz",
		"/private/b <- /sitemaps/more.txt", "/news <- /sitemaps/more.txt",
	}
	if !reflect.DeepEqual(found, want) {
		t.Errorf("found\n%q\nwant\n%q", found, want)
	}
	var names []string
	for _, f := range files {
		names = append(names, fmt.Sprintf("%s %v %d", strings.TrimPrefix(f.URL, s.URL), f.Format, f.URLs))
	}
	wantFiles := []string{"/sitemap_index.xml sitemapindex 4", "/sitemaps/pages.xml.gz urlset 3",
		"/sitemaps/nested.xml sitemapindex 2", "/sitemaps/missing.xml unknown 0", "/sitemaps/more.txt text 3"}
	if !reflect.DeepEqual(names, wantFiles) {
		t.Errorf("files\n%q\nwant\n%q", names, wantFiles)
	}
	for p, n := range s.Hits() {
		if n > 1 {
			t.Errorf("%s fetched %d times", p, n)
		}
	}
	var se *fetch.StatusError
	if !errors.As(files[3].Err, &se) || se.Code != 404 {
		t.Errorf("missing.xml: Err %v, want HTTP 404", files[3].Err)
	}
	if files[4].Repeated != 1 {
		t.Errorf("more.txt lists /about again: Repeated %d, want 1", files[4].Repeated)
	}
	if got := codesOf(files[0]); !reflect.DeepEqual(got, []string{"cycle"}) {
		t.Errorf("the index listing itself: %v, want a cycle", got)
	}
	if got := codesOf(files[2]); !reflect.DeepEqual(got, []string{"nested-index", "repeated-sitemap"}) {
		t.Errorf("the nested index: %v", got)
	}
	if d.Stopped() != "" {
		t.Errorf("Stopped() = %q", d.Stopped())
	}
}

func codesOf(f *sitemap.File) []string {
	var out []string
	for _, d := range f.Diagnostics {
		out = append(out, d.Code)
	}
	sort.Strings(out)
	return out
}

// TestDiscoverOrder: the pages of a file come in the order it lists them,
// each once (repeats within a file and across files are counted, not
// yielded), and stopping the loop after any page yields exactly the pages
// before it, whatever the discovery has read ahead (it looks pages up in
// batches).
func TestDiscoverOrder(t *testing.T) {
	var a, b []string
	for i := range 21 {
		a = append(a, fmt.Sprintf("$SITE/a/%d", i%13)) // 13 pages, 8 repeated
	}
	for i := range 10 {
		b = append(b, fmt.Sprintf("$SITE/%s/%d", []string{"a", "b"}[i%2], i)) // 5 of a's again
	}
	s := sitetest.New(t, map[string]string{
		"/index.xml": index("$SITE/a.xml", "$SITE/b.xml"),
		"/a.xml":     urlset(a...),
		"/b.xml":     urlset(b...),
	})
	var want []string
	for i := range 13 {
		want = append(want, fmt.Sprintf("/a/%d <- /a.xml", i))
	}
	for i := 1; i < 10; i += 2 {
		want = append(want, fmt.Sprintf("/b/%d <- /b.xml", i))
	}
	f := &sitemap.Fetcher{Fetcher: &fetch.Fetcher{UserAgent: "TestBot/1.0"}}
	found, files := run(t, s, f.Walk(context.Background(), nil, s.URL+"/index.xml"))
	if !reflect.DeepEqual(found, want) {
		t.Errorf("found\n%q\nwant\n%q", found, want)
	}
	if len(files) != 3 || files[1].Repeated != 8 || files[2].Repeated != 5 {
		t.Errorf("files %d, Repeated %d and %d; want 3 files, 8 and 5", len(files), files[1].Repeated, files[2].Repeated)
	}
	for _, stop := range []int{1, 7, 8, 9, 13, 14, 18} {
		var got []string
		for u := range f.Walk(context.Background(), nil, s.URL+"/index.xml").All() {
			if u != nil {
				got = append(got, strings.TrimPrefix(u.URL, s.URL)+" <- "+strings.TrimPrefix(u.Sitemap, s.URL))
				if len(got) == stop {
					break
				}
			}
		}
		if !reflect.DeepEqual(got, want[:stop]) {
			t.Errorf("stopping after %d pages: got\n%q\nwant\n%q", stop, got, want[:stop])
		}
	}
}

// TestDiscoverCutShort: a file whose body breaks off (a read error) still
// yields the pages read before the break, the last batch of them
// included, and records the error.
func TestDiscoverCutShort(t *testing.T) {
	var locs []string
	for i := range 5 {
		locs = append(locs, fmt.Sprintf("http://HOST/p/%d", i))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := strings.ReplaceAll(urlset(locs...), "HOST", r.Host)
		body = body[:strings.LastIndex(body, "</urlset>")]
		w.Header().Set("Content-Length", fmt.Sprint(len(body)+100)) // more than is sent: the read fails
		w.Write([]byte(body))
	}))
	defer srv.Close()
	f := &sitemap.Fetcher{Fetcher: &fetch.Fetcher{UserAgent: "TestBot/1.0"}}
	var got []string
	var files []*sitemap.File
	for u, file := range f.Walk(context.Background(), nil, srv.URL+"/sitemap.xml").All() {
		if u != nil {
			got = append(got, strings.TrimPrefix(u.URL, srv.URL))
		}
		if file != nil {
			files = append(files, file)
		}
	}
	want := []string{"/p/0", "/p/1", "/p/2", "/p/3", "/p/4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
	if len(files) != 1 || files[0].Err == nil {
		t.Errorf("files %d, want 1 with the read error", len(files))
	}
}

// TestDiscoverCycle: two indexes listing each other are each read once.
func TestDiscoverCycle(t *testing.T) {
	s := sitetest.New(t, map[string]string{
		"/robots.txt": "Sitemap: $SITE/a.xml\n",
		"/a.xml":      index("$SITE/b.xml", "$SITE/pages.xml"),
		"/b.xml":      index("$SITE/a.xml"),
		"/pages.xml":  urlset("$SITE/x"),
	})
	found, files := run(t, s, (&sitemap.Fetcher{}).Discover(context.Background(), s.URL, client()))
	if len(found) != 1 || len(files) != 3 || !reflect.DeepEqual(codesOf(files[1]), []string{"cycle", "nested-index"}) {
		t.Errorf("found %q, %d files, b.xml %v", found, len(files), codesOf(files[1]))
	}
}

// TestDiscoverGuess: a robots.txt with no Sitemap line, or none at all,
// sends the discovery to /sitemap.xml; its absence is no error.
func TestDiscoverGuess(t *testing.T) {
	for _, robots := range []string{"User-agent: *\nDisallow:\n", ""} {
		files := map[string]string{"/sitemap.xml": urlset("$SITE/a")}
		if robots != "" {
			files["/robots.txt"] = robots
		}
		s := sitetest.New(t, files)
		found, fs := run(t, s, (&sitemap.Fetcher{}).Discover(context.Background(), s.URL, client()))
		if len(found) != 1 || len(fs) != 1 || !fs[0].Guessed {
			t.Errorf("robots.txt %q: found %q, files %+v", robots, found, fs)
		}
	}
}

// TestDiscoverBounds: MaxFiles, MaxDepth and MaxTime stop the discovery,
// and say so, naming the bound.
func TestDiscoverBounds(t *testing.T) {
	files := map[string]string{"/robots.txt": "Sitemap: $SITE/index.xml\n"}
	var maps []string
	for i := range 10 {
		p := fmt.Sprintf("/s%d.xml", i)
		maps = append(maps, "$SITE"+p)
		files[p] = urlset(fmt.Sprintf("$SITE/page%d", i))
	}
	files["/index.xml"] = index(maps...)
	s := sitetest.New(t, files)
	d := (&sitemap.Fetcher{MaxFiles: 4}).Discover(context.Background(), s.URL, client())
	found, _ := run(t, s, d)
	if len(found) != 3 || !strings.Contains(d.Stopped(), "MaxFiles") {
		t.Errorf("MaxFiles 4: %d URLs, Stopped %q", len(found), d.Stopped())
	}

	s.SetDelay(100 * time.Millisecond)
	d = (&sitemap.Fetcher{MaxTime: 250 * time.Millisecond}).Discover(context.Background(), s.URL, client())
	found, _ = run(t, s, d)
	if len(found) >= 10 || !strings.Contains(d.Stopped(), "MaxTime") {
		t.Errorf("MaxTime: %d URLs, Stopped %q", len(found), d.Stopped())
	}

	deep := sitetest.New(t, map[string]string{
		"/robots.txt": "Sitemap: $SITE/1.xml\n",
		"/1.xml":      index("$SITE/2.xml"),
		"/2.xml":      index("$SITE/3.xml"),
		"/3.xml":      urlset("$SITE/x"),
	})
	_, fs := run(t, deep, (&sitemap.Fetcher{MaxDepth: 1}).Discover(context.Background(), deep.URL, client()))
	if len(fs) != 2 || !reflect.DeepEqual(codesOf(fs[1]), []string{"nested-index", "too-deep"}) ||
		!strings.Contains(fs[1].Diagnostics[1].Summary+fs[1].Diagnostics[0].Summary, "MaxDepth") {
		t.Errorf("MaxDepth 1: %d files, %q", len(fs), codesOf(fs[len(fs)-1]))
	}
}

// TestCrossSubmission: a sitemap on one host lists URLs of another, whose
// robots.txt names it ("Sitemaps & Cross Submits"); an index that lists a
// sitemap of a site that does not is not followed there.
func TestCrossSubmission(t *testing.T) {
	host := sitetest.New(t, map[string]string{})
	other := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\n"})
	host.Set("/robots.txt", "Sitemap: "+other.URL+"/maps/host.xml\n")
	other.Set("/maps/host.xml", urlset(host.URL+"/anywhere", other.URL+"/maps/page", other.URL+"/elsewhere"))
	other.Set("/maps/index.xml", index(host.URL+"/s.xml"))
	d := (&sitemap.Fetcher{}).Discover(context.Background(), host.URL, client())
	var got []string
	var diags []string
	for u, f := range d.All() {
		if u != nil {
			got = append(got, u.URL)
		}
		if f != nil {
			for _, d := range f.Diagnostics {
				diags = append(diags, d.Code)
			}
		}
	}
	want := []string{host.URL + "/anywhere", other.URL + "/maps/page"}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(diags, []string{"out-of-scope"}) {
		t.Errorf("cross-submitted: %q, %v; want %q and other's /elsewhere out of scope", got, diags, want)
	}

	d = (&sitemap.Fetcher{}).Walk(context.Background(), client(), other.URL+"/maps/index.xml")
	_, fs := run(t, other, d)
	if len(fs) != 1 || len(fs[0].Diagnostics) != 1 || fs[0].Diagnostics[0].Code != "out-of-scope" {
		t.Errorf("an index listing another site's sitemap: %d files, %v", len(fs), fs[0].Diagnostics)
	}
}

// TestDiscoverUnreachable: a robots.txt that cannot be fetched stops the
// discovery with an error.
func TestDiscoverUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	d := (&sitemap.Fetcher{}).Discover(context.Background(), srv.URL, client())
	n := 0
	for range d.All() {
		n++
	}
	if n != 0 || d.Err() == nil || !strings.Contains(d.Err().Error(), "503") {
		t.Errorf("%d events, Err %v; want none and the 503", n, d.Err())
	}
}
