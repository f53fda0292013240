package fetch

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache"
)

// TestDirCacheHostile: entries planted in the cache directory by someone
// else are misses, read without hanging and without reading more than
// MaxEntryBytes; the manifest is fetched again.
func TestDirCacheHostile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links and FIFOs: unix only")
	}
	clk := newClock()
	s := cacheServer(t, clk, nil)
	u := s.URL + "/robots.txt"
	// A valid entry for u, written elsewhere to be linked to.
	other := cache.Dir{Dir: t.TempDir()}
	(&Fetcher{Now: clk.Now, Cache: other}).Fetch(context.Background(), u, AccessRFC9309)
	valid, err := os.ReadFile(other.Path(u))
	if err != nil {
		t.Fatalf("no valid entry to plant: %v", err)
	}
	sparse := filepath.Join(t.TempDir(), "sparse")
	if err := os.WriteFile(sparse, valid, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 1<<30); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		plant func(path string) error
		max   int64
	}{
		{"symlink to a valid entry", func(p string) error { return os.Symlink(other.Path(u), p) }, 0},
		{"symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, 0},
		{"FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }, 0},
		{"directory", func(p string) error { return os.Mkdir(p, 0o700) }, 0},
		{"1 GiB file", func(p string) error { return os.Link(sparse, p) }, 0},
		{"valid entry over MaxEntryBytes", func(p string) error { return os.WriteFile(p, valid, 0o600) }, int64(len(valid) - 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dc := cache.Dir{Dir: t.TempDir(), MaxEntryBytes: tt.max}
			if err := tt.plant(dc.Path(u)); err != nil {
				t.Skipf("cannot plant a %s: %v", tt.name, err)
			}
			done := make(chan bool)
			var alloc uint64
			go func() {
				var ok bool
				alloc = allocated(func() { _, ok = dc.Get(u) })
				done <- ok
			}()
			select {
			case ok := <-done:
				if ok {
					t.Errorf("cache.Dir.Get over a %s = a value, want a miss", tt.name)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("cache.Dir.Get over a %s still blocked after 10 s", tt.name)
			}
			if alloc > 1<<20 {
				t.Errorf("cache.Dir.Get over a %s allocated %d bytes, want under 1 MiB", tt.name, alloc)
			}
			t.Logf("%s: a miss, %d bytes allocated", tt.name, alloc)
			before := s.hits.Load()
			f := &Fetcher{Now: clk.Now, Cache: dc}
			if r := f.Fetch(context.Background(), u, AccessRFC9309); r.Status != Parse || r.FromCache || s.hits.Load() != before+1 {
				t.Errorf("Fetch over a %s = %s, from cache %v; want a parse fetched again", tt.name, r.Status, r.FromCache)
			}
		})
	}
}

// TestDirCachePutReplacesSymlink: Put replaces a planted link with its
// own file and never writes through it.
func TestDirCachePutReplacesSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links: unix only")
	}
	target := filepath.Join(t.TempDir(), "target")
	os.WriteFile(target, []byte("precious"), 0o600)
	dc := cache.Dir{Dir: t.TempDir()}
	if err := os.Symlink(target, dc.Path("k")); err != nil {
		t.Fatal(err)
	}
	dc.Put("k", []byte("value"))
	if b, _ := os.ReadFile(target); string(b) != "precious" {
		t.Errorf("Put wrote %q through a symbolic link", b)
	}
	if v, ok := dc.Get("k"); !ok || string(v) != "value" {
		t.Errorf("Get after Put over a link = %q, %v; want %q", v, ok, "value")
	}
}

// readOnlyCache serves one value and drops every Put.
type readOnlyCache struct{ key, value string }

func (c readOnlyCache) Get(k string) ([]byte, bool) { return []byte(c.value), k == c.key }
func (readOnlyCache) Put(string, []byte)            {}

// TestFutureFetchTime: an entry that says it was fetched after now is not
// fresh until that time comes.
func TestFutureFetchTime(t *testing.T) {
	clk := newClock()
	s := cacheServer(t, clk, nil)
	u := s.URL + "/robots.txt"
	e := &entry{URL: u, FinalURL: u, StatusCode: 200, Header: make(map[string][]string),
		FetchedAt: clk.Now().Add(365 * 24 * time.Hour), Body: []byte("User-agent: *\nDisallow: /\n")}
	f := &Fetcher{Now: clk.Now, Cache: readOnlyCache{u, string(e.encode())}}
	if r := f.Fetch(context.Background(), u, AccessRFC9309); r.FromCache || s.hits.Load() != 1 || string(r.Body) != robotsBody {
		t.Errorf("Fetch over an entry fetched in a year = from cache %v, %d hits, body %q; want the server's body", r.FromCache, s.hits.Load(), r.Body)
	}
	clk.Advance(365*24*time.Hour + time.Second)
	f = &Fetcher{Now: clk.Now, Cache: readOnlyCache{u, string(e.encode())}}
	if r := f.Fetch(context.Background(), u, AccessRFC9309); !r.FromCache || s.hits.Load() != 1 {
		t.Errorf("Fetch once the entry's time has come = from cache %v, %d hits; want the cached entry", r.FromCache, s.hits.Load())
	}
}
