package datatxt_test

import (
	"context"
	"fmt"

	"github.com/sitetxt/sitetxt/datatxt"
)

func ExampleDiscoverDir() {
	// A pins 0.x board on disk: the index lists mtcars as a directory, whose
	// own data.txt lists its files.
	c, err := datatxt.DiscoverDir(context.Background(), "../testdata/datatxt/boards/v0/data.txt",
		datatxt.Options{Base: "https://example.org/board/data.txt"}, datatxt.BoardLimits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range c.Entries[:2] {
		fmt.Println(e.Name, e.URLs)
	}
	// Output:
	// mtcars [https://example.org/board/mtcars/data.csv https://example.org/board/mtcars/data.rds]
	// iris [https://example.org/board/iris/data.csv]
}
