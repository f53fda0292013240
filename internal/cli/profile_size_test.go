package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

// TestLibraryAgreesOnSize: a library user who parses a 535 KB file with
// grammar.Options{} and compiles it gets the verdict sitetxt check gives
// under every profile: the profile decides how much is read (google: all
// of it), in one place, for both (issue 24, point 10).
func TestLibraryAgreesOnSize(t *testing.T) {
	src := strings.Repeat("# padding line\n", 535_000/15) + "User-agent: *\nDisallow: /late\n"
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range robots.Profiles {
		lib := robots.Compile(grammar.ParseString(path, src, grammar.Options{}), p).Allowed("FooBot", "/late")
		_, _, code := runCLI(t, "", "check", "--profile", p.String(), "--agent", "FooBot", path, "/late")
		if cli := code == ExitOK; cli != lib {
			t.Errorf("%s: library Allowed(/late) = %v, sitetxt check exit %d (allowed %v)", p, lib, code, cli)
		}
		if want := p.MaxSize() >= 0; lib != want {
			t.Errorf("%s: Allowed(/late) = %v, want %v: the rule is past 500 KiB", p, lib, want)
		}
	}
}
