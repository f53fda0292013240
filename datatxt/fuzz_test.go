package datatxt

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
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

// FuzzExport checks that every export format writes whatever Parse
// returns without failing, that CSV cells never start a formula, that no
// catalog export carries a URL outside http(s), and that the YAML output
// reads back.
func FuzzExport(f *testing.F) {
	for _, s := range []string{
		"- path: a.csv\n  name: '=1+1'\n  modified: 2021-13-45\n",
		"- path: 'javascript:x'\n- path: [a.csv, b]\n  file_size: [1, 2]\n",
		"Path: /a\nName: @x\nColumns: y\n",
		"file: x.json\nfile_size: 3\ncreated: 20220811T155805Z\ncolumns:\n  a: character\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		c := Parse("fuzz", src, Options{Base: "https://example.org/data.txt", MaxNodes: 10000})
		for _, format := range Formats {
			var buf bytes.Buffer
			if _, err := Export(&buf, c, format, ExportOptions{Publisher: "P", ContactName: "C"}); err != nil {
				t.Fatalf("Export(%s): %v", format, err)
			}
			switch format {
			case "csv":
				rows, err := csv.NewReader(&buf).ReadAll()
				if err != nil {
					t.Fatalf("csv does not read back: %v", err)
				}
				for _, row := range rows[1:] {
					for _, cell := range row {
						if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
							t.Errorf("csv cell %q starts a formula", cell)
						}
					}
				}
			case "yaml":
				var back []any
				if err := yaml.Unmarshal(buf.Bytes(), &back); err != nil {
					t.Errorf("yaml does not read back: %v", err)
				}
			case "json":
			default:
				out := strings.ToLower(buf.String())
				for _, key := range []string{"contenturl", "downloadurl", "accessurl", "@id", "url", "path", "license", "isbasedon"} {
					for _, bad := range []string{"javascript:", "file:", "data:"} {
						if strings.Contains(out, `"`+key+`": "`+bad) {
							t.Errorf("-o %s carries a %s URL as %s", format, bad, key)
						}
					}
				}
			}
		}
	})
}
