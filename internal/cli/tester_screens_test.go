package cli

import (
	"fmt"
	"image/png"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/sitetxt/sitetxt/internal/serve"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// TestTesterScreenshots renders the tester in each state docs/tester.md
// shows, in the real headless Chromium, at 1280 x 900, and checks each
// picture is one; with -update it writes them to docs/tester*.png.
func TestTesterScreenshots(t *testing.T) {
	slowtest.Only(t, "renders the tester's six states in Chromium, about a minute")
	chrome := findChromium(t, "the tester's screenshots")
	read := func(name string) string {
		b, err := os.ReadFile("../../testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	aipref := read("robots/aipref.txt")
	site := sitetest.New(t, map[string]string{"/robots.txt": aipref})
	open := testerServer(t)
	guarded := httptest.NewServer(serve.New(serve.Config{Logger: slog.New(slog.DiscardHandler)}).Handler())
	t.Cleanup(guarded.Close)
	down := fmt.Sprintf("http://127.0.0.1:%d/", sitetest.RefusedPort(t))
	states := []struct {
		file, server string
		q            url.Values
	}{
		// The README's example pasted: one row where the profiles agree, a
		// row per outcome where they differ, the deciding lines marked in
		// the editor.
		{"tester.png", open.URL, url.Values{"robots": {read("robots/fict.org.txt")}, "agent": {"ExampleBot"},
			"url": {"/org/plans.html", "/org/about.html"}}},
		// A site's file fetched: shown beside the results, the deciding
		// line marked and scrolled into view; no usage row where no usage
		// line applies.
		{"tester-site.png", open.URL, url.Values{"site": {site.URL + "/"}, "agent": {"Applebot-Extended"},
			"url": {"/archive/old/page", "/news/today"}}},
		// Usage rows where a Content-Usage or Content-Signal line applies.
		{"tester-usage.png", open.URL, url.Values{"robots": {aipref}, "agent": {"ExampleBot"},
			"url": {"/ai-ok/page", "/never/x"}, "profile": {"rfc9309", "google"}}},
		// A site that does not answer: said once, the standards' derived
		// decisions folded.
		{"tester-unreachable.png", open.URL, url.Values{"site": {down}, "url": {"/private/x"}}},
		// A site the guard refuses: said as refused, nothing decided.
		{"tester-refused.png", guarded.URL, url.Values{"site": {site.URL + "/"}, "url": {"/private/x"}}},
		// The Mobile-agent-server tab: a server, the server none, no line.
		{"tester-agents.png", open.URL, url.Values{"tab": {"agents"}, "agent": {"Aglet"},
			"robots": {"User-agent: *\nDisallow: /home/private/\nMobile-agent-server: /home/ none\nMobile-agent-server: /home/user1/ atp://user1.example.org:854\n"},
			"url":    {"/home/user1/index.html", "/home/z", "/about", "/home/private/x"}}},
	}
	dir := t.TempDir()
	if *update {
		dir = filepath.Join("..", "..", "docs")
	}
	for _, s := range states {
		t.Run(s.file, func(t *testing.T) {
			out := filepath.Join(dir, s.file)
			chromiumScreenshot(t, chrome, t.TempDir(), s.server+"/?"+s.q.Encode(), "1280,900", out)
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatalf("%s: %v", s.file, err)
			}
			if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 900 {
				t.Errorf("%s is %v, want 1280 x 900", s.file, b)
			}
		})
	}
}
