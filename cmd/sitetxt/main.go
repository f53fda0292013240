// Command sitetxt reads the text manifests web sites publish for machines:
// robots.txt, data.txt and Mobile-agent-server lines. Run "sitetxt help"
// for its commands; docs/cli.md has them all.
package main

import (
	"os"

	"github.com/sitetxt/sitetxt/internal/cli"
)

func main() {
	os.Exit(cli.Main(cli.System()))
}
