package mobileagent

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestFetcher(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /private\nMobile-agent-server: / atp://agents.example:434\nMobile-agent-server: /home/ none\n"))
	})
	mux.HandleFunc("/down/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var f Fetcher
	ctx := context.Background()
	tests := []struct {
		site, url, server string
		err               bool
	}{
		{srv.URL + "/", "/x", "atp://agents.example:434", false},
		{srv.URL + "/", "/home/a", "", false},
		{srv.URL + "/gone/robots.txt", "/x", "", false}, // 404: no table lines, no server
		{srv.URL + "/down/robots.txt", "/x", "", true},
	}
	for _, tt := range tests {
		table, err := f.Fetch(ctx, tt.site)
		if (err != nil) != tt.err {
			t.Errorf("Fetch(%q) error = %v, want error %v", tt.site, err, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		got := ""
		if r := table.Lookup(tt.url); r.Server != nil {
			got = r.Server.URL
		}
		if got != tt.server {
			t.Errorf("Fetch(%q).Lookup(%q) server = %q, want %q", tt.site, tt.url, got, tt.server)
		}
	}
}
