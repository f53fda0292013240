package layers

import (
	"fmt"
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/sitetxt/sitetxt"

// list returns the module's packages and their imports (not those of
// their tests), read with go/build from the source files, so that go
// test's cache sees the files and runs the test again when they change.
func list(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		rel, _ := filepath.Rel(root, path)
		pkgs[filepath.ToSlash(rel)] = p.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("found %d packages under %s, want the module's", len(pkgs), root)
	}
	return pkgs
}

// public reports whether a package of the module is a public one (a
// library package, not internal and not the command).
func public(p string) bool {
	return p != "internal" && !strings.HasPrefix(p, "internal/") && !strings.HasPrefix(p, "cmd/")
}

// discoverImports are the packages of the module discover may import: it
// sits above the interpreters (robots: the gate; sitemap: the walk;
// datatxt: entries and exports), the transport and the pacer.
var discoverImports = []string{"robots", "datatxt", "sitemap", "mobileagent", "fetch", "cache", "pace", "grammar", "jsonpos", "termsafe"}

// inCache reports whether a package of the module is cache or under it.
func inCache(p string) bool { return p == "cache" || strings.HasPrefix(p, "cache/") }

// TestLayers checks the layering rules on the import graph.
func TestLayers(t *testing.T) {
	pkgs := list(t)
	interpreters := []string{"robots", "datatxt", "mobileagent", "sitemap"}
	for p, imports := range pkgs {
		for _, imp := range imports {
			rel, ours := strings.CutPrefix(imp, module+"/")
			switch {
			case ours && public(p) && !public(rel):
				t.Errorf("public package %s imports %s: no public package may import internal/", p, imp)
			case ours && slices.Contains(interpreters, p) && slices.Contains(interpreters, rel):
				t.Errorf("interpreter %s imports interpreter %s: interpreters read the tree, never each other", p, rel)
			case ours && p == "aipref" && rel != "grammar":
				t.Errorf("aipref imports %s: the vocabularies sit beside the interpreters and use only grammar", rel)
			case ours && p == "webbotauth" && rel != "grammar" && rel != "jsonpos":
				t.Errorf("webbotauth imports %s: the key directory reader sits beside the interpreters and uses only grammar (positions, diagnostics) and jsonpos (JSON with offsets)", rel)
			case ours && p == "jsonpos":
				t.Errorf("jsonpos imports %s: reading JSON with its offsets sits beside grammar at the bottom and imports nothing else of the module", rel)
			case ours && inCache(p) && !inCache(rel):
				t.Errorf("%s imports %s: cache/ is the bottom of the transport and imports nothing else of the module", p, rel)
			case ours && (p == "fetch" || inCache(p)) && (slices.Contains(interpreters, rel) || rel == "pace" || strings.HasPrefix(rel, "pace/")):
				t.Errorf("transport package %s imports %s: the transport lies under the interpreters and the pacer", p, rel)
			case ours && (p == "pace" || strings.HasPrefix(p, "pace/")) && slices.Contains(interpreters, rel) && rel != "robots":
				t.Errorf("%s imports %s: the pacer reads robots.txt's pace lines (robots) and no other interpreter", p, rel)
			case ours && rel == "discover" && p != "discover" && public(p):
				t.Errorf("%s imports discover: discovery sits above the interpreters and the transport, and no library package below the surfaces imports it", p)
			case ours && p == "discover" && !slices.Contains(discoverImports, rel):
				t.Errorf("discover imports %s: it may import the interpreters, the transport, the pacer and grammar only", rel)
			case strings.HasPrefix(imp, "github.com/alecthomas/participle") && p != "grammar":
				t.Errorf("%s imports %s: only grammar imports participle", p, imp)
			}
		}
	}
}
