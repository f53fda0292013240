package fetch

import "testing"

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
	for _, bad := range []string{"/robots.txt", "ftp://example.org/", "example.org", "http://"} {
		if got, err := ManifestURL(bad, "robots.txt"); err == nil {
			t.Errorf("ManifestURL(%q) = %q, want an error", bad, got)
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
	}
	for _, tt := range tests {
		if got, err := SourceURL(tt.in, tt.name); got != tt.want || err != nil {
			t.Errorf("SourceURL(%q, %q) = %q, %v, want %q", tt.in, tt.name, got, err, tt.want)
		}
	}
	for _, s := range []string{"robots.txt", "-", "./https:/x", "C:\\robots.txt"} {
		if IsURL(s) {
			t.Errorf("IsURL(%q) = true, want false", s)
		}
	}
}

func FuzzManifestURL(f *testing.F) {
	for _, s := range []string{"https://example.org/", "http://[::1]:80/x", "HTTP://A:443", "https://u@h:0/", "http://%zz/"} {
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
		again, err := ManifestURL(got, "robots.txt")
		if err != nil || again != got {
			t.Errorf("ManifestURL(ManifestURL(%q)) = %q, %v, want %q", page, again, err, got)
		}
	})
}
