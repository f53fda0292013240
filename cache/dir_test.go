package cache

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestOpenDirOrphans: OpenDir removes the temporary files that writers
// killed between writing and renaming left (older than OrphanAge), and
// keeps entries, other files and the temporary file of a write in
// progress.
func TestOpenDirOrphans(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * OrphanAge)
	write := func(name string, age time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, age, age); err != nil {
			t.Fatal(err)
		}
		return p
	}
	orphans := []string{write(".tmp-123", old), write(".tmp-456", old)}
	kept := []string{write(".tmp-789", time.Now()), write("0123abcd.cache", old), write("notes.txt", old)}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDir(dir); err != nil {
		t.Fatalf("OpenDir(%s) = %v", dir, err)
	}
	for _, p := range orphans {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("orphan %s still there after OpenDir (%v)", filepath.Base(p), err)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed by OpenDir: %v", filepath.Base(p), err)
		}
	}
}

// TestOpenDirUnsafe: a directory that its group or others may write to is
// refused with ErrUnsafeDir; one OpenDir creates is 0700.
func TestOpenDirUnsafe(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permissions only")
	}
	for _, mode := range []os.FileMode{0o777, 0o770, 0o722, 0o1777} {
		dir := filepath.Join(t.TempDir(), "c")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenDir(dir); !errors.Is(err, ErrUnsafeDir) {
			t.Errorf("OpenDir(a directory of mode %#o) = %v, want ErrUnsafeDir", mode, err)
		}
	}
	dir := filepath.Join(t.TempDir(), "new", "cache")
	if _, err := OpenDir(dir); err != nil {
		t.Fatalf("OpenDir(a new directory) = %v", err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("OpenDir created %s with mode %v (%v), want 0700", dir, fi.Mode().Perm(), err)
	}
}
