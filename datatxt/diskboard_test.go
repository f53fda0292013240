package datatxt

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const boardsDir = "../testdata/datatxt/boards"

// TestDiscoverDirPins0 reads the pins 0.x board on disk as
// TestDiscoverPins0 reads it over HTTP: the same entries, the same URLs
// once a base says where the board is published.
func TestDiscoverDirPins0(t *testing.T) {
	const base = "https://example.org/v0/data.txt"
	for _, start := range []string{boardsDir + "/v0/data.txt", boardsDir + "/v0"} {
		c, err := DiscoverDir(context.Background(), start, Options{Base: base}, BoardLimits{})
		if err != nil {
			t.Fatalf("DiscoverDir(%s): %v", start, err)
		}
		want := []boardEntry{
			{"mtcars", []string{"/v0/mtcars/data.csv", "/v0/mtcars/data.rds"}, "11"},
			{"iris", []string{"/v0/iris/data.csv"}, "5"},
			{"missing", []string{"/v0/missing"}, ""},
			{"mtcars-again", []string{"/v0/mtcars/data.csv", "/v0/mtcars/data.rds"}, "11"},
		}
		if got := boardEntries(c, "https://example.org", "cols"); !reflect.DeepEqual(got, want) {
			t.Errorf("DiscoverDir(%s) entries =\n%v\nwant\n%v", start, got, want)
		}
		if got, want := c.Entries[0].Source, "https://example.org/v0/mtcars/data.txt"; got != want {
			t.Errorf("DiscoverDir(%s): mtcars listed in %q, want %q", start, got, want)
		}
		if !hasDiag(c, "board-not-followed", "missing") {
			t.Errorf("DiscoverDir(%s): no warning for the pin directory without data.txt: %q", start, diagStrings(c.Diagnostics))
		}
	}
}

// TestDiscoverDirNoBase: without a base, paths resolve as if the first
// file were /data.txt, one warning says so, and entries say which file on
// disk listed them.
func TestDiscoverDirNoBase(t *testing.T) {
	c, err := DiscoverDir(context.Background(), boardsDir+"/v0/data.txt", Options{}, BoardLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Entries[0].URLs; !reflect.DeepEqual(got, []string{"/mtcars/data.csv", "/mtcars/data.rds"}) {
		t.Errorf("mtcars URLs = %q, want host-less /mtcars/data.csv and .rds", got)
	}
	if got, want := c.Entries[0].Source, filepath.Join(boardsDir, "v0", "mtcars", "data.txt"); got != want {
		t.Errorf("mtcars listed in %q, want %q", got, want)
	}
	n := 0
	for _, d := range c.Diagnostics {
		if d.Code == "no-base-url" || d.Code == "relative-base" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d warnings about the missing base, want 1: %q", n, diagStrings(c.Diagnostics))
	}
}

// TestDiscoverDirPins1 reads the pins 1.x board on disk through its
// _pins.yaml, named or found in the directory.
func TestDiscoverDirPins1(t *testing.T) {
	for _, start := range []string{boardsDir + "/v1", boardsDir + "/v1/_pins.yaml"} {
		c, err := DiscoverDir(context.Background(), start, Options{Base: "https://example.org/v1/"}, BoardLimits{})
		if err != nil {
			t.Fatalf("DiscoverDir(%s): %v", start, err)
		}
		want := []boardEntry{
			{"mtcars-csv", []string{"/v1/mtcars-csv/20240105T101500Z-4f1a2/mtcars-csv.csv"}, "28"},
			{"mtcars-json", []string{"/v1/mtcars-json/20240106T080000Z-9c3d0/mtcars-json.json"}, "30"},
		}
		if got := boardEntries(c, "https://example.org", "file_size"); !reflect.DeepEqual(got, want) {
			t.Errorf("DiscoverDir(%s) entries =\n%v\nwant\n%v", start, got, want)
		}
		if len(c.Diagnostics) != 0 {
			t.Errorf("DiscoverDir(%s) diagnostics %q, want none", start, diagStrings(c.Diagnostics))
		}
	}
}

// TestDiscoverDirLimits: the limits of a fetched board hold on disk, and
// nothing outside the board's directory is read.
func TestDiscoverDirLimits(t *testing.T) {
	c, err := DiscoverDir(context.Background(), boardsDir+"/v0", Options{}, BoardLimits{MaxFetches: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !hasDiag(c, "board-not-followed", "fetch limit reached") {
		t.Errorf("MaxFetches 2: diagnostics %q, want the limit", diagStrings(c.Diagnostics))
	}
	c, err = DiscoverDir(context.Background(), boardsDir+"/v1/_pins.yaml", Options{}, BoardLimits{MaxDepth: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Entries) != 0 || !hasDiag(c, "board-depth", "depth limit") {
		t.Errorf("MaxDepth 0: %d entries, diagnostics %q", len(c.Entries), diagStrings(c.Diagnostics))
	}
	dir := t.TempDir()
	board := filepath.Join(dir, "board")
	for name, data := range map[string]string{
		"secret/data.txt": "- path: s.csv\n",
		"board/data.txt":  "- path: ../secret\n  name: out\n- path: https://example.net/pin/\n  name: web\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err = DiscoverDir(context.Background(), board, Options{}, BoardLimits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range c.Entries {
		if len(e.Paths) != 1 || strings.HasSuffix(e.Paths[0], "s.csv") {
			t.Errorf("entry %q took %q from outside the board", e.Name, e.Paths)
		}
	}
	if !hasDiag(c, "board-not-followed", `"../secret" is not under`) || !hasDiag(c, "board-not-followed", `"https://example.net/pin/" is not under`) {
		t.Errorf("diagnostics %q, want a warning for each pin outside the board", diagStrings(c.Diagnostics))
	}
	for _, bad := range []string{filepath.Join(dir, "nothing"), dir} {
		if _, err := DiscoverDir(context.Background(), bad, Options{}, BoardLimits{}); err == nil {
			t.Errorf("DiscoverDir(%s) succeeded, want an error", bad)
		}
	}
}

// TestCutCounted: a file longer than the 500 KiB a board reads says how
// many bytes were left out, counted on the whole file (a board on disk
// reads only 500 KiB and one byte), in both forms; a response the fetcher
// cut at its limit says the server sent more.
func TestCutCounted(t *testing.T) {
	dir := t.TempDir()
	yamlSrc := strings.Repeat("- path: a.csv\n", 50000)    // 700,000 bytes
	recordSrc := strings.Repeat("Path: /a.csv\n\n", 50000) // 700,000 bytes
	for name, src := range map[string]string{"yaml.txt": yamlSrc, "records.txt": recordSrc} {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := DiscoverDir(context.Background(), file, Options{}, BoardLimits{})
		if err != nil {
			t.Fatal(err)
		}
		want := "input is larger than 512000 bytes; the last 188000 bytes are ignored"
		if !hasDiag(c, "too-large", want) {
			t.Errorf("DiscoverDir(%s) diagnostics = %q, want too-large %q", name, diagStrings(c.Diagnostics), want)
		}
		if p := Parse(name, []byte(src), Options{}); !hasDiag(p, "too-large", want) {
			t.Errorf("Parse(%s) diagnostics = %q, want too-large %q", name, diagStrings(p.Diagnostics), want)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, yamlSrc)
	}))
	defer srv.Close()
	var f Fetcher
	for _, get := range []func() (*Catalog, error){
		func() (*Catalog, error) { return f.Fetch(context.Background(), srv.URL+"/data.txt", Options{}) },
		func() (*Catalog, error) {
			return f.Discover(context.Background(), srv.URL+"/data.txt", Options{}, BoardLimits{})
		},
	} {
		c, err := get()
		if err != nil {
			t.Fatal(err)
		}
		if want := "the server sent more than 512000 bytes; sitetxt read only those"; !hasDiag(c, "too-large", want) {
			t.Errorf("fetched diagnostics = %q, want too-large %q", diagStrings(c.Diagnostics), want)
		}
	}
}

// TestBoardDistributionNamed: a pin whose file data.json's validator
// rejects (a downloadURL without a mediaType makes the distribution
// invalid) is named on the pin's data.txt at the file's line, with the
// distribution and the missing field, as every other rejected field is.
func TestBoardDistributionNamed(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"_pins.yaml": "odd:\n- odd/20240101T000000Z-abcde/\n",
		"odd/20240101T000000Z-abcde/data.txt": "title: odd\ndescription: a pin of a file type sitetxt does not know\n" +
			"file: odd.weird\ntype: file\napi_version: 1.0\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := DiscoverDir(context.Background(), dir, Options{Base: "https://example.org/board/"}, BoardLimits{})
	if err != nil {
		t.Fatal(err)
	}
	_, probs := DataJSON(c, ExportOptions{Publisher: "P", ContactName: "C"})
	want := fmt.Sprintf("%s:3:7: error: datajson: dataset \"odd\": no mediaType in distribution https://example.org/board/odd/20240101T000000Z-abcde/odd.weird: ",
		filepath.Join(dir, "odd", "20240101T000000Z-abcde", "data.txt"))
	if len(probs) != 1 || !strings.HasPrefix(probs[0].Error(), want) || probs[0].Field != "mediaType" {
		t.Errorf("DataJSON(board) problems = %v, want one starting %q", probs, want)
	}
}
