package shareddata

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMain makes the absence of the shared data visible in go test's
// summary: with nothing to check, no test runs, and go test prints
// "ok .../internal/shareddata [no tests to run]".
func TestMain(m *testing.M) {
	flag.Parse()
	if !Present() {
		fmt.Println("shared test data is absent: corpus and conformance tests skip")
		flag.Set("test.run", "^$")
	}
	os.Exit(m.Run())
}

// TestLayout checks that the shared data holds what the tests of every
// package read.
func TestLayout(t *testing.T) {
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
