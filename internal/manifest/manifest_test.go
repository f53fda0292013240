package manifest

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/robots"
)

func names(ks []*Kind) string {
	var out []string
	for _, k := range ks {
		out = append(out, k.Name)
	}
	return strings.Join(out, " ")
}

func TestTable(t *testing.T) {
	for _, k := range Kinds {
		if got, ok := ByName(k.Name); !ok || got != k {
			t.Errorf("ByName(%q) = %v, %v; want its row", k.Name, got, ok)
		}
		if k.In != "" {
			if _, ok := ByName(k.In); !ok {
				t.Errorf("%s: In = %q, no such kind", k.Name, k.In)
			}
		}
	}
	if got := names(Shown("lint")); got != "robots datatxt signatures" {
		t.Errorf(`Shown("lint") = %s, want robots datatxt signatures`, got)
	}
	if got := names(Shown("fetch")); got != "robots datatxt signatures" {
		t.Errorf(`Shown("fetch") = %s, want robots datatxt signatures`, got)
	}
	if !Signatures.JSON || Robots.JSON || len(Signatures.Linters()) != 1 {
		t.Errorf("Signatures: JSON %v, %d checks; want a JSON kind with its reader's check", Signatures.JSON, len(Signatures.Linters()))
	}
	if n := len(Robots.Linters()); n != 2 {
		t.Errorf("Robots.Linters() has %d checks, want robots.txt's and Mobile-agent-server's", n)
	}
	if n := len(DataTxt.Linters()); n != 1 {
		t.Errorf("DataTxt.Linters() has %d checks, want 1", n)
	}
	for _, tt := range []struct {
		k    *Kind
		prof robots.Profile
		want *fetch.Access
	}{
		{Robots, robots.RFC9309, fetch.AccessRFC9309},
		{Robots, robots.Draft, fetch.AccessDraft},
		{DataTxt, robots.Draft, fetch.AccessDataTxt},
		{MobileAgent, robots.Draft, fetch.AccessRFC9309},
	} {
		if got := tt.k.AccessFor(tt.prof); got != tt.want {
			t.Errorf("%s.AccessFor(%s) = %s, want %s", tt.k.Name, tt.prof, got, tt.want)
		}
	}
}

func TestOf(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"robots.txt", "User-agent: *\n", "robots"},
		{"x/data.txt", "", "datatxt"},
		{"list.yaml.txt", "", "datatxt"},
		{"x.txt", "# c\n- path: a.csv\n", "datatxt"},
		{"x.txt", "Path: /a.csv\n", "datatxt"},
		{"x.txt", "User-agent: *\nDisallow: /path: x\n", "robots"},
		{"https://bot.example/.well-known/http-message-signatures-directory", "{}", "signatures"},
		{"keys/http-message-signatures-directory", "{}", "signatures"},
		{"directory.json", `{"keys": []}`, "robots"}, // told by its path only, as the draft serves it
	}
	for _, tt := range tests {
		if got := Of(tt.name, tt.data); got.Name != tt.want {
			t.Errorf("Of(%q, %q) = %s, want %s", tt.name, tt.data, got.Name, tt.want)
		}
	}
}

func TestLocate(t *testing.T) {
	tests := []struct {
		k         *Kind
		arg, want string
		page      bool
		discovers bool
	}{
		{Robots, "https://Example.org", "https://example.org/robots.txt", false, false},
		{Robots, "https://example.org/a/page.html", "https://example.org/robots.txt", true, false},
		{Robots, "https://example.org/robots.txt", "https://example.org/robots.txt", false, false},
		{DataTxt, "https://example.org/", "https://example.org/data.txt", false, false},
		{DataTxt, "https://example.org/sub/data.txt", "https://example.org/sub/data.txt", false, false},
		{Sitemap, "https://example.org/", "https://example.org/sitemap.xml", false, true},
		{Sitemap, "https://example.org/robots.txt", "https://example.org/sitemap.xml", true, true},
		{Sitemap, "https://example.org/maps/index.xml", "https://example.org/sitemap.xml", true, false},
		{Signatures, "https://bot.example", "https://bot.example/.well-known/http-message-signatures-directory", false, false},
		{Signatures, "https://bot.example/.well-known/http-message-signatures-directory", "https://bot.example/.well-known/http-message-signatures-directory", false, false},
	}
	for _, tt := range tests {
		got, page, err := tt.k.Locate(tt.arg)
		if err != nil || got != tt.want || page != tt.page {
			t.Errorf("%s.Locate(%q) = %q, %v, %v; want %q, %v", tt.k.Name, tt.arg, got, page, err, tt.want, tt.page)
		}
		u, _ := url.Parse(tt.arg)
		if d := tt.k.Discovers(u); d != tt.discovers {
			t.Errorf("%s.Discovers(%q) = %v, want %v", tt.k.Name, tt.arg, d, tt.discovers)
		}
	}
}

// TestNoDispatchElsewhere: the surfaces compare no kind's name or file
// name with a string: they read the table.
func TestNoDispatchElsewhere(t *testing.T) {
	dispatch := regexp.MustCompile(`(==|!=|case)\s*"(robots|datatxt|mobileagent|sitemap|robots\.txt|data\.txt|sitemap\.xml)"`)
	for _, dir := range []string{"../cli", "../serve", "../lint", "../audit"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(data), "\n") {
				if m := dispatch.FindString(line); m != "" {
					t.Errorf("%s:%d: %s: dispatch on a manifest kind by string; read internal/manifest's table", f, i+1, m)
				}
			}
		}
	}
}
