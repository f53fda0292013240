package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

// TestLibraryErgonomics covers issue 15, point 10, from the library side
// the CLI is built on: a zero robots.Client sends the crawler's name, not
// sitetxt's; Check takes the path-only URLs the CLI takes (against
// BaseURL); Group has a String; a data.txt's access records compile with
// robots.Compile and no adapter.
func TestLibraryErgonomics(t *testing.T) {
	var mu sync.Mutex
	var agents []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.Header.Get("User-Agent"))
		mu.Unlock()
		w.Write([]byte("User-agent: FooBot\nDisallow: /private/\n"))
	}))
	defer srv.Close()
	ctx := context.Background()

	var c robots.Client
	a, err := c.Check(ctx, "FooBot", srv.URL+"/private/x")
	if err != nil || a.Allowed {
		t.Fatalf("zero Client.Check(FooBot, /private/x) = %+v, %v; want disallowed", a, err)
	}
	if len(agents) != 1 || agents[0] != "FooBot" || strings.Contains(agents[0], "sitetxt") {
		t.Errorf("zero Client sent User-Agent %q, want the crawler's own, FooBot", agents)
	}
	var star robots.Client
	if _, err := star.Check(ctx, "*", srv.URL+"/"); err == nil || !strings.Contains(err.Error(), "UserAgent") {
		t.Errorf("zero Client.Check(*) error = %v; want one asking for UserAgent", err)
	}

	pc := robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "FooBot/1.0"}, BaseURL: srv.URL + "/"}
	if a, err := pc.Check(ctx, "FooBot", "/private/x?y"); err != nil || a.Allowed || a.URL != srv.URL+"/private/x?y" {
		t.Errorf("Client{BaseURL}.Check(/private/x?y) = %+v, %v; want disallowed on the base site", a, err)
	}
	var noBase robots.Client
	if _, err := noBase.Check(ctx, "FooBot", "/private/x"); err == nil || !strings.Contains(err.Error(), "BaseURL") {
		t.Errorf("Client.Check(path) without BaseURL: error %v, want one naming BaseURL", err)
	}

	pol := robots.Compile(grammar.ParseString("r", "User-agent: a\nUser-agent: b\nDisallow: /\n", grammar.Options{}), robots.RFC9309)
	if got, want := pol.Groups()[0].String(), "User-agent: a, b (line 1)"; got != want {
		t.Errorf("Group.String() = %q, want %q", got, want)
	}

	c2 := datatxt.Parse("data.txt", []byte("User-agent: *\nDisallow: /private/\n\nPath: /private/a.csv\nName: a\n"),
		datatxt.Options{Base: "https://example.org/data.txt", Rules: datatxt.CompileRules(robots.Compile, robots.RFC9309)})
	if len(c2.Entries) != 1 || c2.Entries[0].Access != datatxt.Disallowed || c2.Entries[0].DeniedBy != "data.txt" {
		t.Errorf("datatxt with robots.Compile rules: entries %+v; want /private/a.csv disallowed", c2.Entries)
	}
}
