package sitemap

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readBoth reads data with the fast path and without it, fails t where
// the two differ (entries, format, diagnostics, error), and returns how
// many entries the fast path read.
func readBoth(t *testing.T, data []byte, opts Options) int {
	t.Helper()
	read := func(opts Options) (*Sitemap, int) {
		rd := NewReader(bytes.NewReader(data), opts)
		s := readAll(rd)
		return s, rd.fast
	}
	fast, n := read(opts)
	opts.noFast = true
	slow, none := read(opts)
	if none != 0 {
		t.Errorf("with noFast the fast path read %d entries, want 0: the two reads would be one", none)
	}
	if fast.Format != slow.Format || !reflect.DeepEqual(fast.Err, slow.Err) {
		t.Errorf("fast path: format %v, error %v; encoding/xml: %v, %v", fast.Format, fast.Err, slow.Format, slow.Err)
	}
	if !reflect.DeepEqual(fast.Entries, slow.Entries) {
		t.Errorf("fast path entries differ from encoding/xml's:\n%s", diffEntries(fast.Entries, slow.Entries))
	}
	if !reflect.DeepEqual(fast.Diagnostics, slow.Diagnostics) {
		t.Errorf("fast path diagnostics %q\nencoding/xml's          %q", codes(fast.Diagnostics), codes(slow.Diagnostics))
		for i := range min(len(fast.Diagnostics), len(slow.Diagnostics)) {
			if f, s := fast.Diagnostics[i], slow.Diagnostics[i]; !reflect.DeepEqual(f, s) {
				t.Errorf("first difference:\n%+v\n%+v", *f, *s)
				break
			}
		}
	}
	return n
}

func diffEntries(a, b []*Entry) string {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return fmt.Sprintf("entry %d: %+v\nwant      %+v", i, *a[i], *b[i])
		}
	}
	return fmt.Sprintf("%d entries, want %d", len(a), len(b))
}

// TestFastPath reads entries the fast path takes and entries it must leave
// to encoding/xml, each both ways: the same entries, diagnostics and
// positions, and the fast path reads the entries it should.
func TestFastPath(t *testing.T) {
	const ns = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`
	u := func(loc string) string { return "<url><loc>" + loc + "</loc></url>" }
	ok := u("https://www.example.org/a")
	tests := []struct {
		name string
		in   string
		opts Options
		fast int // entries the fast path reads
	}{
		{"every field", string(manyURLs(3)), Options{}, 3},
		{"indented, CRLF", "<urlset " + ns + ">\r\n  <url>\r\n    <loc>https://www.example.org/a</loc>\r\n    <priority>0.5</priority>\r\n  </url>\r\n\r\n\t<url>\n<loc>\nhttps://www.example.org/b\n</loc>\n</url>\r</urlset>", Options{}, 2},
		{"a CR in a value", "<urlset " + ns + ">" + u("https://www.example.org/a\r") + ok + "</urlset>", Options{}, 1},
		{"predefined entities", "<urlset " + ns + ">" + u("https://www.example.org/?a=1&amp;b=&lt;&gt;&quot;&apos;") + "</urlset>", Options{}, 1},
		{"character reference", "<urlset " + ns + ">" + u("https://www.example.org/&#38;") + ok + "</urlset>", Options{}, 1},
		{"other entities", "<urlset " + ns + ">" + u("https://www.example.org/&nbsp;") + u("https://www.example.org/&") + ok + "</urlset>", Options{}, 1},
		{"attribute", "<urlset " + ns + `><url id="1"><loc>https://www.example.org/a</loc></url>` + ok + "</urlset>", Options{}, 1},
		{"comment", "<urlset " + ns + "><url><!-- x --><loc>https://www.example.org/a</loc></url><!-- y -->" + ok + "</urlset>", Options{}, 1},
		{"CDATA", "<urlset " + ns + "><url><loc><![CDATA[https://www.example.org/a]]></loc></url>" + ok + "</urlset>", Options{}, 1},
		{"extension", "<urlset " + ns + ` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>https://www.example.org/a</loc><image:image><image:loc>https://www.example.org/i.png</image:loc></image:image></url>` + ok + "</urlset>", Options{}, 1},
		{"not ASCII", "<urlset " + ns + ">" + u("https://www.example.org/é") + u("https://www.example.org/\xff") + ok + "</urlset>", Options{}, 1},
		{"control", "<urlset " + ns + ">" + u("https://www.example.org/\x01") + ok + "</urlset>", Options{}, 1},
		{"]]> in a value", "<urlset " + ns + ">" + u("https://www.example.org/]]>") + ok + "</urlset>", Options{}, 1},
		{"repeated and unknown children", "<urlset " + ns + "><url><loc>https://www.example.org/a</loc><loc>https://www.example.org/b</loc><foo>bar</foo><lastmod>2005</lastmod><lastmod>x</lastmod></url></urlset>", Options{}, 1},
		{"bad values", "<urlset " + ns + "><url><loc>/relative</loc></url><url><loc></loc></url><url><lastmod>2005</lastmod></url><url><loc>https://www.example.org/a</loc><priority>2</priority><changefreq>often</changefreq><lastmod>yesterday</lastmod></url></urlset>", Options{}, 4},
		{"empty element", "<urlset " + ns + "><url><loc/></url>" + ok + "</urlset>", Options{}, 1},
		{"a long value", "<urlset " + ns + ">" + u("https://www.example.org/"+strings.Repeat("a", 9000)) + ok + "</urlset>", Options{}, 1},
		{"a very long loc", "<urlset " + ns + ">" + u("https://www.example.org/"+strings.Repeat("a", 70000)) + ok + "</urlset>", Options{}, 1},
		{"white space in tags", "<urlset " + ns + "><url ><loc>https://www.example.org/a</loc ></url>" + ok + "</urlset>", Options{}, 1},
		{"prefixed", `<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://www.example.org/a</s:loc></s:url>` + ok + "</s:urlset>", Options{}, 1},
		{"default namespace of an extension", `<urlset xmlns="http://www.google.com/schemas/sitemap-image/1.1">` + ok + ok + "</urlset>", Options{}, 0},
		{"no namespace", "<urlset>" + ok + "</urlset>", Options{}, 1},
		{"self-closing root", "<urlset " + ns + "/>", Options{}, 0},
		{"sitemap in a urlset", "<urlset " + ns + "><sitemap><loc>https://www.example.org/s.xml</loc></sitemap>" + ok + "</urlset>", Options{}, 1},
		{"nested", "<urlset " + ns + "><url><loc>https://www.example.org/a<b>c</b></loc></url>" + ok + "</urlset>", Options{}, 1},
		{"mismatched end tag", "<urlset " + ns + ">" + ok + "<url><loc>https://www.example.org/b</lo></url>" + ok + "</urlset>", Options{}, 1},
		{"text between entries", "<urlset " + ns + ">" + ok + "junk" + ok + "</urlset>", Options{}, 1},
		{"unclosed", "<urlset " + ns + ">" + ok + "<url><loc>https://www.example.org/b</loc>", Options{}, 1},
		{"out of scope", "<urlset " + ns + ">" + u("https://www.example.org/a") + u("https://other.example/b") + "</urlset>", Options{URL: "https://www.example.org/sitemap.xml"}, 2},
		{"lenient", "<urlset " + ns + ">" + u("https://other.example/b") + "</urlset>", Options{URL: "https://www.example.org/sitemap.xml", Lenient: true}, 1},
		{"MaxURLs", "<urlset " + ns + ">" + ok + ok + ok + "</urlset>", Options{MaxURLs: 2}, 2},
		{"MaxSize in an entry", "<urlset " + ns + ">" + ok + ok + ok + "</urlset>", Options{MaxSize: 150}, 1},
		{"index", `<sitemapindex ` + ns + `><sitemap><loc>https://www.example.org/s1.xml</loc><lastmod>2025-01-01</lastmod><priority>1</priority></sitemap><url><loc>https://www.example.org/a</loc></url><sitemap><loc>https://www.example.org/s2.xml</loc></sitemap></sitemapindex>`, Options{URL: "https://www.example.org/sitemap.xml"}, 2},
		{"BOM and declaration", "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<urlset " + ns + ">\n" + ok + "\n</urlset>", Options{}, 1},
		{"DOCTYPE", `<!DOCTYPE urlset [<!ENTITY e "x">]>` + "<urlset " + ns + ">" + u("https://www.example.org/&e;") + ok + "</urlset>", Options{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := readBoth(t, []byte(tt.in), tt.opts); n != tt.fast {
				t.Errorf("the fast path read %d entries, want %d", n, tt.fast)
			}
			if n := readBoth(t, gzipped(t, []byte(tt.in)), tt.opts); n != tt.fast {
				t.Errorf("gzip: the fast path read %d entries, want %d", n, tt.fast)
			}
		})
	}
}

// TestFastPathFiles reads the testdata sitemaps and a 5,000-URL one both
// ways.
func TestFastPathFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "sitemap", "*.xml"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			readBoth(t, data, Options{URL: "https://www.example.org/sitemap.xml"})
		})
	}
	t.Run("5,000 URLs", func(t *testing.T) {
		// The fast path leaves to encoding/xml an entry cut by the end of
		// the 64 KiB buffer: one per buffer at most (13 here).
		data := manyURLs(5001)
		if n, want := readBoth(t, data, Options{URL: "https://www.example.org/sitemap.xml", MaxURLs: 5000}), 5000-len(data)/(64<<10)-1; n < want {
			t.Errorf("the fast path read %d entries, want at least %d", n, want)
		}
	})
}

// FuzzFastPath: on any input, the fast path gives what encoding/xml
// gives.
func FuzzFastPath(f *testing.F) {
	seeds(f, "*.xml")
	f.Add([]byte("<urlset>\r\n<url>\r<loc>http://a/&amp;</loc></url><url><loc>http://a/&#38;</loc><lastmod>2005</lastmod></url></urlset>"))
	f.Add([]byte("<sitemapindex><sitemap><loc>http://a/s</loc></sitemap>\n<sitemap><loc>http://a/]]></loc></sitemap></sitemapindex>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		readBoth(t, data, Options{URL: "http://a/s.xml", MaxURLs: 5, MaxSize: 4096})
	})
}

// TestPlainInScope checks the URLs the loc check keeps without parsing
// them against the full check, both ways, and that it takes the plain
// ones.
func TestPlainInScope(t *testing.T) {
	const base = "https://www.example.org/catalog/sitemap.xml"
	tests := []struct {
		base, loc string
		index     bool
		plain     bool // plainInScope takes it
	}{
		{base, "https://www.example.org/catalog/a", false, true},
		{base, "https://www.example.org/catalog/a?b=c&d=%2F#", false, false},
		{base, "https://www.example.org/catalog/a?b=c&d=%2F;x=(1)*+,!$'~_-.:@", false, true},
		{base, "https://www.example.org/catalog/%zz", false, false},
		{base, "https://www.example.org/catalog/%4", false, false},
		{base, "https://www.example.org/catalog/a b", false, false},
		{base, "https://www.example.org/catalog/é", false, false},
		{base, "https://www.example.org/other/a", false, false},
		{base, "https://www.example.org/other/a", true, true},
		{base, "https://www.example.org/catalog/?q=/other", false, true},
		{base, "https://www.example.org/other?q=/catalog/", false, false},
		{base, "https://www.example.org", false, false},
		{base, "https://www.example.org:443/catalog/a", false, false},
		{base, "HTTPS://www.example.org/catalog/a", false, false},
		{base, "https://www.example.org.evil/catalog/a", false, false},
		{base, "https://www.example.org/catalog/a[1]", false, false},
		{"http://127.0.0.1:8080/s.xml", "http://127.0.0.1:8080/a", false, true},
		{"http://[::1]:8080/s.xml", "http://[::1]:8080/a", false, true},
		{"http://[fe80::1%25en0]/s.xml", "http://[fe80::1%en0]/a", false, false},
		{"ftp://www.example.org/s.xml", "ftp://www.example.org/a", false, false},
		{"", "https://www.example.org/a", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.loc, func(t *testing.T) {
			if got := newScope(&Options{URL: tt.base}).plainInScope(tt.loc, tt.index); got != tt.plain {
				t.Errorf("plainInScope(%q) under %s = %v, want %v", tt.loc, tt.base, got, tt.plain)
			}
			checkLocBothWays(t, tt.base, tt.loc, tt.index)
		})
	}
}

// checkLocBothWays fails t when Reader.loc gives another answer or
// diagnostics with plainInScope than without.
func checkLocBothWays(t *testing.T, base, loc string, index bool) {
	t.Helper()
	type answer struct {
		url       string
		kept, out bool
		diags     []string
	}
	check := func(noFast bool) answer {
		r := NewReader(nil, Options{URL: base, noFast: noFast})
		u, kept, out := r.loc(loc, fileStart, "loc", false, index)
		var diags []string
		for _, d := range r.Diagnostics() {
			diags = append(diags, d.Code+": "+d.Summary)
		}
		return answer{u, kept, out, diags}
	}
	if fast, full := check(false), check(true); !reflect.DeepEqual(fast, full) {
		t.Errorf("loc(%q) under %s: %+v with plainInScope, %+v without", loc, base, fast, full)
	}
}

// FuzzPlainInScope: for any URL, the loc check answers the same with
// plainInScope and without.
func FuzzPlainInScope(f *testing.F) {
	for _, s := range []string{"https://www.example.org/catalog/a?b=%20", "https://www.example.org/x", "http://127.0.0.1:8080/a/b;c"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, loc string, index bool) {
		for _, base := range []string{"https://www.example.org/catalog/sitemap.xml", "http://127.0.0.1:8080/s.xml", "http://[::1]:8080/d/s.xml"} {
			checkLocBothWays(t, base, loc, index)
		}
	})
}

// TestPlainText checks the fast path's test of a value's text, word by
// word, where what it looks for falls across the words.
func TestPlainText(t *testing.T) {
	tests := []struct {
		in     string
		ok, lf bool
	}{
		{"", true, false},
		{"https://www.example.org/a", true, false},
		{"https://www.example.org/?a=1&amp;b=2&lt;&gt;&quot;&apos;", true, false},
		{"1234567&amp;", true, false},
		{"12345678&amp", false, false},
		{"1234567]]>", false, false},
		{"123456]]>", false, false},
		{"12345678]>]]", true, false},
		{"\thttps://www.example.org/a\n", true, true},
		{"https://www.example.org/a\r", false, false},
		{"https://www.example.org/\x7f", true, false},
		{"https://www.example.org/\x1f", false, false},
		{"https://www.example.org/é", false, false},
		{"https://www.example.org/&#38;", false, false},
		{"https://www.example.org/&nbsp;", false, false},
	}
	for _, tt := range tests {
		if ok, lf := plainText([]byte(tt.in)); ok != tt.ok || lf != tt.lf {
			t.Errorf("plainText(%q) = %v, %v; want %v, %v", tt.in, ok, lf, tt.ok, tt.lf)
		}
	}
}
