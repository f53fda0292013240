package fetch

import (
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/cache"
)

// TestManifestURLOneOrigin: every spelling of one origin gives one
// robots.txt URL (RFC 3986 section 6), so one cache key and one flight.
func TestManifestURLOneOrigin(t *testing.T) {
	tests := []struct{ page, want string }{
		{"http://127.0.0.1:018001/a", "http://127.0.0.1:18001/robots.txt"},
		{"http://127.0.0.1:18001/b", "http://127.0.0.1:18001/robots.txt"},
		{"http://127.0.0.1:0000018001/", "http://127.0.0.1:18001/robots.txt"},
		{"HTTP://Example.ORG./x", "http://example.org/robots.txt"},
		{"http://example.org:80/x", "http://example.org/robots.txt"},
		{"http://example.org:080/x", "http://example.org/robots.txt"},
		{"https://example.org:443/x", "https://example.org/robots.txt"},
		{"https://example.org:80/x", "https://example.org:80/robots.txt"},
		{"http://[0:0:0:0:0:0:0:1]:8080/", "http://[::1]:8080/robots.txt"},
		{"http://[::0001]:8080/", "http://[::1]:8080/robots.txt"},
		{"http://[2001:DB8::A]/", "http://[2001:db8::a]/robots.txt"},
		{"http://[::ffff:7f00:1]:80/", "http://127.0.0.1/robots.txt"},
		{"http://127.1:18001/", "http://127.0.0.1:18001/robots.txt"},
		{"http://0x7f.0.0.1:18001/", "http://127.0.0.1:18001/robots.txt"},
		{"http://0177.0.0.01:18001/", "http://127.0.0.1:18001/robots.txt"},
		{"http://2130706433:18001/", "http://127.0.0.1:18001/robots.txt"},
		{"http://127.000.000.001:18001/", "http://127.0.0.1:18001/robots.txt"},
		{"http://0x7f000001./", "http://127.0.0.1/robots.txt"},
		{"http://bücher.example/", "http://xn--bcher-kva.example/robots.txt"},
		{"http://BÜCHER.Example./", "http://xn--bcher-kva.example/robots.txt"},
		{"http://b%C3%BCcher.example/", "http://xn--bcher-kva.example/robots.txt"},
		{"http://XN--BCHER-KVA.example/", "http://xn--bcher-kva.example/robots.txt"},
		{"http://ｅｘａｍｐｌｅ．ｏｒｇ/", "http://example.org/robots.txt"},
		{"http://example。org/", "http://example.org/robots.txt"},
		{"http://example.org:/", "http://example.org/robots.txt"},
		{"http://user:pw@example.org/", "http://example.org/robots.txt"},
		{"http://[::1%25z1]:8080/", "http://[::1]:8080/robots.txt"},
		{"http://[::1%25z999]:8080/x", "http://[::1]:8080/robots.txt"},
		{"http://[2001:DB8::A%25eth0]/", "http://[2001:db8::a]/robots.txt"},
		{"http://[::ffff:127.0.0.1%25z]/", "http://127.0.0.1/robots.txt"},
		{"http://[fe80::1%25eth0]/", "http://[fe80::1%25eth0]/robots.txt"}, // a zone names a link-local host
	}
	for _, tt := range tests {
		got, err := ManifestURL(tt.page, "robots.txt")
		if err != nil || got != tt.want {
			t.Errorf("ManifestURL(%q) = %q, %v; want %q", tt.page, got, err, tt.want)
		}
	}
}

// TestHostBounds: a host name over 253 bytes or a label over 63 is a bad
// URL, refused before anything is stored or fetched.
func TestHostBounds(t *testing.T) {
	long := strings.Repeat("a", 300<<10)
	label := strings.Repeat("b", 64)
	ok253 := strings.Repeat(strings.Repeat("c", 62)+".", 4) + "x"
	for _, tt := range []struct {
		host string
		ok   bool
	}{{long, false}, {label + ".example", false}, {ok253, true}, {ok253 + "d", false}, {strings.Repeat("e", 63) + ".example", true}} {
		_, err := ManifestURL("http://"+tt.host+"/x", "robots.txt")
		if (err == nil) != tt.ok {
			t.Errorf("ManifestURL(host of %d bytes) error = %v, want ok %v", len(tt.host), err, tt.ok)
		}
		f := &Fetcher{Cache: cache.None{}}
		r := f.Fetch(t.Context(), "http://"+tt.host+"/robots.txt", AccessRFC9309)
		if !tt.ok && (r.Status != Error || len(f.failures) != 0) {
			t.Errorf("Fetch(host of %d bytes) = %s, %d failures kept; want error, none", len(tt.host), r.Status, len(f.failures))
		}
	}
}

// TestHostNotAName: a host that is no domain name and no address is a
// bad URL, not a key.
func TestHostNotAName(t *testing.T) {
	for _, host := range []string{"example..org", "example.org..", ".example.org", "1.2.3.4.5", "example.123", "256.1.1.1", "1.2.3.0x100", "0x100000000", "1.2.65536", "08.1.1.1"} {
		if got, err := ManifestURL("http://"+host+"/", "robots.txt"); err == nil {
			t.Errorf("ManifestURL(http://%s/) = %q, want an error", host, got)
		}
	}
}

func TestManifestURLMapped(t *testing.T) {
	if got, _ := ManifestURL("http://[::ffff:127.0.0.1]:80/", "robots.txt"); got != "http://127.0.0.1/robots.txt" {
		t.Errorf("ManifestURL(IPv4-mapped) = %q, want http://127.0.0.1/robots.txt", got)
	}
}
