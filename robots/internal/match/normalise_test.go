package match

import (
	"strings"
	"testing"
)

// FuzzNeedsNormRFCPath holds needsNormRFCPath, which tests a word at a
// time, to its definition, byte by byte.
func FuzzNeedsNormRFCPath(f *testing.F) {
	for _, s := range []string{"", "/", "/a%20b", "/abcdefgh$", "/abcdefghijklmnopq*", "/abcdefghij%41xyzw", "/\x80", "/abcdefghijklmnopqrstuvwxyz0123456789&", "#$%&'()*+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.ContainsAny(s, "%*$") || strings.IndexFunc(s, func(r rune) bool { return r >= 0x80 }) >= 0
		if got := NeedsNormRFCPath(s); got != want {
			t.Errorf("NeedsNormRFCPath(%q) = %v, want %v", s, got, want)
		}
		for n := range min(len(s), 18) + 1 {
			if got, want := needsNormRFCPrefix(s, n), NeedsNormRFCPath(s[:n]); got != want {
				t.Errorf("needsNormRFCPrefix(%q, %d) = %v, want %v", s, n, got, want)
			}
		}
	})
}

// FuzzNormRFC holds normRFC, which copies the bytes between the ones it
// may change as one run, to its definition, a byte at a time
// (normRFCBytes), for paths and patterns.
func FuzzNormRFC(f *testing.F) {
	for _, s := range []string{"", "/", "/a%20b", "/%41%7e%2f?%3A%2F%40%3f", "/abcdefgh$", "/abcdefghijklmnopq*x$", "/\x80\xff", "/abcdefghij?k=%2Fl%3Am", "%", "%4", "/abcdefgh%zz%4", "#$%&'()*+", "/\u043a\u043e?\u0442=1$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, path := range []bool{false, true} {
			if got, want := string(NormRFC(nil, s, path)), string(normRFCBytes(nil, s, path)); got != want {
				t.Errorf("NormRFC(%q, %v) = %q, want %q", s, path, got, want)
			}
			if got, want := string(NormRFC(nil, s, path)), RefNorm(RFC, s, path); got != want {
				t.Errorf("NormRFC(%q, %v) = %q, want %q (the reference)", s, path, got, want)
			}
		}
	})
}

// normRFCBytes is normRFC as it reads in its doc comment, a byte at a
// time.
func normRFCBytes(dst []byte, s string, path bool) []byte {
	query := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			hi, _ := unhex(s[i+1])
			lo, _ := unhex(s[i+2])
			v := hi<<4 | lo
			if isUnreserved(v) || query && strings.IndexByte(":/?@", v) >= 0 {
				dst = append(dst, v)
			} else {
				dst = append(dst, '%', upperHex[hi], upperHex[lo])
			}
			i += 2
		case c >= 0x80:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		case path && c == '*':
			dst = append(dst, "%2A"...)
		case c == '$' && (path || i < len(s)-1):
			dst = append(dst, "%24"...)
		default:
			query = query || c == '?'
			dst = append(dst, c)
		}
	}
	return dst
}

// FuzzExtFieldOf holds extFieldOf, which tells a field by its length and
// one byte, to its definition: isSitemapField, then strings.EqualFold (as
// Line.FieldIs) with each other field's name.
func FuzzPathOf(f *testing.F) {
	for _, u := range []string{"", "/", "//", "http://a/b", "http://a", "//a/b?c#d", "a#b://c/d", "x:/y", "http:/a", "a://b?c", "?x", ";x", "http://a#b/c", "://", "a:/", ":/", "https://a/b?c#d", "https://", "http://a", "https:///x", "http://#/a", "https:/a", "HTTPS://a/b", "https://a;b/c",
		// '/', ';', '?' and '#' in a word the eight-byte test reads.
		"http://example.com;jsessionid=1/a", "https://example.com?q=12345", "https://example.com#top/a", "//example.org/abc"} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, url string) {
		p, s := PathOf(url)
		q, r := refPathOf(url)
		if p != q || s != r {
			t.Errorf("PathOf(%q) = %q, %v, want %q, %v", url, p, s, q, r)
		}
		if s {
			p = "/" + p
		}
		if want := refPath(url); p != want {
			t.Errorf("PathOf(%q) = %q, want %q (the reference, '/' put before)", url, p, want)
		}
	})
}

// refPathOf is pathOf as first written, step by step after Google's
// GetPathParamsQuery: FuzzPathOf holds the faster pathOf to it.
func refPathOf(url string) (path string, slash bool) {
	start := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		start = 2
	}
	indexAny3 := func(s string, from int) int { // the reference's own, byte by byte
		if i := strings.IndexAny(s[from:], "/?;"); i >= 0 {
			return from + i
		}
		return -1
	}
	early := indexAny3(url, start)
	proto := strings.Index(url[start:], "://")
	if proto >= 0 {
		proto += start
	}
	if early >= 0 && (proto < 0 || early < proto) {
		proto = -1
	}
	if proto < 0 {
		proto = start
	} else {
		proto += 3
	}
	ps := indexAny3(url, proto)
	if ps < 0 {
		return "/", false
	}
	end := len(url)
	if h := strings.IndexByte(url[start:], '#'); h >= 0 {
		h += start
		if h < ps {
			return "/", false
		}
		end = h
	}
	if url[ps] != '/' {
		return url[ps:end], true
	}
	return url[ps:end], false
}

// TestRareByte checks the byte a wildcard rule is tested for before it
// is searched for: the one of its segments the fewest paths hold, and
// none when all of them are in most paths.
func TestRareByte(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tail string
		want byte
		ok   bool
	}{
		{"?sort=", '?', true},
		{"/f-zoom-", 'z', true},
		{".pdf*x", 'x', true},
		{"/ld-", 'd', true},
		{"ILC-refresh", 'L', true},
		{"/rest/", 'r', false},
		{"*", 0, false},
		{"a\x01b", 0x01, true},
	}
	for _, tt := range tests {
		t.Run(tt.tail, func(t *testing.T) {
			if got, ok := rareByte(tt.tail); got != tt.want || ok != tt.ok {
				t.Errorf("rareByte(%q) = %q, %v, want %q, %v", tt.tail, got, ok, tt.want, tt.ok)
			}
		})
	}
}
