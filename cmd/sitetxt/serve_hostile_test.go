package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/servetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// startServe runs "sitetxt serve" with args on a loopback port until
// the test ends and returns its address and process.
func startServe(t *testing.T, args ...string) (string, *exec.Cmd) {
	t.Helper()
	p, err := servetest.Start(t, build(t, "."), append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return p.Addr, p.Cmd
}

// peakRSS returns the peak resident memory (VmHWM) of a running process.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "VmHWM: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	t.Skip("no VmHWM in /proc/PID/status")
	return 0
}

// postSitemaps posts a /v1/sitemaps request for site to serve at addr and
// reads the whole answer, returning its status and size.
func postSitemaps(addr, site string) (int, int64, error) {
	body := fmt.Sprintf(`{"site":%q,"agent":"ExampleBot"}`, site)
	resp, err := http.Post("http://"+addr+"/v1/sitemaps", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, n, err
}

// bigSitemap writes a sitemap of 50,000 URLs of about 900 bytes each (45
// MB) as it is read, never held whole.
func bigSitemap(w io.Writer, site string) {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	pad := strings.Repeat("p", 850)
	for i := range 50000 {
		fmt.Fprintf(bw, "<url><loc>%s/%s/%d</loc></url>\n", site, pad, i)
	}
	bw.WriteString("</urlset>\n")
	bw.Flush()
}

// TestHostileServeSitemaps (slow tier) runs "sitetxt serve --max-memory
// 256MiB" as a process and sends it 32 concurrent POST /v1/sitemaps for a
// site whose sitemap is 45 MB (50,000 URLs of 900 bytes): each is answered
// or refused with 503, and the process's peak resident memory stays
// within the budget plus 64 MiB. Before (a 64 MiB sitemap cache per
// request, no admission): 1,450 MiB.
func TestHostileServeSitemaps(t *testing.T) {
	slowtest.Only(t, "32 sitemaps of 45 MB through a serve process")
	site := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\nSitemap: %s/big.xml\n", base)
		case "/big.xml":
			bigSitemap(w, base)
		default:
			http.NotFound(w, r)
		}
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go site.Serve(ln)
	defer site.Close()
	addr, cmd := startServe(t, "--allow-private", "--max-memory", "256MiB")
	var wg sync.WaitGroup
	var answered, refused, other atomic.Int64
	var bytesOut atomic.Int64
	start := time.Now()
	for range 32 {
		wg.Go(func() {
			code, n, err := postSitemaps(addr, "http://"+ln.Addr().String()+"/")
			switch {
			case err == nil && code == 200:
				answered.Add(1)
				bytesOut.Add(n)
			case err == nil && code == http.StatusServiceUnavailable:
				refused.Add(1)
			default:
				other.Add(1)
				t.Errorf("POST /v1/sitemaps = %d, %v; want 200 or 503", code, err)
			}
		})
	}
	wg.Wait()
	rss := peakRSS(t, cmd.Process.Pid)
	t.Logf("32 concurrent /v1/sitemaps of a 45 MB sitemap: %d answered (%d MB written), %d refused (503) in %v; peak RSS %d MiB (--max-memory 256MiB)",
		answered.Load(), bytesOut.Load()/1e6, refused.Load(), time.Since(start).Round(time.Millisecond), rss>>20)
	if rss > (256+64)<<20 {
		t.Errorf("peak RSS %d MiB, over --max-memory 256MiB plus 64 MiB", rss>>20)
	}
	if answered.Load() == 0 {
		t.Errorf("no request answered")
	}
}

// TestHostileServeFetchCap (slow tier) sends 300 concurrent POST
// /v1/sitemaps, each for its own site (300 loopback listeners, robots.txt
// and a sitemap answered slowly), with as many POST /v1/test and
// /v1/check naming the same sites, to a serve process with the default
// budget: the sites never see more than the process-wide cap of 64
// requests in progress at once. Before: 300 outbound connections for the
// sitemaps alone.
func TestHostileServeFetchCap(t *testing.T) {
	slowtest.Only(t, "300 sites, 300 requests through a serve process")
	var inFlight, peak atomic.Int64
	site := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(time.Second)
		base := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nSitemap: %s/s.xml\n", base)
		case "/s.xml":
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/a</loc></url></urlset>`, base)
		default:
			http.NotFound(w, r)
		}
	})}
	defer site.Close()
	var sites []string
	for range 300 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go site.Serve(ln)
		sites = append(sites, "http://"+ln.Addr().String()+"/")
	}
	addr, _ := startServe(t, "--allow-private")
	var wg sync.WaitGroup
	var answered, refused atomic.Int64
	for _, s := range sites {
		for _, path := range []string{"/v1/sitemaps", "/v1/test", "/v1/check"} {
			wg.Go(func() {
				body := fmt.Sprintf(`{"site":%q,"agent":"ExampleBot"}`, s)
				if path == "/v1/check" {
					body = fmt.Sprintf(`{"agent":"ExampleBot","urls":[%q]}`, s+"x")
				}
				resp, err := http.Post("http://"+addr+path, "application/json", strings.NewReader(body))
				if err != nil {
					t.Errorf("POST %s: %v", path, err)
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				switch resp.StatusCode {
				case 200:
					answered.Add(1)
				case http.StatusServiceUnavailable:
					refused.Add(1)
				default:
					t.Errorf("POST %s %s = %d; want 200 or 503", path, s, resp.StatusCode)
					t.Logf("%s", b)
				}
			})
		}
	}
	wg.Wait()
	t.Logf("900 concurrent /v1/sitemaps, /v1/test and /v1/check on 300 sites: %d answered, %d refused (503); at most %d requests in progress at the sites at once",
		answered.Load(), refused.Load(), peak.Load())
	if p := peak.Load(); p > 64 {
		t.Errorf("%d requests in progress at the sites at once, over the process-wide cap of 64", p)
	}
}
