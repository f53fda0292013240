package fetch

import (
	"net/url"
	"testing"
)

func TestManifestURL(t *testing.T) {
	tests := []struct{ in, name, want string }{
		{"https://example.org/", "robots.txt", "https://example.org/robots.txt"},
		{"https://Example.ORG", "robots.txt", "https://example.org/robots.txt"},
		{"HTTP://example.org:80/a/b?c#d", "data.txt", "http://example.org/data.txt"},
		{"https://example.org:443/x", "robots.txt", "https://example.org/robots.txt"},
		{"http://example.org:8001/welcome.html", "robots.txt", "http://example.org:8001/robots.txt"},
		{"https://user:pw@example.org/", "robots.txt", "https://example.org/robots.txt"},
		{"http://[::1]:8080/", "robots.txt", "http://[::1]:8080/robots.txt"},
		{"http://[::1]/", "robots.txt", "http://[::1]/robots.txt"},
	}
	for _, tt := range tests {
		if got, err := ManifestURL(tt.in, tt.name); got != tt.want || err != nil {
			t.Errorf("ManifestURL(%q, %q) = %q, %v, want %q", tt.in, tt.name, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ in, err string }{
		{"/robots.txt", "/robots.txt: not an http or https URL"},
		{"ftp://example.org/", "ftp://example.org/: not an http or https URL"},
		{"example.org", "example.org: not an http or https URL"},
		{"http://", "http://: not an http or https URL"},
		{"http://:", "http://:: no host name in the URL (write the site's host, e.g. http://localhost)"},
		{"http://:18100/x", "http://:18100/x: no host name in the URL (write the site's host, e.g. http://localhost:18100)"},
		{"https://u@:1/", "https://u@:1/: no host name in the URL (write the site's host, e.g. http://localhost:1)"},
		// Go versions differ on whether url.Parse takes these: either its
		// error or ours.
		{"HTTP://::", ""},
		{"HTTP://0::0", ""},
		{"http://a::b@0::0/", ""},
		{"http://h:65536/", "http://h:65536/: port 65536 is larger than 65535"},
		{"http://h:99999999999999999999/", "http://h:99999999999999999999/: port 99999999999999999999 is larger than 65535"},
	} {
		if got, err := ManifestURL(tt.in, "robots.txt"); err == nil || tt.err != "" && err.Error() != tt.err {
			t.Errorf("ManifestURL(%q) = %q, %v, want error %q", tt.in, got, err, tt.err)
		}
	}
}

func TestSourceURL(t *testing.T) {
	tests := []struct{ in, name, want string }{
		{"https://example.org/", "robots.txt", "https://example.org/robots.txt"},
		{"https://example.org", "data.txt", "https://example.org/data.txt"},
		{"https://example.org/robots.txt", "robots.txt", "https://example.org/robots.txt"},
		{"https://example.org/test/robots.txt#x", "robots.txt", "https://example.org/test/robots.txt"},
		{"https://example.org/?q=1", "robots.txt", "https://example.org/?q=1"},
		{"HTTPS://Example.ORG.:0443/a/robots.txt", "robots.txt", "https://example.org/a/robots.txt"}, // the key Fetch uses
	}
	for _, tt := range tests {
		if got, err := SourceURL(tt.in, tt.name); got != tt.want || err != nil {
			t.Errorf("SourceURL(%q, %q) = %q, %v, want %q", tt.in, tt.name, got, err, tt.want)
		}
	}
	if _, _, err := splitAuthority("0::0"); err == nil || err.Error() != `the host "0::0" looks like an IPv6 address: write it in brackets ([0::0])` {
		t.Errorf("splitAuthority(%q) = %v, want the IPv6 error", "0::0", err)
	}
	for _, bad := range []string{"http://:18100/robots.txt", "http://::1/robots.txt", "https://h:70000/x"} {
		if got, err := SourceURL(bad, "robots.txt"); err == nil {
			t.Errorf("SourceURL(%q) = %q, want an error", bad, got)
		}
	}
	for _, s := range []string{"robots.txt", "-", "./https:/x", "C:\\robots.txt"} {
		if IsURL(s) {
			t.Errorf("IsURL(%q) = true, want false", s)
		}
	}
}

func FuzzManifestURL(f *testing.F) {
	for _, s := range []string{"https://example.org/", "http://[::1]:80/x", "HTTP://A:443", "https://u@h:0/", "http://%zz/", "http://:", "HTTP://::", "HTTP://0::0", "http://:18100/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		got, err := ManifestURL(page, "robots.txt")
		if err != nil {
			return
		}
		if !IsURL(got) {
			t.Fatalf("ManifestURL(%q) = %q, not an http(s) URL", page, got)
		}
		u, err := url.Parse(got)
		if err == nil {
			_, _, err = splitAuthority(u.Host) // an empty host fails too
		}
		if err != nil {
			t.Fatalf("ManifestURL(%q) = %q, which has no valid host (%v)", page, got, err)
		}
		again, err := ManifestURL(got, "robots.txt")
		if err != nil || again != got {
			t.Errorf("ManifestURL(ManifestURL(%q)) = %q, %v, want %q", page, again, err, got)
		}
	})
}
