package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
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
// manifest URL, written atomically; several processes may share it.
func NewDir(dir string) Cache { return Dir{Dir: dir} }

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
	tmp, err := os.CreateTemp(c.Dir, ".tmp-*")
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
