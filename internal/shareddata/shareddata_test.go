package shareddata

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMain makes the absence of the shared data visible in go test's
// summary line: after the tests (whose look at the data Go's test cache
// records, so that the package runs again when the data appears), it
// prints the line go test turns into "[no tests to run]".
func TestMain(m *testing.M) {
	code := m.Run()
	if !Present() {
		fmt.Println("shared test data is absent (../shared beside the repository): corpus and conformance tests were skipped")
		fmt.Println("testing: warning: no tests to run")
	}
	os.Exit(code)
}

// TestLayout checks that the shared data holds what the tests of every
// package read.
func TestLayout(t *testing.T) {
	if !Present() {
		t.Skipf("%s is absent", Root())
	}
	for _, p := range [][]string{
		{"conformance", "google-robotstxt.json"},
		{"peer-suites", "cases.json"},
		{"corpus", "robots"},
		{"corpus", "urls"},
		{"corpus", "datatxt"},
	} {
		if _, err := os.Stat(Path(p...)); err != nil {
			t.Errorf("shared data lacks %s: %v", filepath.Join(p...), err)
		}
	}
}
