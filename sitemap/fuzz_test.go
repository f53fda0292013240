package sitemap

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// seeds adds the testdata sitemaps whose names match to f.
func seeds(f *testing.F, pattern string) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "sitemap", pattern))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkSitemap checks what holds for any input: every entry is an
// absolute http(s) URL, positions lie inside the input, diagnostics are
// sorted, nothing was expanded beyond what replacing bytes with U+FFFD
// costs, and the limits hold.
func checkSitemap(t *testing.T, data []byte, opts Options) *Sitemap {
	s := Parse(bytes.NewReader(data), opts)
	if s.Err != nil {
		t.Fatalf("a bytes.Reader gave the error %v", s.Err)
	}
	gz := len(data) > 1 && data[0] == 0x1f && data[1] == 0x8b
	for _, e := range s.Entries {
		u, err := url.Parse(e.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			t.Errorf("entry %q is not an absolute http(s) URL (%v)", e.URL, err)
		}
		if !gz && (e.Pos.Line < 1 || e.Pos.Offset > len(data)) {
			t.Errorf("entry %q at %+v, outside the %d-byte input", e.URL, e.Pos, len(data))
		}
		if !gz && len(e.URL) > 3*len(data) {
			t.Errorf("entry of %d bytes from %d bytes of input: something was expanded", len(e.URL), len(data))
		}
		if s.Format == Unknown {
			t.Errorf("entry %q in a file of unknown format", e.URL)
		}
	}
	if len(s.Entries) > opts.maxURLs() {
		t.Errorf("%d entries, over MaxURLs", len(s.Entries))
	}
	for i, d := range s.Diagnostics {
		if d.Range.Start.Line < 1 || (!gz && d.Range.Start.Offset > len(data)) {
			t.Errorf("diagnostic %q at %+v, outside the input", d.Summary, d.Range.Start)
		}
		if i > 0 && s.Diagnostics.Less(i, i-1) {
			t.Errorf("diagnostics out of order: %v before %v", s.Diagnostics[i-1], d)
		}
	}
	return s
}

// FuzzXML fuzzes the XML reader (urlset, sitemapindex, and what is not a
// sitemap), with a small URL limit so the limit is reached too.
func FuzzXML(f *testing.F) {
	seeds(f, "*.xml")
	f.Add([]byte(`<urlset><url><loc>http://a/&amp;&#x26;&bogus;&</loc><lastmod>2005</lastmod></url></urlset>`))
	f.Add([]byte(`<!DOCTYPE x [<!ENTITY a "<!-- > -->">]><urlset><url><loc>http://a/</loc></url></urlset>`))
	f.Add([]byte("<urlset><url><loc>http://a/\x00\xff</loc></url><url><loc>]]></loc></url></urlset>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSitemap(t, data, Options{URL: "http://a/s.xml", MaxURLs: 5})
		checkSitemap(t, data, Options{Lenient: true})
	})
}

// FuzzText fuzzes the text reader: each URL it gives stands on its line
// as written.
func FuzzText(f *testing.F) {
	seeds(f, "*.text")
	f.Add([]byte("http://a/1\r\nhttp://a/2\rhttp://a/3\n\n \thttp://a/4 \n\xef\xbb\xbfhttp://a/5"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 0 && (data[0] == '<' || data[0] == 0x1f) {
			return // XML or gzip
		}
		s := checkSitemap(t, data, Options{MaxURLs: 5})
		if s.Format != Text && s.Format != Unknown {
			return
		}
		for _, e := range s.Entries {
			line := data[e.Pos.Offset:]
			if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
				line = line[:i]
			}
			if strings.TrimSpace(string(line)) != e.URL {
				t.Errorf("entry %q at %v, where the line is %q", e.URL, e.Pos, line)
			}
		}
	})
}

// FuzzFeed fuzzes the RSS and Atom readers.
func FuzzFeed(f *testing.F) {
	seeds(f, "feed.*")
	f.Add([]byte(`<rss><channel><item><guid isPermaLink="false">x</guid><link> /a </link><pubDate>Mon, 2 Jan 06 15:04:05 PST</pubDate></item></channel></rss>`))
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><link rel="alternate" href="b"/><updated>2005-01-01T00:00Z</updated></entry></feed>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSitemap(t, data, Options{URL: "https://a.example/feeds/f.xml", MaxURLs: 5})
	})
}

// FuzzDate: a date that parses prints as a date that parses to the same
// instant and precision (a time to the minute prints with its seconds).
func FuzzDate(f *testing.F) {
	for _, s := range []string{"1997", "1997-07", "1997-07-16", "1997-07-16T19:20+01:00", "1997-07-16T19:20:30.45Z", "1997-07-16 19:20:30", "2000-02-29T23:59:59-0130", "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00", "1600-02-29T12:00:00.123456789+14:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, _, ok := ParseDate(s)
		if !ok {
			return
		}
		back, note, ok := ParseDate(d.String())
		prec := d.Precision
		if prec == Minute {
			prec = Second
		}
		if !ok || note != "" || !back.Time.Equal(d.Time) || back.Precision != prec {
			t.Errorf("ParseDate(%q) = %s, which reads back as %s (%v, %q)", s, d, back, ok, note)
		}
		// The standard library reads the same instant from the forms it knows.
		layout := time.RFC3339Nano
		if d.Precision <= Day {
			layout = "2006-01-02"
		}
		if want, err := time.Parse(layout, strings.TrimSpace(s)); err == nil && !want.Equal(d.Time) {
			t.Errorf("ParseDate(%q) = %s, time.Parse reads %s", s, d, want.UTC().Format(time.RFC3339Nano))
		}
	})
}

// FuzzDecimal: a priority parseDecimal reads is the number
// strconv.ParseFloat reads.
func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"0.8", "1.0", ".5", "1", "1.", "0.123456789012345", "999999999999999", "0.1234567890123456", "1e-1", "-0.5", "0x1p-2", ".", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseDecimal([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if ok && (err != nil || got != want) {
			t.Errorf("parseDecimal(%q) = %v, ParseFloat gives %v (%v)", s, got, want, err)
		}
	})
}
