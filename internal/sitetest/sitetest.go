// Package sitetest serves a web site for tests: a loopback HTTP server
// whose files are a map from path to body. It is where the tests of
// sitemaps, serve and the commands find the sites they crawl, and the gzip
// bombs they are fed.
//
// A body's "$SITE" is the server's own URL (sitemaps list absolute URLs of
// their site), and a body that starts with "gz:" is served gzip-compressed
// as application/gzip, one that is "status:" and a code ("status:503")
// is an answer with that status and no body. A path not in the map is 404
// Not Found. FromDir serves a directory of testdata.
//
// Below HTTP, Raw serves a loopback TCP port with a test's own function
// (a banner, a reset, a fake Redis), RefusedPort gives a port that
// refuses every connection, and FreePort a port just freed, for a
// program that cannot listen on port 0 and say where (redis-server).
package sitetest

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Site is a running loopback site; it is closed when the test ends.
type Site struct {
	*httptest.Server

	mu      sync.Mutex
	files   map[string]string
	headers map[string]http.Header // per path, sent with its body
	hits    map[string]int
	delay   time.Duration
}

// New starts a site serving files.
func New(t testing.TB, files map[string]string) *Site {
	t.Helper()
	s := &Site{files: map[string]string{}, headers: map[string]http.Header{}, hits: map[string]int{}}
	for p, body := range files {
		s.files[p] = body
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Set serves body at path from now on.
func (s *Site) Set(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = body
}

// SetHeader sends the header field name with values in the answers for
// path (a Content-Usage or Link field a test reads, say).
func (s *Site) SetHeader(path, name string, values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.headers[path] == nil {
		s.headers[path] = http.Header{}
	}
	s.headers[path][http.CanonicalHeaderKey(name)] = values
}

// SetDelay makes every answer wait d before it is written.
func (s *Site) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// Hits returns how many times each path was asked for.
func (s *Site) Hits() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.hits))
	for p, n := range s.hits {
		out[p] = n
	}
	return out
}

func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, ok := s.files[r.URL.Path]
	for name, vs := range s.headers[r.URL.Path] {
		w.Header()[name] = vs
	}
	s.hits[r.URL.Path]++
	delay := s.delay
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	time.Sleep(delay)
	body = strings.ReplaceAll(body, "$SITE", s.URL)
	if code, ok := strings.CutPrefix(body, "status:"); ok {
		if n, err := strconv.Atoi(code); err == nil {
			w.WriteHeader(n)
			return
		}
	}
	if rest, ok := strings.CutPrefix(body, "gz:"); ok {
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(Gzip([]byte(rest)))
		return
	}
	io.WriteString(w, body)
}

// Gzip returns data as one gzip member.
func Gzip(data []byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// Bomb returns a gzip stream of 1 GiB once uncompressed: 1,024 gzip
// members of 1 MiB each (gzip readers read concatenated members as one
// stream), the first starting with head, every other byte fill repeated.
// The members after the first are one member compressed once, so the
// stream costs about 1 MB to hold and nothing to make.
func Bomb(head, fill string) io.Reader {
	const member = 1 << 20
	first := head + strings.Repeat(fill, (member-len(head))/len(fill))
	rest := Gzip([]byte(strings.Repeat(fill, member/len(fill))))
	parts := []io.Reader{bytes.NewReader(Gzip([]byte(first)))}
	for range 1023 {
		parts = append(parts, bytes.NewReader(rest))
	}
	return io.MultiReader(parts...)
}
