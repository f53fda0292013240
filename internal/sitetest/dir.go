package sitetest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FromDir starts a site serving the files of dir at their paths (its
// index.html at "/" too), with the header fields its _headers file lists,
// one a line: "PATH<TAB>Name: value". override replaces or adds files.
func FromDir(t testing.TB, dir string, override map[string]string) *Site {
	t.Helper()
	files := map[string]string{}
	type field struct{ path, name, value string }
	var fields []field
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "_headers" {
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				path, h, _ := strings.Cut(l, "\t")
				name, value, _ := strings.Cut(h, ": ")
				fields = append(fields, field{path, name, value})
			}
			return nil
		}
		files["/"+filepath.ToSlash(rel)] = string(b)
		if rel == "index.html" {
			files["/"] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, body := range override {
		files[p] = body
	}
	s := New(t, files)
	for _, f := range fields {
		s.SetHeader(f.path, f.name, strings.ReplaceAll(f.value, "$SITE", s.URL))
	}
	return s
}
