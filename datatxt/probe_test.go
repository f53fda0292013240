package datatxt

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
)

// prefixRules is a SiteRules that disallows URLs containing "/private/",
// as a site's robots.txt would, and records what it was asked.
type prefixRules struct {
	mu    sync.Mutex
	asked []string
}

func (r *prefixRules) Allowed(_ context.Context, agent, u string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, agent+" "+u)
	return !strings.Contains(u, "/private/")
}

func TestProbe(t *testing.T) {
	var mu sync.Mutex
	requests := map[string][]string{} // path: methods
	mux := http.NewServeMux()
	lastMod := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	mux.HandleFunc("/a.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Last-Modified", lastMod.Format(http.TimeFormat))
		w.Header().Set("Content-Length", "1234")
	})
	mux.HandleFunc("/nohead.bin", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		if r.Header.Get("Range") != "bytes=0-0" {
			t.Errorf("GET without a one-byte range: %q", r.Header.Get("Range"))
		}
		w.Header().Set("Content-Type", "application/vnd.apache.parquet")
		w.Header().Set("Content-Range", "bytes 0-0/98765")
		w.WriteHeader(http.StatusPartialContent)
		w.Write([]byte("P"))
	})
	mux.HandleFunc("/gone.csv", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	mux.HandleFunc("/private/secret.csv", func(w http.ResponseWriter, r *http.Request) {
		t.Error("a URL robots.txt disallows was requested")
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests[r.URL.Path] = append(requests[r.URL.Path], r.Method)
		mu.Unlock()
		if ua := r.Header.Get("User-Agent"); ua != "probe-test/1.0" {
			t.Errorf("User-Agent = %q", ua)
		}
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()
	src := "- path: a.csv\n  name: a\n- path: [a.csv, nohead.bin]\n  name: b\n- path: gone.csv\n  name: gone\n- path: private/secret.csv\n  name: secret\n- path: adir\n  name: dir\n"
	c := Parse("data.txt", []byte(src), Options{Base: srv.URL + "/data.txt"})
	rules := &prefixRules{}
	f := Fetcher{Fetcher: &fetch.Fetcher{UserAgent: "probe-test/1.0"}}
	diags := f.Probe(context.Background(), c, ProbeOptions{Agent: "mybot", Robots: rules, Concurrency: 2, HostDelay: time.Millisecond})
	if got := requests["/a.csv"]; len(got) != 1 || got[0] != "HEAD" {
		t.Errorf("/a.csv requests = %v, want one HEAD (two entries list it)", got)
	}
	if got := strings.Join(requests["/nohead.bin"], " "); got != "HEAD GET" {
		t.Errorf("/nohead.bin requests = %q, want HEAD then a ranged GET", got)
	}
	if len(requests["/adir"]) != 0 {
		t.Errorf("a pins directory was probed")
	}
	a := c.Entries[0].Files[srv.URL+"/a.csv"]
	if a.MediaType != "text/csv" || a.Size != 1234 || !a.LastModified.Equal(lastMod) {
		t.Errorf("a.csv info = %+v", a)
	}
	nb := c.Entries[1].Files[srv.URL+"/nohead.bin"]
	if nb.MediaType != "application/vnd.apache.parquet" || nb.Size != 98765 {
		t.Errorf("nohead.bin info = %+v", nb)
	}
	var codes []string
	for _, d := range diags {
		codes = append(codes, d.Code+" "+strings.TrimPrefix(d.Summary, srv.URL))
	}
	want := []string{
		"broken-link /gone.csv: HTTP 404 Not Found",
		"probe-disallowed /private/secret.csv not probed: robots.txt disallows it for mybot",
	}
	if strings.Join(codes, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics =\n%s\nwant\n%s", strings.Join(codes, "\n"), strings.Join(want, "\n"))
	}
	// The exports carry what the server said.
	doc, _ := DataPackage(c, ExportOptions{})
	r := doc["resources"].([]any)[2].(map[string]any) // b's nohead.bin
	if r["bytes"] != int64(98765) {
		t.Errorf("datapackage bytes = %v, want the probed size", r["bytes"])
	}
	dj, _ := DataJSON(c, ExportOptions{})
	if m := dj["dataset"].([]any)[0].(map[string]any)["modified"]; m != "2024-03-04T05:06:07Z" {
		t.Errorf("data.json modified = %v, want the probed Last-Modified", m)
	}
	sch, _ := SchemaOrg(c, ExportOptions{})
	dist := sch["dataset"].([]any)[1].(map[string]any)["distribution"].([]any)[1].(map[string]any)
	if dist["encodingFormat"] != "application/vnd.apache.parquet" || dist["contentSize"] != "98765 B" {
		t.Errorf("schema.org distribution = %v", dist)
	}
}

// TestProbeTimeLimit: URLs not asked for within the time limit are
// reported, not silently dropped. The limit is a second, not 50 ms: a
// test process starved that long on a loaded machine before asking for
// the first URL would report all three.
func TestProbeTimeLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	c := Parse("data.txt", []byte("- path: a.csv\n- path: b.csv\n- path: c.csv\n"), Options{Base: srv.URL + "/data.txt"})
	var f Fetcher
	diags := f.Probe(context.Background(), c, ProbeOptions{Concurrency: 1, HostDelay: time.Hour, Timeout: time.Second})
	skipped := 0
	for _, d := range diags {
		if d.Code == "probe-skipped" {
			skipped++
		}
	}
	if skipped != 2 {
		t.Errorf("%d URLs reported as skipped, want 2 (one host, an hour apart): %q", skipped, diagStrings(diags))
	}
}
