package datatxt

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics or hangs, that every entry has a
// path and a valid position inside the input, and that every diagnostic
// position is inside it too, in all three form settings.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"- path: a.csv\n  name: a\n",
		"path:\n- a\n- b\nrows: 3\n",
		"User-agent: *\nDisallow: /p/\n\nPath: /p/a\nName: a\n",
		"- &a [x, *a]\n",
		"- path: !expr 1+1\n",
		"- path: a\n  d: x: y\n",
		"\xEF\xBB\xBF- path: \"\\u00e9\"\r\n  name: é\r",
		bomb(4, 4),
	} {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../testdata/datatxt/*.txt")
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, form := range []Form{FormAuto, FormYAML, FormRecords} {
			c := Parse("fuzz", src, Options{Form: form, Base: "https://example.org/data.txt", MaxNodes: 10000,
				Rules: compileFake, Robots: &prefixAccess{}})
			checkPositions(t, c, src)
			for _, e := range c.Entries {
				if e.Access == Unknown {
					t.Errorf("entry %q: Access is Unknown with a policy given", e.Name)
				}
			}
		}
	})
}
