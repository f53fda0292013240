package robots

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// TestClientReading: Reading gives the copy Check decides with (one fetch
// and one compile for both, which Parsed sees), its decisions are Check's,
// and it needs a Fetcher and an http(s) site.
func TestClientReading(t *testing.T) {
	t.Parallel()
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()
	var parsed []string
	c := &Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0"}, Parsed: func(r *fetch.Result, f *grammar.File) {
		parsed = append(parsed, fmt.Sprintf("%s %d bytes, %d lines", r.URL, len(r.Body), len(f.Lines)))
	}}
	rd, err := c.Reading(context.Background(), srv.URL+"/any/page")
	if err != nil || rd.Policy == nil || rd.Fetched.Status != fetch.Parse || rd.Fetched.URL != srv.URL+"/robots.txt" {
		t.Fatalf("Reading = %+v, %v; want the parsed robots.txt of the site", rd, err)
	}
	for _, path := range []string{"/private/x", "/public"} {
		a, err := c.Check(context.Background(), "ExampleBot", srv.URL+path)
		if err != nil {
			t.Fatal(err)
		}
		if d := rd.Decide("ExampleBot", srv.URL+path); d.Allowed != a.Allowed || a.Policy() != rd.Policy {
			t.Errorf("Reading.Decide(%s) = %v, Check = %v (same policy %v); want the same answer from the same policy", path, d.Allowed, a.Allowed, a.Policy() == rd.Policy)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("robots.txt fetched %d times, want 1", n)
	}
	if want := []string{srv.URL + "/robots.txt 34 bytes, 2 lines"}; !slices.Equal(parsed, want) {
		t.Errorf("Parsed saw %q, want %q: each compile once, with the body", parsed, want)
	}
	if _, err := c.Reading(context.Background(), "ftp://example.org/"); err == nil {
		t.Error("Reading(ftp://example.org/) = no error, want one")
	}
	if _, err := new(Client).Reading(context.Background(), srv.URL); err == nil {
		t.Error("Reading without a Fetcher = no error, want one")
	}
}
