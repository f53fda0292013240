package datatxt

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

func TestFetcher(t *testing.T) {
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/data.txt", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("- path: iris/data.csv\n  name: iris\n"))
	})
	mux.HandleFunc("/moved/data.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/data.txt", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/broken/data.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "oops", http.StatusInternalServerError)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var f Fetcher
	ctx := context.Background()

	c, err := f.Fetch(ctx, srv.URL+"/", Options{})
	if err != nil || len(c.Entries) != 1 || c.Entries[0].URLs[0] != srv.URL+"/iris/data.csv" {
		t.Fatalf("Fetch(site) = %+v, %v", c, err)
	}
	if _, err := f.Fetch(ctx, srv.URL+"/", Options{}); err != nil || hits.Load() != 1 {
		t.Errorf("second Fetch: %v, %d requests, want 1 (cached)", err, hits.Load())
	}
	c, err = f.Fetch(ctx, srv.URL+"/moved/data.txt", Options{})
	if err != nil || c.Entries[0].URLs[0] != srv.URL+"/iris/data.csv" {
		t.Errorf("Fetch after a redirect = %+v, %v; want paths resolved against the final URL", c, err)
	}
	if _, err := f.Fetch(ctx, srv.URL+"/none/data.txt", Options{}); !errors.Is(err, ErrNoDataTxt) {
		t.Errorf("Fetch of a missing data.txt: %v, want ErrNoDataTxt", err)
	}
	if _, err := f.Fetch(ctx, srv.URL+"/broken/data.txt", Options{}); err == nil || errors.Is(err, ErrNoDataTxt) {
		t.Errorf("Fetch of a 500: %v, want an error other than ErrNoDataTxt", err)
	}
}
