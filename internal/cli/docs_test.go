package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// TestCLIDoc keeps docs/cli.md equal to what cobra's generator writes
// from the commands' help (go test ./internal/cli -run CLIDoc -update).
func TestCLIDoc(t *testing.T) {
	root := NewRootCmd(System())
	var b bytes.Buffer
	b.WriteString("# sitetxt command reference\n\nGenerated from the commands' own help by cobra's doc generator;\n`go test ./internal/cli -run CLIDoc -update` rewrites it; the output contract below comes from internal/cli/contract.go.\n\n")
	b.WriteString(contractDoc)
	b.WriteString("# Commands\n\n")
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root {
			return
		}
		if err := doc.GenMarkdownCustom(c, &b, func(name string) string { return "#" + anchor(name) }); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	path := filepath.Join("..", "..", "docs", "cli.md")
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/cli -run CLIDoc -update)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("docs/cli.md is out of date: run go test ./internal/cli -run CLIDoc -update")
	}
}

// anchor turns a generated file name ("sitetxt_parse.md") into the anchor
// of that command's heading in the single cli.md.
func anchor(name string) string {
	name = name[:len(name)-len(filepath.Ext(name))]
	out := []byte(name)
	for i, c := range out {
		if c == '_' {
			out[i] = '-'
		}
	}
	return string(out)
}
