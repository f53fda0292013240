package audit

import (
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// TestWARCWget reads WARC files another tool wrote: GNU Wget fetches real
// robots.txt files from a loopback server (some gzip-encoded, some
// chunked, some 404 or 503, some behind a redirect) into per-record gzip
// WARC 1.0 files, the form Common Crawl's robots.txt captures share
// (request, response and metadata records, one gzip member each). The
// audit of the WARC files must count what the audit of the files
// themselves counts.
func TestWARCWget(t *testing.T) {
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("wget not installed: skipping the WARC files of a real crawler (.ci/run installs it)")
	}
	dir := shareddata.Require(t, "corpus", "robots")
	var names []string
	for _, p := range shareddata.SampleEveryN(t, shareddata.Files(t, "corpus", "robots"), 64) {
		names = append(names, filepath.Base(p))
	}
	status := func(i int) int { // what the server answers for the i-th file
		switch i % 25 {
		case 3:
			return http.StatusNotFound
		case 7:
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/robots.txt")
		if rest, ok := strings.CutPrefix(p, "moved/"); ok {
			http.Redirect(w, r, "/"+rest+"/robots.txt", http.StatusMovedPermanently)
			return
		}
		i, ok := index[p]
		if !ok || status(i) != http.StatusOK {
			code := http.StatusNotFound
			if ok {
				code = status(i)
			}
			http.Error(w, http.StatusText(code), code)
			return
		}
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		switch {
		case i%4 == 1 && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip"):
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zw.Write(b)
			zw.Close()
		case i%4 == 2: // no Content-Length: chunked
			w.Write(b)
			w.(http.Flusher).Flush()
		default:
			w.Header().Set("Content-Length", fmt.Sprint(len(b)))
			w.Write(b)
		}
	}))
	defer srv.Close()
	var urls strings.Builder
	for i, n := range names {
		if i%10 == 5 {
			fmt.Fprintf(&urls, "%s/moved/%s/robots.txt\n", srv.URL, n)
		} else {
			fmt.Fprintf(&urls, "%s/%s/robots.txt\n", srv.URL, n)
		}
	}
	tmp := t.TempDir()
	list := filepath.Join(tmp, "urls.txt")
	if err := os.WriteFile(list, []byte(urls.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(wget, "--no-config", "--no-proxy", "-q", "--tries=1", "-e", "robots=off", "--compression=gzip",
		"--warc-file="+filepath.Join(tmp, "crawl"), "--warc-max-size=256k", "--no-warc-keep-log", "--delete-after",
		"-P", filepath.Join(tmp, "dl"), "-i", list)
	if out, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState.ExitCode() != 8 { // 8: some answers were errors (404, 503), as meant
		t.Fatalf("wget: %v\n%s", err, out)
	}
	warcs, _ := filepath.Glob(filepath.Join(tmp, "crawl-*.warc.gz"))
	if len(warcs) < 2 {
		t.Fatalf("wget wrote %d WARC files, want several (--warc-max-size)", len(warcs))
	}
	fromWARC := make(chan Input, 16)
	go func() {
		defer close(fromWARC)
		for _, p := range warcs {
			f, err := os.Open(p)
			if err != nil {
				t.Error(err)
				return
			}
			err = ReadWARC(f, func(in Input) error {
				if !strings.HasPrefix(in.Name, srv.URL+"/") {
					t.Errorf("record named %q, want a URL of the server (brackets removed)", in.Name)
				}
				fromWARC <- in
				return nil
			})
			f.Close()
			if err != nil {
				t.Errorf("ReadWARC(%s): %v", filepath.Base(p), err)
			}
		}
	}()
	got := Summarize(fromWARC, nil, 0)
	direct := make(chan Input, 16)
	go func() {
		defer close(direct)
		for i, n := range names {
			if s := status(i); s != http.StatusOK {
				direct <- Input{Name: n, Status: s}
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, n))
			direct <- Input{Name: n, Data: b, Err: err}
		}
	}()
	want := Summarize(direct, nil, 0)
	redirects := 0
	for i := range names {
		if i%10 == 5 {
			redirects++
		}
	}
	if got.Files != want.Files || got.NotOK != want.NotOK+redirects || got.Errors != 0 || got.Disagree != want.Disagree ||
		fmt.Sprint(got.Crawlers, got.Categories) != fmt.Sprint(want.Crawlers, want.Categories) {
		t.Errorf("audit of wget's WARC files: %d files, %d not 2xx, %d unreadable, %d disagree; of the files: %d, %d (+%d redirects), 0, %d; counts equal: %v",
			got.Files, got.NotOK, got.Errors, got.Disagree, want.Files, want.NotOK, redirects, want.Disagree,
			fmt.Sprint(got.Crawlers, got.Categories) == fmt.Sprint(want.Crawlers, want.Categories))
	}
	t.Logf("%d WARC files: %d files audited, %d captures without a file", len(warcs), got.Files, got.NotOK)
}
