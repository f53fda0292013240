package fetch_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/sitetxt/sitetxt/fetch"
)

func ExampleFetcher_Fetch() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "max-age=3600")
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()

	f := &fetch.Fetcher{UserAgent: "ExampleBot/1.0"}
	robots, _ := fetch.ManifestURL(srv.URL+"/some/page.html", "robots.txt")
	r := f.Fetch(context.Background(), robots, fetch.AccessRFC9309)
	fmt.Println(r.Status, r.HTTPStatus, r.FromCache, r.Expires.Sub(r.FetchedAt))
	fmt.Printf("%s", r.Body)

	r = f.Fetch(context.Background(), robots, fetch.AccessRFC9309)
	fmt.Println(r.Status, r.FromCache)

	data, _ := fetch.ManifestURL(srv.URL, "data.txt")
	r = f.Fetch(context.Background(), data, fetch.AccessDataTxt)
	fmt.Println(r.Status, r.HTTPStatus, r.Err)
	// Output:
	// parse 200 false 1h0m0s
	// User-agent: *
	// Disallow: /private/
	// parse true
	// not-found 404 <nil>
}

func ExampleMemo_Get() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()

	compiles := 0
	m := &fetch.Memo[int]{
		Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0"},
		Access:  fetch.AccessRFC9309,
		// A real Compile builds a policy; this one counts lines.
		Compile: func(r *fetch.Result) int { compiles++; return bytes.Count(r.Body, []byte("\n")) },
	}
	u := srv.URL + "/robots.txt"
	got := m.Get(context.Background(), u, u, nil)
	fmt.Println(got.Result.Status, got.Value, got.Kept)
	got = m.Get(context.Background(), u, u, nil)
	fmt.Println(got.Result.Status, got.Value, got.Kept, compiles)
	// Output:
	// parse 2 false
	// parse 2 true 1
}

// Headers asks a URL for its header fields without its body: here a page
// that states its AI-usage preference (draft-ietf-aipref-attach-05
// section 2) and refuses HEAD, so a one-byte GET is sent instead.
func ExampleFetcher_Headers() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Usage", "train-ai=n")
		io.WriteString(w, "the article")
	}))
	defer srv.Close()

	f := &fetch.Fetcher{UserAgent: "ExampleBot/1.0"}
	h, err := f.Headers(context.Background(), srv.URL+"/article")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.HTTPStatus, h.Header.Get("Content-Usage"))
	// Output:
	// 200 train-ai=n
}
