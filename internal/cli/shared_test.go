package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// TestSharedDataInsideModule: tests reach ../shared through a path inside
// the module, the only kind Go's test cache rechecks, so they run again
// when the data appears (issue 15, point 1).
func TestSharedDataInsideModule(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if p := shareddata.Path("corpus"); !strings.HasPrefix(p, root+string(filepath.Separator)) {
		t.Errorf("shareddata.Path(corpus) = %s, want a path inside the module %s", p, root)
	}
	link := filepath.Join(root, "testdata", "shared")
	target, err := os.Readlink(link)
	if err != nil || target != filepath.Join("..", "..", "shared") {
		t.Errorf("testdata/shared links to %q (%v), want ../../shared", target, err)
	}
	if shareddata.Present() {
		if _, err := os.Stat(filepath.Join(root, "..", "shared")); err != nil {
			t.Errorf("shareddata.Present() but ../shared: %v", err)
		}
	}
}
