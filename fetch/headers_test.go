package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHeaders: HEAD, or a ranged GET when the server refuses HEAD; any
// status is an answer; the header fields come back, the body is not read.
func TestHeaders(t *testing.T) {
	var methods []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods = append(methods, r.Method+" "+r.Header.Get("Range")+" "+r.Header.Get("User-Agent"))
		switch r.URL.Path {
		case "/nohead":
			if r.Method == http.MethodHead {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
		case "/gone":
			w.WriteHeader(http.StatusGone)
			return
		case "/moved":
			http.Redirect(w, r, "/page", http.StatusFound)
			return
		}
		w.Header().Set("Content-Usage", "train-ai=n")
		w.Write([]byte("body"))
	}))
	defer srv.Close()
	f := &Fetcher{UserAgent: "TestBot/1.0"}
	tests := []struct {
		path, methods string
		status        int
		usage         string
		redirects     int
	}{
		{"/page", "HEAD  TestBot/1.0", 200, "train-ai=n", 0},
		{"/nohead", "HEAD  TestBot/1.0|GET bytes=0-0 TestBot/1.0", 200, "train-ai=n", 0},
		{"/gone", "HEAD  TestBot/1.0", 410, "", 0},
		{"/moved", "HEAD  TestBot/1.0|HEAD  TestBot/1.0", 200, "train-ai=n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			methods = nil
			h, err := f.Headers(context.Background(), srv.URL+tt.path)
			if err != nil {
				t.Fatalf("Headers(%q): %v", tt.path, err)
			}
			got := ""
			for i, m := range methods {
				if i > 0 {
					got += "|"
				}
				got += m
			}
			if got != tt.methods || h.HTTPStatus != tt.status || h.Header.Get("Content-Usage") != tt.usage || h.Redirects != tt.redirects {
				t.Errorf("Headers(%q) = {requests %q, status %d, Content-Usage %q, redirects %d}, want {%q, %d, %q, %d}",
					tt.path, got, h.HTTPStatus, h.Header.Get("Content-Usage"), h.Redirects, tt.methods, tt.status, tt.usage, tt.redirects)
			}
		})
	}
	if _, err := f.Headers(context.Background(), "ftp://x/"); err == nil {
		t.Errorf("Headers(ftp URL) = nil error, want one")
	}
}

// TestHeadersURL: Headers reads a URL as Fetch and Open do (fetchKey):
// the authority canonical (no leading zeros in the port), the fragment
// not part of it.
func TestHeadersURL(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	host, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	f := &Fetcher{}
	for _, raw := range []string{"http://" + host + ":0" + port + "/page", srv.URL + "/page#top"} {
		h, err := f.Headers(context.Background(), raw)
		if err != nil {
			t.Errorf("Headers(%q): %v", raw, err)
			continue
		}
		if want := srv.URL + "/page"; h.URL != want {
			t.Errorf("Headers(%q).URL = %q, want %q", raw, h.URL, want)
		}
	}
}
