// Package shareddata finds the third-party test data sitetxt's tests read:
// the conformance suites, peer suites, corpora and validators kept beside
// the repository in ../shared (never copied into it).
//
// Tests reach the data through the symbolic link testdata/shared (to
// ../../shared), which lies inside the module. That matters for Go's test
// cache: it rechecks the files a test consulted only when they are inside
// the module, so a path such as ../../shared would leave every package
// "(cached)" after the data appears, with its corpus tests never run. Through
// the link, adding or removing ../shared makes those tests run again.
//
// A test that needs the data calls Require, which skips the test with a
// message naming what is missing. The package's own test reports, in the
// summary line of go test, "[no tests to run]" when ../shared is absent.
package shareddata

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// Root returns the absolute path of the link to the shared data,
// <module>/testdata/shared.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "shared")
}

// Path returns the absolute path of elem under the shared data, as seen
// through the link ("corpus", "robots" is .../testdata/shared/corpus/robots).
func Path(elem ...string) string {
	return filepath.Join(append([]string{Root()}, elem...)...)
}

// Present reports whether the shared data is there.
func Present() bool {
	st, err := os.Stat(Root())
	return err == nil && st.IsDir()
}

// Require returns Path(elem...) or skips t, saying what is missing, when
// it does not exist.
func Require(t testing.TB, elem ...string) string {
	t.Helper()
	p := Path(elem...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared test data %s is absent (place the shared data at ../shared beside the repository): %v", filepath.Join(elem...), err)
	}
	return p
}

// Files returns the paths of the files of the folder Path(elem...), in
// name order, or skips t (Require) when it is absent.
func Files(t testing.TB, elem ...string) []string {
	t.Helper()
	dir := Require(t, elem...)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		if e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// SampleEvery is the stride of Sample when the slow tests do not run.
const SampleEvery = 16

// Sample returns the items a corpus test checks: all of them in the slow
// tier (go test -tags slow, see internal/slowtest), else every SampleEvery-th (the same ones each run),
// which keeps go test -race ./... quick while every invariant is still
// checked on real files; the test log says which.
func Sample[T any](t testing.TB, items []T) []T {
	t.Helper()
	return SampleEveryN(t, items, SampleEvery)
}

// SampleEveryN is Sample with its own stride, for a test whose check per
// item costs more (a whole command run per file).
func SampleEveryN[T any](t testing.TB, items []T, every int) []T {
	t.Helper()
	if slowtest.On || len(items) <= every {
		t.Logf("checking all %d items", len(items))
		return items
	}
	out := make([]T, 0, len(items)/every+1)
	for i := 0; i < len(items); i += every {
		out = append(out, items[i])
	}
	t.Logf("checking %d of %d items (every %dth; go test -tags slow checks all)", len(out), len(items), every)
	return out
}
