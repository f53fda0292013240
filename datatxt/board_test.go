package datatxt

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
)

// boardServer serves ../testdata/datatxt/boards over loopback and counts
// the requests for each path.
func boardServer(t *testing.T) (*httptest.Server, func(string) int) {
	t.Helper()
	var mu sync.Mutex
	hits := map[string]int{}
	files := http.FileServer(http.Dir("../testdata/datatxt/boards"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		if r.URL.Path == "/slow/data.txt" {
			<-r.Context().Done() // answers only when the client gives up
			return
		}
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no directory listings
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func(p string) int {
		mu.Lock()
		defer mu.Unlock()
		return hits[p]
	}
}

type boardEntry struct {
	Name  string
	URLs  []string
	Extra string // one metadata value the test checks
}

func boardEntries(c *Catalog, srv string, key string) []boardEntry {
	var out []boardEntry
	for _, e := range c.Entries {
		var urls []string
		for _, u := range e.URLs {
			urls = append(urls, strings.TrimPrefix(u, srv))
		}
		out = append(out, boardEntry{e.Name, urls, e.Text(key)})
	}
	return out
}

// TestDiscoverPins0 reads a pins 0.x board as pins does: index entries
// that name directories take the files their own data.txt lists.
func TestDiscoverPins0(t *testing.T) {
	srv, hits := boardServer(t)
	var f Fetcher
	c, err := f.Discover(context.Background(), srv.URL+"/v0/", Options{}, BoardLimits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []boardEntry{
		{"mtcars", []string{"/v0/mtcars/data.csv", "/v0/mtcars/data.rds"}, "11"},
		{"iris", []string{"/v0/iris/data.csv"}, "5"},
		{"missing", []string{"/v0/missing"}, ""},
		{"mtcars-again", []string{"/v0/mtcars/data.csv", "/v0/mtcars/data.rds"}, "11"},
	}
	if got := boardEntries(c, srv.URL, "cols"); !reflect.DeepEqual(got, want) {
		t.Errorf("Discover(v0/) entries =\n%v\nwant\n%v", got, want)
	}
	if cols := c.Entries[0].columns(); len(cols) != 4 || cols[3].name != "am" || cols[3].class != "logical" {
		t.Errorf("mtcars columns = %v, want the pin's data.txt's, in order", cols)
	}
	for p, n := range map[string]int{"/v0/data.txt": 1, "/v0/mtcars/data.txt": 1, "/v0/missing/data.txt": 1, "/v0/iris/data.txt": 0, "/v0/mtcars/data.csv": 0} {
		if got := hits(p); got != n {
			t.Errorf("%s requested %d times, want %d", p, got, n)
		}
	}
	if !hasDiag(c, "board-not-followed", "missing") {
		t.Errorf("no warning for the pin directory without data.txt: %q", diagStrings(c.Diagnostics))
	}
	// In the exports, a directory that could not be read is no download.
	probs, _ := Export(new(strings.Builder), c, "dcat", ExportOptions{Publisher: "P"})
	found := false
	for _, p := range probs {
		if strings.Contains(p.Summary, `"missing" is a pins directory`) {
			found = true
		}
	}
	if !found {
		t.Errorf("dcat export does not report the unread directory: %v", probs.Diagnostics())
	}
}

// TestDiscoverPins1 reads a pins 1.x board through _pins.yaml: each pin's
// latest version directory and its data.txt.
func TestDiscoverPins1(t *testing.T) {
	srv, hits := boardServer(t)
	var f Fetcher
	for _, start := range []string{srv.URL + "/v1/", srv.URL + "/v1/_pins.yaml"} {
		c, err := f.Discover(context.Background(), start, Options{}, BoardLimits{})
		if err != nil {
			t.Fatalf("Discover(%s): %v", start, err)
		}
		want := []boardEntry{
			{"mtcars-csv", []string{"/v1/mtcars-csv/20240105T101500Z-4f1a2/mtcars-csv.csv"}, "28"},
			{"mtcars-json", []string{"/v1/mtcars-json/20240106T080000Z-9c3d0/mtcars-json.json"}, "30"},
		}
		if got := boardEntries(c, srv.URL, "file_size"); !reflect.DeepEqual(got, want) {
			t.Errorf("Discover(%s) entries =\n%v\nwant\n%v", start, got, want)
		}
		pkg, _ := DataPackage(c, ExportOptions{})
		if b := pkg["resources"].([]any)[0].(map[string]any)["bytes"]; b != int64(28) {
			t.Errorf("datapackage bytes = %v, want pins' file_size 28", b)
		}
	}
	if n := hits("/v1/mtcars-json/20240105T101200Z-9c3d0/data.txt"); n != 0 {
		t.Errorf("an older version's data.txt was fetched %d times; only the latest is read", n)
	}
	if n := hits("/v1/data.txt"); n != 1 {
		t.Errorf("/v1/data.txt fetched %d times, want 1 (then _pins.yaml)", n)
	}
}

// TestDiscoverLimits checks the count, depth and time limits.
func TestDiscoverLimits(t *testing.T) {
	srv, hits := boardServer(t)
	var f Fetcher
	c, err := f.Discover(context.Background(), srv.URL+"/v0/data.txt", Options{}, BoardLimits{MaxFetches: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !hasDiag(c, "board-not-followed", "fetch limit reached") || hits("/v0/missing/data.txt") != 0 {
		t.Errorf("MaxFetches 2: missing/data.txt fetched %d times; diagnostics %q", hits("/v0/missing/data.txt"), diagStrings(c.Diagnostics))
	}
	c, err = f.Discover(context.Background(), srv.URL+"/v1/_pins.yaml", Options{}, BoardLimits{MaxDepth: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Entries) != 0 || !hasDiag(c, "board-depth", "depth limit") {
		t.Errorf("MaxDepth 0: %d entries, diagnostics %q", len(c.Entries), diagStrings(c.Diagnostics))
	}
	_, err = f.Discover(context.Background(), srv.URL+"/v0/", Options{}, BoardLimits{Timeout: time.Nanosecond})
	if err == nil || !strings.Contains(err.Error(), "board time limit") {
		t.Errorf("Discover with its time spent: %v, want the time limit", err)
	}
	slow := Fetcher{Fetcher: &fetch.Fetcher{Timeout: 100 * time.Millisecond}}
	if _, err = slow.Discover(context.Background(), srv.URL+"/slow/data.txt", Options{}, BoardLimits{}); err == nil {
		t.Error("Discover of a server that never answers succeeded")
	}
	_, err = f.Discover(context.Background(), srv.URL+"/nothing/", Options{}, BoardLimits{})
	if !errors.Is(err, ErrNoDataTxt) {
		t.Errorf("Discover of an empty directory: %v, want ErrNoDataTxt", err)
	}
}

func hasDiag(c *Catalog, code, text string) bool {
	for _, d := range c.Diagnostics {
		if d.Code == code && strings.Contains(d.Summary, text) {
			return true
		}
	}
	return false
}

// TestRYAMLValues reads the plain scalars R's yaml package reads
// differently from YAML 1.2 as pins does: yes/no/on/off as booleans, .na
// as NA (null); quoted ones stay strings.
func TestRYAMLValues(t *testing.T) {
	c := Parse("t", []byte("- path: a.csv\n  public: yes\n  archived: Off\n  rows: .na\n  cols: .na.integer\n  quoted: 'yes'\n  word: yesterday\n"), Options{})
	if len(c.Entries) != 1 {
		t.Fatalf("%d entries: %q", len(c.Entries), diagStrings(c.Diagnostics))
	}
	want := map[string]any{"public": true, "archived": false, "rows": nil, "cols": nil, "quoted": "yes", "word": "yesterday"}
	if got := c.Entries[0].Metadata; !reflect.DeepEqual(got, want) {
		t.Errorf("metadata = %v, want %v", got, want)
	}
}
