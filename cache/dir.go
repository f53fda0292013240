package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Dir is a Cache of files in a directory, one per key, named by the
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
type Dir struct {
	Dir string
	// MaxEntryBytes bounds the size of a file Get reads; 0 means
	// DefaultMaxEntryBytes. A Fetcher whose MaxSize is larger needs it
	// larger too, or its largest entries are never read back.
	MaxEntryBytes int64
}

// DefaultMaxEntryBytes is the largest cache file a Dir reads by default:
// a manifest of 16 times 500 KiB (the default size limit of every fetcher)
// and 2 KiB of header.
const DefaultMaxEntryBytes = 16*(500<<10) + 2<<10

// NewDir returns a Cache of files in dir (created when needed), one per
// manifest URL, written atomically; several processes may share it. It
// checks nothing: OpenDir does.
func NewDir(dir string) Cache { return Dir{Dir: dir} }

// tmpPrefix starts the name of a file Put writes before renaming it into
// place.
const tmpPrefix = ".tmp-"

// OrphanAge is how old a temporary file must be for OpenDir to take it
// for one a writer left (killed between writing and renaming it): a write
// takes milliseconds, and several processes may share the directory.
const OrphanAge = time.Minute

// ErrUnsafeDir is OpenDir's error for a directory that users other than
// its owner may write to: they could plant entries (a cache is only as
// trustworthy as those who can write to it).
var ErrUnsafeDir = errors.New("the cache directory is writable by other users")

// OpenDir opens the directory cache in dir: it creates dir (0700) when it
// is missing, refuses one that another user owns or that its group or
// others may write to (ErrUnsafeDir, on systems with Unix permissions),
// and removes the temporary files that writers killed mid-write left
// there (older than OrphanAge), so that they do not pile up.
func OpenDir(dir string) (Dir, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Dir{}, err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return Dir{}, err
	}
	if why := unsafeDir(fi); why != "" {
		return Dir{}, fmt.Errorf("%s: %w (%s): chmod go-w it, or choose another", dir, ErrUnsafeDir, why)
	}
	removeOrphans(dir, time.Now().Add(-OrphanAge))
	return Dir{Dir: dir}, nil
}

// removeOrphans removes the temporary files of dir last written before
// cutoff.
func removeOrphans(dir string, cutoff time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tmpPrefix) || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// DefaultDir returns os.UserCacheDir()/sitetxt, where the sitetxt command
// keeps its cache.
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "sitetxt"), nil
}

// Path returns the file that holds key.
func (c Dir) Path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(c.Dir, hex.EncodeToString(sum[:16])+".cache")
}

// Get reads the file for key, if it is a regular file of at most
// MaxEntryBytes.
func (c Dir) Get(key string) ([]byte, bool) {
	max := c.MaxEntryBytes
	if max <= 0 {
		max = DefaultMaxEntryBytes
	}
	f, err := openNoFollow(c.Path(key))
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
func (c Dir) Put(key string, value []byte) {
	_ = c.put(key, value)
}

func (c Dir) put(key string, value []byte) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.Dir, tmpPrefix+"*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(value)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.Path(key))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// None is a Cache that stores nothing: every fetch goes to the network.
type None struct{}

// Get always misses.
func (None) Get(string) ([]byte, bool) { return nil, false }

// Put does nothing.
func (None) Put(string, []byte) {}
