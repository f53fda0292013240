package shareddata_test

import (
	"fmt"
	"path/filepath"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// A test finds the robots.txt corpus through the link inside the module.
func ExamplePath() {
	p := shareddata.Path("corpus", "robots")
	fmt.Println(filepath.Base(filepath.Dir(filepath.Dir(p))), filepath.Base(filepath.Dir(p)), filepath.Base(p))
	// Output: shared corpus robots
}
