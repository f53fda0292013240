package robots

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

func TestClientStatuses(t *testing.T) {
	t.Parallel()
	var code atomic.Int32
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/robots.txt" {
			t.Errorf("fetched %s, want /robots.txt only", r.URL.Path)
		}
		w.WriteHeader(int(code.Load()))
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()
	tests := []struct {
		profile Profile
		code    int
		path    string
		allowed bool
		status  fetch.Status
	}{
		{RFC9309, 200, "/private/x", false, fetch.Parse},
		{RFC9309, 200, "/public", true, fetch.Parse},
		{RFC9309, 404, "/private/x", true, fetch.AllowAll},
		{RFC9309, 403, "/private/x", true, fetch.AllowAll},
		{RFC9309, 503, "/public", false, fetch.DisallowAll},
		{Google, 429, "/public", false, fetch.DisallowAll},
		{Draft, 403, "/public", false, fetch.DisallowAll},
		{Draft, 404, "/private/x", true, fetch.AllowAll},
		{Draft, 503, "/public", false, fetch.Defer},
		{NoRobots, 500, "/public", false, fetch.Defer},
	}
	for _, tt := range tests {
		code.Store(int32(tt.code))
		c := &Client{Profile: tt.profile}
		v, err := c.Check(context.Background(), "ExampleBot", srv.URL+tt.path)
		if err != nil {
			t.Fatalf("Check: %v", err)
		}
		if v.Allowed != tt.allowed || v.Status != tt.status || v.HTTPStatus != tt.code {
			t.Errorf("%s, HTTP %d: Check(%q) = %v (%s, HTTP %d), want %v (%s)", tt.profile, tt.code, tt.path, v.Allowed, v.Status, v.HTTPStatus, tt.allowed, tt.status)
		}
		if (v.Decision != nil) != (tt.status == fetch.Parse) {
			t.Errorf("%s, HTTP %d: Decision = %v, want one only for parse", tt.profile, tt.code, v.Decision)
		}
		if v.Reason == "" {
			t.Errorf("%s, HTTP %d: empty Reason", tt.profile, tt.code)
		}
	}
}

// TestClientCachesAndCoalesces: 50 concurrent checks of one site make
// one robots.txt request (synctest.Wait says when all 50 wait for it),
// and the copy is kept until it expires.
func TestClientCachesAndCoalesces(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testClientCachesAndCoalesces)
}

func testClientCachesAndCoalesces(t *testing.T) {
	release := make(chan struct{})
	site := &sitetest.InProcess{Handler: func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.Header().Set("Cache-Control", "max-age=60")
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}}
	const site0 = "http://site.test"
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	c := &Client{Fetcher: &fetch.Fetcher{Now: clock, Client: site.Client()}}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			path := "/public"
			if i%2 == 0 {
				path = "/private/x"
			}
			if got := c.Allowed(context.Background(), "ExampleBot", site0+path); got != (i%2 == 1) {
				t.Errorf("Allowed(%s) = %v", path, got)
			}
		})
	}
	synctest.Wait() // every check waits for the one fetch
	close(release)
	wg.Wait()
	if n := site.Hits(); n != 1 {
		t.Errorf("robots.txt fetched %d times by 50 concurrent checks, want 1", n)
	}
	mu.Lock()
	now = now.Add(61 * time.Second)
	mu.Unlock()
	c.Allowed(context.Background(), "ExampleBot", site0+"/public")
	if n := site.Hits(); n != 2 {
		t.Errorf("robots.txt fetched %d times after expiry, want 2", n)
	}
}

func TestClientRedirectAppliesToOriginalSite(t *testing.T) {
	t.Parallel()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /\n")
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/robots.txt", http.StatusMovedPermanently)
	}))
	defer srv.Close()
	c := &Client{}
	v, _ := c.Check(context.Background(), "ExampleBot", srv.URL+"/page")
	if v.Allowed || v.RobotsURL != srv.URL+"/robots.txt" || v.FinalURL != other.URL+"/robots.txt" {
		t.Errorf("Check through a redirect = %v from %s (final %s), want disallowed by %s/robots.txt", v.Allowed, v.RobotsURL, v.FinalURL, srv.URL)
	}
}

func TestClientBadURL(t *testing.T) {
	t.Parallel()
	c := &Client{}
	for _, u := range []string{"/relative", "ftp://example.org/x", "mailto:a@b"} {
		if v, err := c.Check(context.Background(), "ExampleBot", u); err == nil {
			t.Errorf("Check(%q) = %+v, want an error", u, v)
		}
		if c.Allowed(context.Background(), "ExampleBot", u) {
			t.Errorf("Allowed(%q) = true, want false", u)
		}
	}
}
