package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// TestHostileSitemaps runs "sitetxt sitemaps" in a child process on
// hostile sitemap files and reports its peak resident memory: a 1 GiB
// gzip bomb (1,024 gzip members of 1 MiB of XML comments, 1 MB on disk),
// 50,001 URLs, and entities a DOCTYPE declares (XXE, billion laughs),
// which are errors, never URLs.
func TestHostileSitemaps(t *testing.T) {
	slowtest.Only(t, "a 1 GiB gzip bomb in a child process")
	dir := t.TempDir()
	var bomb bytes.Buffer
	if _, err := io.Copy(&bomb, sitetest.Bomb(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`, "<!---->")); err != nil {
		t.Fatal(err)
	}
	bombFile := filepath.Join(dir, "bomb.xml.gz")
	if err := os.WriteFile(bombFile, bomb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var many strings.Builder
	many.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range 50001 {
		many.WriteString("<url><loc>https://www.example.org/p/" + strings.Repeat("x", i%7) + "</loc><priority>0.5</priority></url>\n")
	}
	many.WriteString("</urlset>\n")
	manyFile := filepath.Join(dir, "many.xml")
	if err := os.WriteFile(manyFile, []byte(many.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, file, code string
	}{
		{"1 GiB gzip bomb", bombFile, "[too-large]"},
		{"50,001 URLs", manyFile, "[too-many-urls]"},
		{"XXE", filepath.Join("..", "..", "testdata", "sitemap", "hostile-xxe.xml"), "hostile-xxe.xml:7:37: error: entity &xxe; "},
		{"billion laughs", filepath.Join("..", "..", "testdata", "sitemap", "hostile-laughs.xml"), "hostile-laughs.xml:15:37: error: entity &lol9; "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut, rss, took := run(t, nil, "sitemaps", "-o", "json", tt.file)
			t.Logf("%s (%d bytes on disk): exit %d, %d bytes out, peak RSS %d MiB, %v", tt.name, fileSize(t, tt.file), code, len(out), rss>>20, took)
			if code != 1 || !strings.Contains(errOut, tt.code) {
				t.Errorf("exit %d, stderr %q; want 1 and %s", code, errOut, tt.code)
			}
			if strings.Contains(out, "&") {
				t.Errorf("a URL with an entity reference in the output: %.200q", out)
			}
			if rss > 64<<20 {
				t.Errorf("peak RSS %d MiB, want under 64 MiB", rss>>20)
			}
		})
	}
}

func fileSize(t *testing.T, name string) int64 {
	st, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}
