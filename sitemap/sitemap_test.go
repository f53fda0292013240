package sitemap

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/grammar"
)

// readFile parses testdata/sitemap/name as found at base.
func readFile(t *testing.T, name, base string) *Sitemap {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "sitemap", name))
	if err != nil {
		t.Fatal(err)
	}
	return Parse(bytes.NewReader(data), Options{URL: base})
}

func urls(es []*Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.URL)
	}
	return out
}

// codes lists the diagnostics as "line:col code".
func codes(ds grammar.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%d %s", d.Range.Start.Line, d.Range.Start.Column, d.Code))
	}
	return out
}

func gzipped(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// TestFormats reads one example of every format the protocol lists
// ("XML tag definitions", "Using Sitemap index files", "Other Sitemap
// formats") and the common extensions.
func TestFormats(t *testing.T) {
	const base = "https://www.example.org/sitemap.xml"
	t.Run("urlset", func(t *testing.T) {
		s := readFile(t, "urlset.xml", base)
		if s.Format != URLSet || len(s.Entries) != 5 || len(s.Diagnostics) != 0 {
			t.Fatalf("Format %v, %d entries, diagnostics %v; want urlset, 5, none", s.Format, len(s.Entries), codes(s.Diagnostics))
		}
		e := s.Entries[0]
		if e.URL != "https://www.example.org/" || e.LastMod.String() != "2024-03-01" || e.ChangeFreq != Daily || !e.HasPriority || e.Priority != 1 || e.Pos != (grammar.Pos{Offset: 102, Line: 3, Column: 3}) {
			t.Errorf("first entry %+v", *e)
		}
		// "All data values in a Sitemap must be entity-escaped": &amp; reads as &.
		if got := s.Entries[1].URL; got != "https://www.example.org/catalog?item=12&desc=vacation_hawaii" {
			t.Errorf("entity-escaped loc = %q", got)
		}
		if got := s.Entries[3].LastMod.String(); got != "2023-12-23T18:00:15Z" {
			t.Errorf("lastmod with a time = %q", got)
		}
		if e := s.Entries[1]; !e.LastMod.IsZero() || e.HasPriority {
			t.Errorf("absent optional tags: %+v", *e)
		}
	})
	t.Run("gzip", func(t *testing.T) {
		data, _ := os.ReadFile("../testdata/sitemap/urlset.xml")
		plain := Parse(bytes.NewReader(data), Options{URL: base})
		gz := Parse(bytes.NewReader(gzipped(t, data)), Options{URL: base + ".gz"})
		if !reflect.DeepEqual(urls(plain.Entries), urls(gz.Entries)) || gz.Format != URLSet || gz.Entries[2].Pos != plain.Entries[2].Pos {
			t.Errorf("gzip urlset: %v, %v; want what the plain file gives, at the same positions", gz.Format, urls(gz.Entries))
		}
		txt, _ := os.ReadFile("../testdata/sitemap/urls.text")
		if s := Parse(bytes.NewReader(gzipped(t, txt)), Options{URL: base}); s.Format != Text || len(s.Entries) != 4 {
			t.Errorf("gzip text sitemap: %v, %d entries", s.Format, len(s.Entries))
		}
	})
	t.Run("index", func(t *testing.T) {
		s := readFile(t, "index.xml", base)
		want := []string{"https://www.example.org/sitemap1.xml.gz", "https://www.example.org/sitemap2.xml.gz"}
		if s.Format != Index || !reflect.DeepEqual(urls(s.Entries), want) || s.Entries[0].LastMod.String() != "2024-10-01T18:23:17Z" {
			t.Errorf("index: %v %v", s.Format, urls(s.Entries))
		}
	})
	t.Run("text", func(t *testing.T) {
		s := readFile(t, "urls.text", base)
		want := []string{"https://www.example.org/catalog?item=1", "https://www.example.org/catalog?item=11",
			"https://www.example.org/about", "https://www.example.org/%C3%A9t%C3%A9"}
		if s.Format != Text || !reflect.DeepEqual(urls(s.Entries), want) || len(s.Diagnostics) != 0 {
			t.Fatalf("text: %v %v %v", s.Format, urls(s.Entries), codes(s.Diagnostics))
		}
		if p := s.Entries[3].Pos; p.Line != 5 || p.Column != 1 {
			t.Errorf("fourth URL at %v, want 5:1 (after a blank line)", p)
		}
	})
	for _, tt := range []struct {
		file    string
		format  Format
		want    []string
		lastmod string // of the second entry, in UTC
	}{
		{"feed.rss.xml", RSS, []string{"https://www.example.org/news/first", "https://www.example.org/news/second"}, "2025-06-11T07:30:00Z"},
		{"feed.atom.xml", Atom, []string{"https://www.example.org/page", "https://www.example.org/another"}, "2025-06-09T06:00:00Z"},
	} {
		t.Run(tt.format.String(), func(t *testing.T) {
			s := readFile(t, tt.file, base)
			if s.Format != tt.format || !reflect.DeepEqual(urls(s.Entries), tt.want) {
				t.Fatalf("%s: %v %v %v", tt.file, s.Format, urls(s.Entries), codes(s.Diagnostics))
			}
			if got := s.Entries[1].LastMod.String(); got != tt.lastmod {
				t.Errorf("%s: second lastmod = %q, want %q", tt.file, got, tt.lastmod)
			}
		})
	}
	t.Run("extensions", func(t *testing.T) {
		s := readFile(t, "extensions.xml", base)
		if len(s.Entries) != 3 || len(s.Diagnostics) != 0 {
			t.Fatalf("%d entries, %v", len(s.Entries), codes(s.Diagnostics))
		}
		e := s.Entries[0]
		wantAlt := []Alternate{{"de", "https://www.example.org/deutsch/page.html"}, {"en", "https://www.example.org/english/page.html"}}
		if !reflect.DeepEqual(e.Alternates, wantAlt) || len(e.Images) != 2 || e.Images[0].Caption != "A dog on a beach" || e.Images[1].Loc != "https://www.example.org/photo.jpg" {
			t.Errorf("hreflang and images: %+v %+v", e.Alternates, e.Images)
		}
		v := s.Entries[1].Videos
		if len(v) != 1 || v[0].Title != "Grilling steaks for summer" || v[0].Duration != "600" || v[0].ContentLoc != "https://www.example.org/video123.mp4" {
			t.Errorf("video: %+v", v)
		}
		n := s.Entries[2].News
		if n == nil || n.Name != "The Example Times" || n.Language != "en" || n.PublicationDate != "2025-06-10" || n.Title != "Companies A, B in merger talks" {
			t.Errorf("news: %+v", n)
		}
	})
}

// base is where the rules' sitemap is found.
const base = "https://www.example.org/catalog/sitemap.xml"

// urlset wraps entries in a urlset of the protocol's namespace.
func urlset(body string) string {
	return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + body + `</urlset>`
}

// ruleTests are the protocol's rules, one case each, with the diagnostic
// and whether the entry is kept (TestRules).
var ruleTests = []struct {
	name, rule string
	in         string
	opts       Options
	want       []string // URLs kept
	diags      []string // "line:col code"
}{
	{"absolute loc", "loc: URL of the page. This URL must begin with the protocol (such as http)",
		urlset(`<url><loc>/catalog/a</loc></url><url><loc>https://www.example.org/catalog/b</loc></url>`), Options{},
		[]string{"https://www.example.org/catalog/b"}, []string{"1:66 loc-invalid"}},
	{"missing loc", "Include a <loc> child entry for each <url> parent tag",
		urlset(`<url><lastmod>2005-01-01</lastmod></url>`), Options{}, nil, []string{"1:61 no-loc"}},
	{"empty loc", "Include a <loc> child entry for each <url> parent tag",
		urlset(`<url><loc>  </loc></url>`), Options{}, nil, []string{"1:66 no-loc", "1:66 space"}},
	{"white space around loc", "(trimmed, as every crawler does)",
		urlset("<url><loc>\n  https://www.example.org/catalog/a \n</loc></url>"), Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:66 space"}},
	{"entity-escaped", "All data values in a Sitemap must be entity-escaped",
		urlset(`<url><loc>https://www.example.org/catalog/?a=1&amp;b=&quot;2&quot;&#39;&#x26;</loc></url>`), Options{},
		[]string{`https://www.example.org/catalog/?a=1&b="2"'&`}, nil},
	{"unescaped ampersand", "All data values in a Sitemap must be entity-escaped",
		urlset(`<url><loc>https://www.example.org/catalog/?a=1&b=2</loc></url>`), Options{},
		[]string{"https://www.example.org/catalog/?a=1&b=2"}, []string{"1:107 ampersand"}},
	{"undefined entity", "(an entity XML does not predefine is an error: the entry is dropped)",
		urlset(`<url><loc>https://www.example.org/catalog/&nbsp;</loc></url>`), Options{},
		nil, []string{"1:103 entity"}},
	{"other host", "all URLs in a Sitemap must be from a single host",
		urlset(`<url><loc>https://shop.example.org/catalog/a</loc></url>`), Options{URL: base}, nil, []string{"1:66 out-of-scope"}},
	{"other scheme", "all URLs in a Sitemap must be from a single host (and scheme)",
		urlset(`<url><loc>http://www.example.org/catalog/a</loc></url>`), Options{URL: base}, nil, []string{"1:66 out-of-scope"}},
	{"other port", "each URL listed in the Sitemap must begin with http://www.example.com:100",
		urlset(`<url><loc>https://www.example.org:8443/catalog/a</loc></url>`), Options{URL: base}, nil, []string{"1:66 out-of-scope"}},
	{"default port", "(https://host:443/ is https://host/)",
		urlset(`<url><loc>https://WWW.example.org:443/catalog/a</loc></url>`), Options{URL: base},
		[]string{"https://WWW.example.org:443/catalog/a"}, nil},
	{"internationalised host, fetched in Punycode", "(one site however its name is spelt: the sitemap is fetched from the Punycode name)",
		urlset(`<url><loc>https://bücher.example/catalog/a</loc></url>`), Options{URL: "https://xn--bcher-kva.example/catalog/sitemap.xml"},
		[]string{"https://bücher.example/catalog/a"}, []string{"1:66 loc-escape"}},
	{"internationalised host, listed in Punycode", "(one site however its name is spelt)",
		urlset(`<url><loc>https://xn--bcher-kva.example/catalog/a</loc></url>`), Options{URL: "https://Bücher.example/catalog/sitemap.xml"},
		[]string{"https://xn--bcher-kva.example/catalog/a"}, nil},
	{"another internationalised host", "all URLs in a Sitemap must be from a single host",
		urlset(`<url><loc>https://xn--bcher-kva.example/catalog/a</loc></url>`), Options{URL: "https://böcher.example/catalog/sitemap.xml"},
		nil, []string{"1:66 out-of-scope"}},
	{"an IPv4 address spelt another way", "(one address however it is written)",
		urlset(`<url><loc>http://127.1/catalog/a</loc></url>`), Options{URL: "http://127.0.0.1/catalog/sitemap.xml"},
		[]string{"http://127.1/catalog/a"}, nil},
	{"outside the directory", "A Sitemap file located at http://example.com/catalog/sitemap.xml can include any URLs starting with http://example.com/catalog/ but can not include URLs starting with http://example.com/images/",
		urlset(`<url><loc>https://www.example.org/images/a</loc></url><url><loc>https://www.example.org/catalog/b</loc></url>`), Options{URL: base},
		[]string{"https://www.example.org/catalog/b"}, []string{"1:66 out-of-scope"}},
	{"lenient keeps", "(crawler-commons' non-strict mode)",
		urlset(`<url><loc>https://www.example.org/images/a</loc></url>`), Options{URL: base, Lenient: true},
		[]string{"https://www.example.org/images/a"}, []string{"1:66 out-of-scope"}},
	{"cross-submission", "modifying the robots.txt file on www.host1.com to point to the Sitemap on www.sitemaphost.com",
		urlset(`<url><loc>https://host1.example/any/page</loc></url><url><loc>https://host2.example/x</loc></url>`),
		Options{URL: base, Cross: func(o string) bool { return o == "https://host1.example" }},
		[]string{"https://host1.example/any/page"}, []string{"1:118 out-of-scope"}},
	{"robots.txt names it: any directory", "(a Sitemap line of the site's own robots.txt)",
		urlset(`<url><loc>https://www.example.org/images/a</loc></url>`),
		Options{URL: base, Cross: func(o string) bool { return o == "https://www.example.org" }},
		[]string{"https://www.example.org/images/a"}, nil},
	{"priority out of range", "Valid values range from 0.0 to 1.0",
		urlset(`<url><loc>https://www.example.org/catalog/a</loc><priority>1.5</priority></url><url><loc>https://www.example.org/catalog/b</loc><priority>high</priority></url>`), Options{},
		[]string{"https://www.example.org/catalog/a", "https://www.example.org/catalog/b"}, []string{"1:110 priority", "1:189 priority"}},
	{"bad lastmod", "This date should be in W3C Datetime format",
		urlset(`<url><loc>https://www.example.org/catalog/a</loc><lastmod>01/02/2005</lastmod></url>`), Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:110 lastmod"}},
	{"lastmod without zone", "(W3C Datetime needs a zone with a time; read as UTC)",
		urlset(`<url><loc>https://www.example.org/catalog/a</loc><lastmod>2005-01-01T10:00:00</lastmod></url>`), Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:110 lastmod-format"}},
	{"bad changefreq", "Valid values are: always hourly daily weekly monthly yearly never",
		urlset(`<url><loc>https://www.example.org/catalog/a</loc><changefreq>often</changefreq></url>`), Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:110 changefreq"}},
	{"loc too long", "This value must be less than 2,048 characters",
		urlset(`<url><loc>https://www.example.org/catalog/` + strings.Repeat("a", 2048) + `</loc></url>`), Options{},
		[]string{"https://www.example.org/catalog/" + strings.Repeat("a", 2048)}, []string{"1:66 loc-too-long"}},
	{"URL-escaped", "all URLs must be URL-escaped",
		urlset(`<url><loc>https://www.example.org/catalog/a b</loc></url>`), Options{},
		[]string{"https://www.example.org/catalog/a b"}, []string{"1:66 loc-escape"}},
	{"index in a urlset", "Sitemap index files may only list Sitemaps; a urlset lists pages",
		urlset(`<sitemap><loc>https://www.example.org/s.xml</loc></sitemap>`), Options{}, nil, []string{"1:61 index-entry", "1:120 empty"}},
	{"index: another site", "A Sitemap index file can only specify Sitemaps that are found on the same site",
		`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.org/other/s.xml</loc></sitemap><sitemap><loc>https://evil.example/s.xml</loc></sitemap></sitemapindex>`,
		Options{URL: base}, []string{"https://www.example.org/other/s.xml"}, []string{"1:141 out-of-scope"}},
	{"no namespace", "Specify the namespace (protocol standard) within the <urlset> tag",
		`<urlset><url><loc>https://www.example.org/catalog/a</loc></url></urlset>`, Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:1 namespace"}},
	{"BOM", "The file itself must be UTF-8 encoded (a BOM is skipped)",
		"\xEF\xBB\xBF" + urlset(`<url><loc>https://www.example.org/catalog/a</loc></url>`), Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:1 bom"}},
	{"not UTF-8", "The file itself must be UTF-8 encoded",
		urlset("<url><loc>https://www.example.org/catalog/\xe9</loc></url>"), Options{},
		[]string{"https://www.example.org/catalog/\uFFFD"}, []string{"1:66 loc-escape", "1:103 utf8"}},
	{"DOCTYPE", "(no DTD is read)",
		`<!DOCTYPE urlset [<!ENTITY e "x">]>` + urlset(`<url><loc>https://www.example.org/catalog/&e;</loc></url>`), Options{},
		nil, []string{"1:1 doctype", "1:138 entity"}},
	{"text: one URL per line", "The text file must have one URL per line",
		"https://www.example.org/catalog/a\n\n  https://www.example.org/catalog/b\t\nnot a URL\r\nhttps://www.example.org/catalog/c", Options{URL: base},
		[]string{"https://www.example.org/catalog/a", "https://www.example.org/catalog/b", "https://www.example.org/catalog/c"},
		[]string{"3:1 space", "4:1 loc-invalid"}},
	{"text: UTF-8", "The text file must use UTF-8 encoding",
		"https://www.example.org/catalog/\xe9\nhttps://www.example.org/catalog/b", Options{},
		[]string{"https://www.example.org/catalog/b"}, []string{"1:1 utf8"}},
	{"text: BOM", "(a BOM is skipped)",
		"\xEF\xBB\xBFhttps://www.example.org/catalog/a", Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:1 bom"}},
	{"text: other host", "(the location rules hold for every format)",
		"https://shop.example.org/catalog/a", Options{URL: base}, nil, []string{"1:1 out-of-scope"}},
	{"RSS: link", "the feed must provide full URLs in the <link> field",
		`<rss version="2.0"><channel><item><title>no link</title></item><item><link>https://www.example.org/catalog/a</link></item></channel></rss>`, Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:29 no-loc"}},
	{"RSS: relative link", "(resolved against the feed's URL, as crawler-commons does)",
		`<rss version="2.0"><channel><item><link>a</link></item></channel></rss>`, Options{URL: base},
		[]string{"https://www.example.org/catalog/a"}, nil},
	{"Atom: link href", "Atom: the <link href> field",
		`<feed xmlns="http://www.w3.org/2005/Atom"><entry><link rel="self" href="https://www.example.org/catalog/self"/></entry></feed>`, Options{},
		nil, []string{"1:43 no-loc"}},
	{"Atom 0.3: issued", "(Atom 0.3's <issued> is the lastmod of an entry without <modified>)",
		`<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" href="https://www.example.org/catalog/a"/><issued>x</issued></entry></feed>`, Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:125 lastmod"}},
	{"not a sitemap", "(an HTML page where a sitemap was expected)",
		"<!DOCTYPE html>\n<html><body>Not found</body></html>", Options{}, nil, []string{"1:1 doctype", "2:1 not-sitemap"}},
	{"not XML", "(an HTML page is not XML)",
		"<html lang=en><body>", Options{}, nil, []string{"1:1 not-xml"}},
	{"broken XML", "(what came before the error is kept)",
		urlset(`<url><loc>https://www.example.org/catalog/a</loc></url><url><loc>x</lo></url>`), Options{},
		[]string{"https://www.example.org/catalog/a"}, []string{"1:127 xml"}},
}

// TestRules runs ruleTests.
func TestRules(t *testing.T) {
	tests := ruleTests
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Parse(strings.NewReader(tt.in), tt.opts)
			if got := urls(s.Entries); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s\nentries %q, want %q", tt.rule, got, tt.want)
			}
			if got := codes(s.Diagnostics); !reflect.DeepEqual(got, tt.diags) {
				t.Errorf("%s\ndiagnostics %q, want %q", tt.rule, got, tt.diags)
				for _, d := range s.Diagnostics {
					t.Log(d.Error())
				}
			}
		})
	}
}

// TestMessy reads testdata/sitemap/messy.xml: each problem the issue
// names, with the entry kept or dropped and the reason.
func TestMessy(t *testing.T) {
	s := readFile(t, "messy.xml", "https://www.example.org/sitemap.xml")
	want := []string{"https://www.example.org/spaced", "https://www.example.org/search?q=a&b=c", "https://www.example.org/ok"}
	if got := urls(s.Entries); !reflect.DeepEqual(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	wantDiags := []string{"1:1 bom", "4:5 space", "7:5 priority", "8:5 lastmod", "9:5 changefreq", "11:3 no-loc",
		"12:47 ampersand", "13:8 out-of-scope", "14:8 loc-invalid", "15:45 lastmod-format"}
	if got := codes(s.Diagnostics); !reflect.DeepEqual(got, wantDiags) {
		t.Errorf("diagnostics %q\nwant %q", got, wantDiags)
		for _, d := range s.Diagnostics {
			t.Log(d.Error())
		}
	}
}

// TestUnixDay: the instant parseW3C computes for a day is the one
// time.Date gives, for every day of the years around the calendar's
// turning points (leap centuries, 1970, the first and last years).
func TestUnixDay(t *testing.T) {
	for _, years := range [][2]int{{1, 3}, {99, 101}, {399, 401}, {1599, 1601}, {1899, 1901}, {1968, 1972}, {1999, 2001}, {2099, 2101}, {2399, 2401}, {9997, 9999}} {
		for y := years[0]; y <= years[1]; y++ {
			for m := 1; m <= 12; m++ {
				for d := 1; d <= daysIn(y, m); d++ {
					want := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
					if got := unixDay(y, m, d); got != want.Unix() {
						t.Errorf("unixDay(%d, %d, %d) = %d, want %d", y, m, d, got, want.Unix())
					}
				}
				if got, want := daysIn(y, m), time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day(); got != want {
					t.Errorf("daysIn(%d, %d) = %d, want %d", y, m, got, want)
				}
			}
		}
	}
}

// TestDates reads every precision of W3C Datetime
// (https://www.w3.org/TR/NOTE-datetime) and the deviations sitemaps write.
func TestDates(t *testing.T) {
	tests := []struct {
		in, want string
		prec     Precision
		note     bool
	}{
		{"1997", "1997", Year, false},
		{"1997-07", "1997-07", Month, false},
		{"1997-07-16", "1997-07-16", Day, false},
		{"1997-07-16T19:20+01:00", "1997-07-16T18:20:00Z", Minute, false},
		{"1997-07-16T19:20:30+01:00", "1997-07-16T18:20:30Z", Second, false},
		{"1997-07-16T19:20:30.45+01:00", "1997-07-16T18:20:30.45Z", Second, false},
		{"1997-07-16T19:20:30.45Z", "1997-07-16T19:20:30.45Z", Second, false},
		{"1997-07-16T19:20:30-05:30", "1997-07-17T00:50:30Z", Second, false},
		{" 1997-07-16 ", "1997-07-16", Day, false},
		{"1997-07-16T19:20:30", "1997-07-16T19:20:30Z", Second, true},
		{"1997-07-16 19:20:30+00:00", "1997-07-16T19:20:30Z", Second, true},
		{"1997-07-16T19:20:30+0100", "1997-07-16T18:20:30Z", Second, true},
		{"1997-02-30", "", NoDate, false},
		{"1997-13", "", NoDate, false},
		{"1997-07-16T24:00Z", "", NoDate, false},
		{"1997-07-16T19Z", "", NoDate, false},
		{"97-07-16", "", NoDate, false},
		{"16/07/1997", "", NoDate, false},
		{"1997-07-16T19:20:30.Z", "", NoDate, false},
		{"", "", NoDate, false},
	}
	for _, tt := range tests {
		d, note, ok := ParseDate(tt.in)
		if d.String() != tt.want || d.Precision != tt.prec || ok != (tt.prec != NoDate) || (note != "") != tt.note {
			t.Errorf("ParseDate(%q) = %q (%v), note %q, %v; want %q (%v), note %v", tt.in, d, d.Precision, note, ok, tt.want, tt.prec, tt.note)
		}
	}
	rss := []struct{ in, want string }{
		{"Tue, 10 Jun 2025 04:00:00 GMT", "2025-06-10T04:00:00Z"},
		{"Tue, 10 Jun 2025 04:00:00 +0200", "2025-06-10T02:00:00Z"},
		{"10 Jun 2025 04:00:00 EST", "2025-06-10T09:00:00Z"},
		{"Tue, 1 Jun 25 04:00:00 PDT", "2025-06-01T11:00:00Z"},
		{"Tue, 10 Jun 2025 04:00 Z", "2025-06-10T04:00:00Z"},
	}
	for _, tt := range rss {
		d, ok := parseRFC822(tt.in)
		if !ok || d.String() != tt.want {
			t.Errorf("parseRFC822(%q) = %q, %v; want %q", tt.in, d, ok, tt.want)
		}
	}
	if _, ok := parseRFC822("yesterday"); ok {
		t.Error(`parseRFC822("yesterday") succeeded`)
	}
}

// TestLimits: "each Sitemap file that you provide must have no more than
// 50,000 URLs and must be no larger than 50MB (52,428,800 bytes)" and the
// same for indexes, text sitemaps, compressed files. What lies past a
// limit is reported, not read.
func TestLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range 5 {
		fmt.Fprintf(&b, "<url><loc>https://www.example.org/%d</loc></url>\n", i)
	}
	b.WriteString("</urlset>")
	xmlDoc := b.String()
	s := Parse(strings.NewReader(xmlDoc), Options{MaxURLs: 3})
	if len(s.Entries) != 3 || !reflect.DeepEqual(codes(s.Diagnostics), []string{"4:1 too-many-urls"}) {
		t.Errorf("MaxURLs 3: %d entries, %v", len(s.Entries), codes(s.Diagnostics))
	}
	if d := s.Diagnostics[0]; !strings.Contains(d.Summary, "MaxURLs") || !strings.Contains(d.Summary, "50,000") {
		t.Errorf("the limit's diagnostic does not name it: %s", d.Summary)
	}
	s = Parse(strings.NewReader(xmlDoc), Options{MaxSize: 150})
	if len(s.Entries) != 1 || !reflect.DeepEqual(codes(s.Diagnostics), []string{"2:43 too-large"}) || !strings.Contains(s.Diagnostics[0].Summary, "MaxSize") {
		t.Errorf("MaxSize 150: %d entries, %v", len(s.Entries), s.Diagnostics)
	}
	text := "https://www.example.org/1\nhttps://www.example.org/2\nhttps://www.example.org/3\n"
	s = Parse(strings.NewReader(text), Options{MaxURLs: 2})
	if len(s.Entries) != 2 || !reflect.DeepEqual(codes(s.Diagnostics), []string{"3:1 too-many-urls"}) {
		t.Errorf("text, MaxURLs 2: %d entries, %v", len(s.Entries), codes(s.Diagnostics))
	}
	s = Parse(strings.NewReader(text), Options{MaxSize: 30})
	if len(s.Entries) != 1 || !reflect.DeepEqual(codes(s.Diagnostics), []string{"2:1 too-large"}) {
		t.Errorf("text, MaxSize 30: %d entries, %v", len(s.Entries), codes(s.Diagnostics))
	}
	if s := Parse(strings.NewReader(text), Options{MaxSize: int64(len(text))}); len(s.Entries) != 3 || len(s.Diagnostics) != 0 {
		t.Errorf("a file of exactly MaxSize bytes: %d entries, %v", len(s.Entries), codes(s.Diagnostics))
	}
	// The uncompressed size counts, not the compressed one.
	gz := gzipped(t, []byte(xmlDoc))
	if s := Parse(bytes.NewReader(gz), Options{MaxSize: 150}); len(s.Entries) != 1 || !strings.Contains(s.Diagnostics[0].Summary, "uncompressed") {
		t.Errorf("gzip, MaxSize 150 (%d bytes compressed): %d entries, %v", len(gz), len(s.Entries), codes(s.Diagnostics))
	}
	// The compressed size is bounded too (gzip that gains nothing).
	noise := make([]byte, 400)
	rng := uint32(1)
	for i := range noise {
		rng = rng*1664525 + 1013904223
		noise[i] = byte(rng >> 24)
	}
	noise[0] = 'x' // a text sitemap, not XML
	if s := Parse(bytes.NewReader(gzipped(t, noise)), Options{MaxSize: 100}); len(s.Diagnostics) == 0 || !strings.Contains(s.Diagnostics[len(s.Diagnostics)-1].Summary, "as it arrived") {
		t.Errorf("gzip larger than MaxSize compressed: %v", s.Diagnostics)
	}
	s = Parse(strings.NewReader("https://www.example.org/"+strings.Repeat("a", 70000)+"\nhttps://www.example.org/b"), Options{})
	if !reflect.DeepEqual(urls(s.Entries), []string{"https://www.example.org/b"}) || s.Diagnostics[0].Code != "line-too-long" {
		t.Errorf("a 70 kB line: %v %v", urls(s.Entries), codes(s.Diagnostics))
	}
}

// TestStreaming checks that entries arrive as they are parsed: the first
// is yielded before the rest of the file is written.
func TestStreaming(t *testing.T) {
	for _, first := range []string{
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.org/a</loc></url>`,
		"https://www.example.org/a\n",
	} {
		pr, pw := io.Pipe()
		go func() {
			pw.Write([]byte(first))
		}()
		got := make(chan string)
		go func() {
			for e, err := range NewReader(pr, Options{}).Entries() {
				if err != nil {
					return
				}
				got <- e.URL
			}
			close(got)
		}()
		select {
		case u := <-got:
			if u != "https://www.example.org/a" {
				t.Errorf("first entry %q", u)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no entry before the end of the input (%.20q...)", first)
		}
		pw.Close()
		for range got {
		}
	}
}

// TestReadError: an error of the underlying reader is the iterator's
// error, not a diagnostic.
func TestReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("https://www.example.org/a\n"), errReader{})
	var n int
	var last error
	for e, err := range NewReader(r, Options{}).Entries() {
		if err != nil {
			last = err
			continue
		}
		n++
		_ = e
	}
	if n != 1 || last == nil || last.Error() != "connection reset" {
		t.Errorf("%d entries, error %v; want 1 and the reader's error", n, last)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, fmt.Errorf("connection reset") }

// TestAtomIssued reads Atom 0.3's <issued> as the lastmod of an entry
// without <modified> (or Atom 1.0's <updated>), and never over one.
func TestAtomIssued(t *testing.T) {
	entry := func(dates string) string {
		return `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link href="https://www.example.org/a"/>` + dates + `</entry></feed>`
	}
	tests := []struct{ name, dates, want string }{
		{"issued alone", `<issued>2004-05-06T07:08:09Z</issued>`, "2004-05-06T07:08:09Z"},
		{"modified wins", `<issued>2004-05-06T07:08:09Z</issued><modified>2005-01-02T03:04:05Z</modified>`, "2005-01-02T03:04:05Z"},
		{"modified first", `<modified>2005-01-02T03:04:05Z</modified><issued>2004-05-06T07:08:09Z</issued>`, "2005-01-02T03:04:05Z"},
		{"updated wins", `<updated>2006-01-02T03:04:05Z</updated><issued>2004-05-06T07:08:09Z</issued>`, "2006-01-02T03:04:05Z"},
		{"a bad modified is no fallback", `<modified>soon</modified><issued>2004-05-06T07:08:09Z</issued>`, ""},
		{"neither", `<created>2004-05-06T07:08:09Z</created>`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Parse(strings.NewReader(entry(tt.dates)), Options{})
			if len(s.Entries) != 1 {
				t.Fatalf("Parse(%q): %d entries, want 1", tt.dates, len(s.Entries))
			}
			got := ""
			if !s.Entries[0].LastMod.IsZero() {
				got = s.Entries[0].LastMod.String()
			}
			if got != tt.want {
				t.Errorf("Parse(%q) lastmod = %q, want %q", tt.dates, got, tt.want)
			}
		})
	}
}
