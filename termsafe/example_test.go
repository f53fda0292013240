package termsafe_test

import (
	"fmt"

	"github.com/sitetxt/sitetxt/termsafe"
)

func ExampleString() {
	// A site's robots.txt comment that would retitle a terminal.
	fmt.Println(termsafe.String("# hi\x1b]0;owned\x07"))
	// Output: # hi\x1b]0;owned\x07
}

func ExampleCSVCell() {
	// A dataset title a spreadsheet would run as a formula.
	fmt.Println(termsafe.CSVCell("=HYPERLINK(\"http://evil\")"))
	// Output: '=HYPERLINK("http://evil")
}
