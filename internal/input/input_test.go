package input

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/robots"
)

func TestReadURL(t *testing.T) {
	tests := []struct {
		typed, decide string
		absolute      bool
		err           string // a part of the error, "" for none
	}{
		{"", "", false, ""},
		{"/private/x", "/private/x", false, ""},
		{"private/x", "/private/x", false, ""},
		{"xyz/foo.js", "/xyz/foo.js", false, ""},
		{"?q=1", "/?q=1", false, ""},
		{"https://example.org/a", "https://example.org/a", true, ""},
		{"HTTP://example.org", "HTTP://example.org", true, ""},
		{"urn:x", "", false, "its scheme is urn"},
		{"ftp://example.org/a", "", false, "its scheme is ftp"},
		{"mailto:a@b", "", false, "not an http(s) URL (its scheme is mailto)"},
		{"http://example.org:70000/x", "", false, "port 70000 is larger than 65535"},
		{"https://example.org:65535/x", "https://example.org:65535/x", true, ""},
		{"https://example.org:99999999999999999999/", "", false, "larger than 65535"},
		{"example.org:8080/x", "example.org:8080/x", false, ""},
		{"localhost:8080", "localhost:8080", false, ""},
		{"example.org:70000/x", "", false, "port 70000 is larger than 65535"},
		{"http://a..b/x", "", false, "empty label"},
		{"http://999.1.1.1/", "", false, "no IPv4 address"},
		{"http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x", true, ""},
		{"http://0x7f.1/x", "http://0x7f.1/x", true, ""},
		{"http://[::1]:8080/x", "http://[::1]:8080/x", true, ""},
		{"http://user@Example.ORG./x", "http://user@Example.ORG./x", true, ""},
		{"http:///x", "", false, "without a host"},
		{"https://[::1/x", "", false, "not a URL"},
		{"http://exa mple.org/", "", false, "not a URL"},
		{"http://www.example.com/%a%a", "http://www.example.com/%a%a", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.typed, func(t *testing.T) {
			u, err := ReadURL(tt.typed)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("ReadURL(%q) error = %v, want one saying %q", tt.typed, err, tt.err)
				}
				return
			}
			if err != nil || u.Decide != tt.decide || u.Typed != tt.typed || u.Absolute() != tt.absolute {
				t.Errorf("ReadURL(%q) = %+v (absolute %v), %v; want Decide %q, absolute %v", tt.typed, u, u.Absolute(), err, tt.decide, tt.absolute)
			}
			if rel := tt.decide != tt.typed; u.Relative() != rel {
				t.Errorf("ReadURL(%q).Relative() = %v, want %v", tt.typed, u.Relative(), rel)
			}
		})
	}
}

func TestGoverns(t *testing.T) {
	tests := []struct {
		url, robots string
		err         string
	}{
		{"https://a.example/x", "https://a.example/robots.txt", ""},
		{"https://A.example:443/x", "https://a.example/robots.txt", ""},
		{"/x", "https://a.example/robots.txt", ""},
		{"x", "https://a.example/robots.txt", ""},
		{"https://b.example/no", "", ""},
		{"https://b.example/no", "https://a.example/robots.txt", "https://b.example, not on https://a.example"},
		{"http://a.example/x", "https://a.example/robots.txt", "http://a.example, not on https://a.example"},
		{"https://a.example:8443/x", "https://a.example/robots.txt", "https://a.example:8443"},
		{"https://a.example/%a%a", "https://a.example/robots.txt", ""},
		{"https://a.example?q", "https://a.example/robots.txt", ""},
	}
	for _, tt := range tests {
		u, err := ReadURL(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		err = u.Governs(tt.robots)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("ReadURL(%q).Governs(%q) = %v, want %q", tt.url, tt.robots, err, tt.err)
		}
	}
}

func TestSiteURL(t *testing.T) {
	tests := []struct {
		arg, want string
	}{
		{"example.org", "https://example.org/"},
		{"www.example.org/private/x", "https://www.example.org/private/x"},
		{"localhost:8080", "https://localhost:8080/"},
		{"127.0.0.1:8080/a?b", "https://127.0.0.1:8080/a?b"},
		{"robots.txt", ""},
		{"testdata/robots/fict.org.txt", ""},
		{"list.yaml", ""},
		{"./example.org", ""},
		{"-", ""},
		{"", ""},
		{"foo", ""},
		{"https://example.org/", ""},
		{"example.org:x", ""},
	}
	for _, tt := range tests {
		got, ok := SiteURL(tt.arg)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("SiteURL(%q) = %q, %v; want %q", tt.arg, got, ok, tt.want)
		}
	}
}

func TestSite(t *testing.T) {
	tests := []struct {
		typed, want, err string
	}{
		{"https://example.org/", "https://example.org/", ""},
		{"HTTP://Example.org/robots.txt", "HTTP://Example.org/robots.txt", ""},
		{"example.org", "https://example.org/", ""},
		{"www.example.org/private/x", "https://www.example.org/private/x", ""},
		{"private/x", "", "neither an http(s) URL nor a host name"},
		{"robots.txt", "", "neither an http(s) URL nor a host name"},
		{"", "", "neither an http(s) URL nor a host name"},
		{"ftp://example.org/", "", "not an http(s) URL with a host"},
		{"https:///x", "", "not an http(s) URL with a host"},
	}
	for _, tt := range tests {
		got, err := Site(tt.typed)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Site(%q) = %q, %v; want %q, an error with %q", tt.typed, got, err, tt.want, tt.err)
		}
	}
}

func TestReadSource(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("example.net", []byte("User-agent: *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		typed, url string
		fromHost   bool
		err        string
	}{
		{"-", "", false, ""},
		{"robots.txt", "", false, ""},
		{"./example.org", "", false, ""},
		{"https://example.org/", "https://example.org/", false, ""},
		{"HTTP://Example.org/robots.txt", "HTTP://Example.org/robots.txt", false, ""},
		{"example.org", "https://example.org/", true, ""},
		{"www.example.org/private/x", "https://www.example.org/private/x", true, ""},
		{"example.net", "", false, ""}, // a file of the name wins
		{"ftp://example.org/robots.txt", "", false, "not an http(s) URL with a host"},
		{"https:///robots.txt", "", false, "not an http(s) URL with a host"},
	}
	for _, tt := range tests {
		s, err := ReadSource(tt.typed)
		if s.Typed != tt.typed || s.URL != tt.url || s.FromHost != tt.fromHost || s.Fetched() != (tt.url != "") || s.Stdin() != (tt.typed == "-") ||
			(err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("ReadSource(%q) = %+v, %v; want URL %q, from a host %v, an error with %q", tt.typed, s, err, tt.url, tt.fromHost, tt.err)
		}
	}
}

func TestBase(t *testing.T) {
	for _, tt := range []struct {
		typed string
		ok    bool
	}{
		{"https://example.org/data.txt", true},
		{"https://example.org/", true},
		{"ftp://example.org/pub/", true},
		{"example.org", false},
		{"/data.txt", false},
		{"https:///data.txt", false},
		{"http://[::1", false},
	} {
		if err := Base(tt.typed); (err == nil) != tt.ok {
			t.Errorf("Base(%q) = %v, want ok %v", tt.typed, err, tt.ok)
		}
	}
}

func TestAgentNote(t *testing.T) {
	tests := []struct {
		prof  robots.Profile
		agent string
		want  string // a part of the note, "" for none
	}{
		{robots.RFC9309, "FooBot", ""},
		{robots.RFC9309, "*", ""},
		{robots.RFC9309, "MJ12bot/v1.4", ""},
		{robots.RFC9309, "FooBot/2.1 (+https://foo.example/bot)", `read as the crawler name "FooBot"`},
		{robots.Google, "Googlebot", ""},
		{robots.Google, "Mozilla/5.0 (compatible; Googlebot/2.1)", `matches the product token`},
		{robots.Google, "MJ12bot/v1.4", `matches the product token: give it ("MJ" here`}, // Google's token has no digits
	}
	for _, tt := range tests {
		got := AgentNote(tt.prof, tt.agent)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("AgentNote(%s, %q) = %q, want %q", tt.prof, tt.agent, got, tt.want)
		}
	}
}

// TestReadURLAllocs: reading a path or an absolute URL with a plain host,
// and checking such a URL against its own site's robots.txt, allocate
// nothing:
// check reads a million-line stream through them.
func TestReadURLAllocs(t *testing.T) {
	for _, typed := range []string{"/private/x", "https://example.org:8080/a/b?c", "http://example.org"} {
		n := testing.AllocsPerRun(100, func() {
			if _, err := ReadURL(typed); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("ReadURL(%q): %v allocations, want 0", typed, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = mustRead(t, "https://example.org/x").Governs("https://example.org/robots.txt") }); n != 0 {
		t.Errorf("Governs on the same origin: %v allocations, want 0", n)
	}
}

// FuzzReadURL: ReadURL never panics, and an absolute URL it accepts
// names a site fetch fetches (its fast reading of a plain authority
// accepts nothing fetch.Origin refuses); what it refuses in the authority
// of an http(s) URL, fetch refuses too.
func FuzzReadURL(f *testing.F) {
	for _, s := range []string{"https://example.org/a", "http://127.0.0.1:8080/", "http://a..b/", "http://a.1/",
		"http://example.org:65536/", "http://[::1]/", "ftp://x/y", "x:1/y", "/p", "p", "http://0.0.0.0/", "http://A-.b-c/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, typed string) {
		u, err := ReadURL(typed)
		if err != nil || !u.Absolute() {
			return
		}
		if _, ferr := fetch.ManifestURL(u.site(), "robots.txt"); ferr != nil {
			t.Errorf("ReadURL(%q) accepted it, but fetch.ManifestURL(%q) = %v", typed, u.site(), ferr)
		}
	})
}

func mustRead(t *testing.T, s string) URL {
	u, err := ReadURL(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func ExampleReadURL() {
	for _, typed := range []string{"private/x", "/a", "https://example.org/b", "http:///c"} {
		u, err := ReadURL(typed)
		fmt.Printf("%q: decide %q, relative %v, error %v\n", typed, u.Decide, u.Relative(), err)
	}
	// Output:
	// "private/x": decide "/private/x", relative true, error <nil>
	// "/a": decide "/a", relative false, error <nil>
	// "https://example.org/b": decide "https://example.org/b", relative false, error <nil>
	// "http:///c": decide "http:///c", relative false, error "http:///c" is an http URL without a host
}
