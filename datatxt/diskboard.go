package datatxt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sitetxt/sitetxt/fetch"
)

// maxDiskRead bounds what DiscoverDir reads of one file when
// Options.MaxSize asks for no limit.
const maxDiskRead = 64 << 20

// DiscoverDir is Discover for a board on disk, read by the same rules
// within the same limits (lim counts files read as Discover counts
// fetches):
//
//   - path is a data.txt, whose pins 0.x directory entries ("path:
//     mtcars") take the files their own mtcars/data.txt lists; a _pins.yaml
//     (pins 1.x), each pin read from its latest version directory's
//     data.txt; or a board directory: its data.txt, else its _pins.yaml.
//   - Files are read from path's directory and below only: a pins
//     directory elsewhere ("../x", an http URL) is not followed, with a
//     warning.
//   - opts.Base is the URL the first file is published at; every path
//     resolves against it as Discover's resolve against the URLs it
//     fetched. Without it, paths resolve as if the first file were
//     /data.txt (host-less URLs), with one warning.
//
// Only the first file's failure is an error: one that cannot be read, or
// a directory with neither data.txt nor _pins.yaml.
func DiscoverDir(ctx context.Context, path string, opts Options, lim BoardLimits) (*Catalog, error) {
	lim = lim.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	root, first := filepath.Dir(path), filepath.Base(path)
	if st.IsDir() {
		root, first = path, ""
	}
	disk := &diskBoard{fsys: os.DirFS(root), root: root}
	if opts.Base != "" {
		if b, err := url.Parse(opts.Base); err == nil {
			disk.base = b
		}
	}
	d := &discovery{ctx: ctx, lim: lim, opts: opts, seen: map[string]*fetch.Result{}, disk: disk}
	dir := first == ""
	if dir {
		for _, name := range []string{"data.txt", "_pins.yaml"} {
			if st, err := fs.Stat(disk.fsys, name); err == nil && st.Mode().IsRegular() {
				first = name
				break
			}
		}
		if first == "" {
			return nil, fmt.Errorf("%s: a directory with neither data.txt nor _pins.yaml (a pins board has one of them)", path)
		}
	}
	if first == "_pins.yaml" {
		return d.manifest(first, nil)
	}
	r, err := d.get(first)
	if err != nil {
		return nil, err
	}
	if r.Status != fetch.Parse {
		return nil, r.Err
	}
	o := opts
	if dir && disk.base != nil {
		o.Base = disk.urlOf(first) // a directory's URL means its data.txt's
	}
	c := d.parse(first, r, o)
	d.follow(c, first, 1)
	return c, nil
}

// diskBoard is a board in a directory. Locations in it are slash paths
// relative to the directory (fs.ValidPath: nothing outside it).
type diskBoard struct {
	fsys  fs.FS
	root  string           // the directory as the caller named it, for names
	base  *url.URL         // the first file's URL (Options.Base), nil when unknown
	sizes map[string]int64 // the whole size of each file read that was longer than what was read
}

// name is the path of the file at loc as the caller would write it.
func (b *diskBoard) name(loc string) string {
	return filepath.Join(b.root, filepath.FromSlash(loc))
}

// resolve returns the location of ref, a relative URL reference written in
// the file at loc, and false when ref is no such reference or leads
// outside the board's directory.
func (b *diskBoard) resolve(loc, ref string) (string, bool) {
	u, err := url.Parse(ref)
	if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") {
		return "", false
	}
	p := path.Join(path.Dir(loc), u.Path)
	return p, fs.ValidPath(p)
}

// urlOf is the URL of the file at loc: resolved against the base, or
// host-less ("/mtcars/data.txt") without one.
func (b *diskBoard) urlOf(loc string) string {
	if b.base == nil {
		return "/" + loc
	}
	return b.base.ResolveReference(&url.URL{Path: loc}).String()
}

// read reads the file at loc, at most max bytes and one more (so that
// Parse can say the file was longer, and by how much: its size is kept in
// b.sizes), as a fetch would return it: Parse with the body, NotFound, or
// Error with why.
func (b *diskBoard) read(loc string, max int) *fetch.Result {
	if max < 0 || max > maxDiskRead {
		max = maxDiskRead
	}
	r := &fetch.Result{URL: loc, FinalURL: b.urlOf(loc), Access: fetch.AccessDataTxt}
	data, size, err := readLimited(b.fsys, loc, int64(max)+1)
	if size > int64(len(data)) {
		if b.sizes == nil {
			b.sizes = map[string]int64{}
		}
		b.sizes[loc] = size
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Status, r.Reason = fetch.NotFound, "no such file"
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		r.Status, r.Reason = fetch.Error, err.Error()
		r.Err = &fs.PathError{Op: "read", Path: b.name(loc), Err: err}
	default:
		r.Status, r.Body = fetch.Parse, data
	}
	return r
}

// readLimited reads at most n bytes of the file name, and returns them
// with the file's size when it is a regular file longer than that (else
// the count read).
func readLimited(fsys fs.FS, name string, n int64) ([]byte, int64, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, n))
	size := int64(len(data))
	if st, serr := f.Stat(); err == nil && size == n && serr == nil && st.Mode().IsRegular() {
		size = max(size, st.Size())
	}
	return data, size, err
}
