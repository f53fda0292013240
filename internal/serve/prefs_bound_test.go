package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/prefs"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// prefsSite serves robots.txt allowing all, and pages whose header fields
// headers sets (by path).
func prefsSite(t *testing.T, headers func(path string, h http.Header)) *httptest.Server {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nAllow: /\n")
			return
		}
		headers(r.URL.Path, w.Header())
		if loc := w.Header().Get("Location"); loc != "" {
			w.WriteHeader(http.StatusFound)
		}
	}))
	t.Cleanup(site.Close)
	return site
}

func askPrefs(t *testing.T, h http.Handler, urls ...string) (int, []prefs.Result, int) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"agent": "ExampleBot", "urls": urls})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, jsonRequest("POST", "/v1/prefs", strings.NewReader(string(b))))
	var out prefsResponse
	json.Unmarshal(w.Body.Bytes(), &out)
	return w.Code, out.Results, w.Body.Len()
}

// TestPrefsPublicWords: /v1/prefs says a failed fetch as /v1/check does:
// a robots.txt at a closed port is the /v1/check decision, word for word;
// a page whose fetch fails below HTTP (a redirect to a closed port) is
// "could not fetch the URL: the site did not answer over HTTP", with no
// address, port or cause (before: "fetching the URL: dial tcp
// 127.0.0.1:1: connect: connection refused"); a page whose header fields
// pass 64 KiB is refused as such.
func TestPrefsPublicWords(t *testing.T) {
	closed := fmt.Sprintf("127.0.0.1:%d", sitetest.RefusedPort(t))
	site := prefsSite(t, func(path string, h http.Header) {
		switch path {
		case "/away":
			h.Set("Location", "http://"+closed+"/x")
		case "/fat":
			h.Set("X-Fat", strings.Repeat("f", 70<<10))
		}
	})
	s := New(Config{AllowPrivate: true, Logger: quiet()})
	code, res, _ := askPrefs(t, s.Handler(), "http://"+closed+"/page", site.URL+"/away", site.URL+"/fat")
	if code != 200 || len(res) != 3 {
		t.Fatalf("POST /v1/prefs = %d, %d results", code, len(res))
	}
	_, check, _ := post(t, s.Handler(), checkBody("ExampleBot", "http://"+closed+"/page"), "")
	res[0].Fetch.FromCache, check.Results[0].Fetch.FromCache = false, false // the second asking finds it cached
	got, _ := json.Marshal(res[0].Decision)
	want, _ := json.Marshal(check.Results[0].Decision)
	if string(got) != string(want) {
		t.Errorf("/v1/prefs decision for a robots.txt at a closed port\n%s\nwant /v1/check's\n%s", got, want)
	}
	for i, w := range []string{"", "could not fetch the URL: the site did not answer over HTTP",
		"could not fetch the URL: its response's header fields are over 64 KiB"} {
		if res[i].Error != w {
			t.Errorf("result %d: error %q, want %q", i, res[i].Error, w)
		}
	}
	for i, r := range res {
		for _, said := range []string{r.Reason, r.Fetch.Error, r.Error} {
			for _, raw := range []string{"dial tcp", "refused", closed, "net/http", "exceeded"} {
				if strings.Contains(said, raw) {
					t.Errorf("result %d says %q: %s", i, raw, said)
				}
			}
		}
	}
}

// TestPrefsBounded: each header value a /v1/prefs result echoes is at
// most 1 KiB, Robots-Tag lines and licenses at most 32, and "truncated"
// names what was cut.
func TestPrefsBounded(t *testing.T) {
	site := prefsSite(t, func(path string, h http.Header) {
		h.Set("Content-Usage", "train-ai=n"+strings.Repeat(", x-y=z", 3000))
		h.Set("Content-Signal", "search=yes"+strings.Repeat(", ai-train=no", 1000))
		for i := range 40 {
			h.Add("Link", fmt.Sprintf(`</license-%d.xml>; rel="license"`, i))
			h.Add("X-Robots-Tag", "noai")
		}
	})
	code, res, n := askPrefs(t, New(Config{AllowPrivate: true, Logger: quiet()}).Handler(), site.URL+"/a")
	if code != 200 || len(res) != 1 || res[0].Headers == nil {
		t.Fatalf("POST /v1/prefs = %d %+v", code, res)
	}
	h := res[0].Headers
	if len(h.ContentUsage.Value) != maxEchoValue || len(h.ContentSignal.Value) != maxEchoValue || len(h.Licenses) != 32 || len(h.RobotsTag) != 32 {
		t.Errorf("values %d and %d bytes, %d licenses, %d Robots-Tag lines; want %d, %d, 32, 32", len(h.ContentUsage.Value), len(h.ContentSignal.Value),
			len(h.Licenses), len(h.RobotsTag), maxEchoValue, maxEchoValue)
	}
	if want := []string{"headers.content_usage.value", "headers.content_signal.value", "headers.robots_tag", "headers.licenses"}; !slices.Equal(res[0].Truncated, want) {
		t.Errorf("truncated = %q, want %q", res[0].Truncated, want)
	}
	if res[0].ContentUsage.TrainAI != "disallow" {
		t.Errorf("content_usage.train_ai = %q, want disallow (read from the whole value)", res[0].ContentUsage.TrainAI)
	}
	t.Logf("answer %d bytes", n)
}

// TestHostilePrefsHeaders (slow tier): 32 URLs whose responses send a
// 9 MB Content-Usage header in one /v1/prefs. Before: a 302 MB answer,
// 1,164 MiB of heap in use at its peak; now each is refused at 64 KiB of
// header fields, the answer is a few KiB and the heap stays small.
func TestHostilePrefsHeaders(t *testing.T) {
	slowtest.Only(t, "32 responses of 9 MB header fields")
	big := strings.Repeat("train-ai=n, ", 9<<20/12)
	site := prefsSite(t, func(path string, h http.Header) {
		if path == "/small" {
			h.Set("Content-Usage", big[:60<<10])
			return
		}
		h.Set("Content-Usage", big)
	})
	s := New(Config{AllowPrivate: true, Logger: quiet()})
	for _, tc := range []struct {
		path     string
		maxBytes int
	}{{"/big", 32 << 10}, {"/small", 128 << 10}} {
		urls := make([]string, PrefsMaxURLs)
		for i := range urls {
			urls[i] = fmt.Sprintf("%s%s?%d", site.URL, tc.path, i)
		}
		runtime.GC()
		peakOf := sampleMemory(func(ms *runtime.MemStats) uint64 { return ms.HeapInuse + ms.StackInuse })
		start := time.Now()
		code, res, n := askPrefs(t, s.Handler(), urls...)
		peak := peakOf()
		t.Logf("%s: 32 URLs with a %d-byte Content-Usage header: %d, an answer of %d bytes in %v, peak heap and stacks in use %d MiB",
			tc.path, map[string]int{"/big": len(big), "/small": 60 << 10}[tc.path], code, n, time.Since(start).Round(time.Millisecond), peak>>20)
		if code != 200 || len(res) != PrefsMaxURLs || n > tc.maxBytes || peak > 64<<20 {
			t.Errorf("%s: %d, %d results, %d bytes, peak %d MiB; want 200, 32, at most %d bytes, under 64 MiB", tc.path, code, len(res), n, peak>>20, tc.maxBytes)
		}
	}
}
