// Command peakrss runs sitetxt and then reports its own peak resident
// memory (VmHWM) on standard error, for the tests of hostile inputs. The
// tests build it without the race detector, whose shadow memory would
// swamp the figure.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/sitetxt/sitetxt/internal/cli"
)

func main() {
	code := cli.Main(cli.System())
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(l, "VmHWM:") {
				fmt.Fprintf(os.Stderr, "\npeak-rss: %s\n", strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")))
			}
		}
	}
	os.Exit(code)
}
