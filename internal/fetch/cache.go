package fetch

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sitetxt/sitetxt/cache"
)

// Cache stores fetched responses by key (the manifest's URL); it is
// cache.Cache, the interface library users implement. A cache that also
// implements cache.Shared coordinates fetches across processes (shared.go).
type Cache = cache.Cache

// entry is one cached HTTP response, independent of any Mode: how it is
// interpreted, and for how long it is fresh, depends on the mode asked for.
type entry struct {
	URL        string      `json:"url"`       // the URL requested
	FinalURL   string      `json:"final_url"` // after redirects
	Redirects  int         `json:"redirects"`
	Chain      []string    `json:"chain,omitempty"` // the URLs redirected to, FinalURL last
	StatusCode int         `json:"status"`
	Header     http.Header `json:"header"`     // the headers in keptHeaders
	FetchedAt  time.Time   `json:"fetched_at"` // the local clock when the response arrived
	Truncated  bool        `json:"truncated"`  // the body was cut at the size limit
	BodyLen    int         `json:"body_len"`
	BodyCRC    uint32      `json:"body_crc32"`
	Body       []byte      `json:"-"`
}

// keptHeaders are the response headers an entry keeps.
var keptHeaders = []string{"Content-Type", "Cache-Control", "Pragma", "Expires", "Date", "Age", "ETag", "Last-Modified"}

// cacheMagic starts every encoded entry; the digit is the format version.
const cacheMagic = "sitetxt-fetch-cache 1\n"

var errCorrupt = errors.New("corrupt cache entry")

// encode returns e as cacheMagic, a JSON header line, and the body.
func (e *entry) encode() []byte {
	e.BodyLen = len(e.Body)
	e.BodyCRC = crc32.ChecksumIEEE(e.Body)
	hdr, err := json.Marshal(e)
	if err != nil {
		panic("fetch: cannot encode cache entry: " + err.Error())
	}
	var b bytes.Buffer
	b.Grow(len(cacheMagic) + len(hdr) + 1 + len(e.Body))
	b.WriteString(cacheMagic)
	b.Write(hdr)
	b.WriteByte('\n')
	b.Write(e.Body)
	return b.Bytes()
}

// decodeEntry is the inverse of encode; it fails on anything it did not
// write. The body aliases data.
func decodeEntry(data []byte) (*entry, error) {
	rest, ok := bytes.CutPrefix(data, []byte(cacheMagic))
	if !ok {
		return nil, errCorrupt
	}
	hdr, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return nil, errCorrupt
	}
	e := new(entry)
	if err := json.Unmarshal(hdr, e); err != nil {
		return nil, errCorrupt
	}
	if e.BodyLen != len(body) || e.BodyCRC != crc32.ChecksumIEEE(body) || e.URL == "" || e.FetchedAt.IsZero() {
		return nil, errCorrupt
	}
	e.Body = body
	return e, nil
}

// MemoryCache is a Cache in memory, the default of a Fetcher. The zero value
// is ready to use.
type MemoryCache struct {
	// MaxEntries bounds the number of entries; when it is reached, Put
	// evicts an arbitrary entry. 0 means 10,000.
	MaxEntries int
	// MaxBytes bounds the bytes of values held; Put evicts arbitrary
	// entries until a new value fits. 0 means DefaultMaxCacheBytes.
	MaxBytes int

	mu    sync.Mutex
	m     map[string][]byte
	bytes int
}

// DefaultMaxCacheBytes is how many bytes of responses a MemoryCache holds
// by default: 128 full-size (500 KiB) manifests, or thousands of typical
// ones (the median robots.txt is 355 bytes).
const DefaultMaxCacheBytes = 64 << 20

// Get returns the value stored under key.
func (c *MemoryCache) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

// Put stores value under key. The cache keeps value; the caller must not
// change it afterwards.
func (c *MemoryCache) Put(key string, value []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string][]byte)
	}
	max := c.MaxEntries
	if max <= 0 {
		max = 10000
	}
	maxBytes := c.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxCacheBytes
	}
	if len(value) > maxBytes {
		return
	}
	if old, ok := c.m[key]; ok {
		c.bytes -= len(old)
		delete(c.m, key)
	}
	for k, v := range c.m {
		if len(c.m) < max && c.bytes+len(value) <= maxBytes {
			break
		}
		c.bytes -= len(v)
		delete(c.m, k)
	}
	c.m[key] = value
	c.bytes += len(value)
}

// NewMemoryCacheFor returns the MemoryCache an entry point creates for a
// Memo of maxBytes and maxEntries: large enough for the responses of every
// value the Memo keeps (their bodies and encoded headers), so that what the
// Memo keeps is never fetched again because the cache dropped it.
func NewMemoryCacheFor(maxBytes, maxEntries int) *MemoryCache {
	return &MemoryCache{MaxEntries: maxEntries, MaxBytes: maxBytes + maxEntries*entryOverhead}
}

// entryOverhead is a generous bound on an encoded entry's bytes beyond its
// body (the magic line and the JSON header).
const entryOverhead = 2 << 10

// DirCache is a Cache of files in a directory, one per key, named by the
// SHA-256 of the key. Writes are atomic (a temporary file renamed into
// place), so a reader sees a whole old entry or a whole new one; errors are
// dropped (a failed read is a miss, a failed write is skipped). Several
// processes may share a directory.
//
// A cache directory is only as trustworthy as the users who can write to
// it, so Get reads nothing but regular files: never through a symbolic
// link (O_NOFOLLOW), never a FIFO, a device or a socket (opened
// non-blocking, then checked), and never more than MaxEntryBytes.
// Anything else is a miss.
type DirCache struct {
	Dir string
	// MaxEntryBytes bounds the size of a file Get reads; 0 means
	// DefaultMaxEntryBytes. A Fetcher whose MaxSize is larger needs it
	// larger too, or its largest entries are never read back.
	MaxEntryBytes int64
}

// DefaultMaxEntryBytes is the largest cache file a DirCache reads by
// default: a manifest of 16 times DefaultMaxSize and its header.
const DefaultMaxEntryBytes = 16*DefaultMaxSize + entryOverhead

// DefaultCacheDir returns os.UserCacheDir()/sitetxt, where the sitetxt
// command keeps its cache.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "sitetxt"), nil
}

func (c DirCache) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(c.Dir, hex.EncodeToString(sum[:16])+".cache")
}

// Get reads the file for key, if it is a regular file of at most
// MaxEntryBytes.
func (c DirCache) Get(key string) ([]byte, bool) {
	max := c.MaxEntryBytes
	if max <= 0 {
		max = DefaultMaxEntryBytes
	}
	f, err := openNoFollow(c.path(key))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > max {
		return nil, false
	}
	// The file may grow after Stat: read at most one byte more than max.
	data := make([]byte, 0, fi.Size()+1)
	buf := bytes.NewBuffer(data)
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil || int64(buf.Len()) > max {
		return nil, false
	}
	return buf.Bytes(), true
}

// Put writes the file for key atomically, creating the directory if needed.
func (c DirCache) Put(key string, value []byte) {
	_ = c.put(key, value)
}

func (c DirCache) put(key string, value []byte) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.Dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(value)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.path(key))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// NoCache is a Cache that stores nothing: every Fetch goes to the network.
type NoCache struct{}

// Get always misses.
func (NoCache) Get(string) ([]byte, bool) { return nil, false }

// Put does nothing.
func (NoCache) Put(string, []byte) {}
