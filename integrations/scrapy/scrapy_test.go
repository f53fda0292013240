package sitetxtscrapy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/crawltest"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/servetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// debianPython is the Python that Debian's python3-scrapy installs Scrapy
// for; SITETXT_SCRAPY_PYTHON names another (a virtualenv with a current
// Scrapy, say).
const debianPython = "/usr/bin/python3"

// scrapyPython returns the Python to run Scrapy with and the versions of
// Scrapy and Twisted it imports, or skips t when it cannot import them.
func scrapyPython(t *testing.T) (string, string) {
	t.Helper()
	py := debianPython
	if p := os.Getenv("SITETXT_SCRAPY_PYTHON"); p != "" {
		py = p
	}
	out, err := exec.Command(py, "-c", "import scrapy, twisted; print('Scrapy', scrapy.__version__, 'Twisted', twisted.__version__)").CombinedOutput()
	if err != nil {
		t.Skipf("Scrapy is not installed for %s (Debian package python3-scrapy): %v: %s", py, err, bytes.TrimSpace(out))
	}
	return py, strings.TrimSpace(string(out))
}

// python runs py with args in this directory, with sitetxt_scrapy on its
// path and no bytecode written into the source tree.
func python(ctx context.Context, py string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, py, args...)
	dir, _ := os.Getwd()
	cmd.Env = append(os.Environ(), "PYTHONPATH="+dir, "PYTHONDONTWRITEBYTECODE=1")
	return cmd
}

// ranLine is unittest's count of the tests it ran.
var ranLine = regexp.MustCompile(`Ran \d+ tests? in [0-9.]+s`)

// TestPythonUnit runs the Python unit tests of sitetxt_scrapy (tests/):
// the calls to serve, against a stand-in serve in the test process.
func TestPythonUnit(t *testing.T) {
	py, version := scrapyPython(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := python(ctx, py, "-m", "unittest", "discover", "-s", "tests").CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("\nOK")) {
		t.Fatalf("python -m unittest (%s): %v\n%s", version, err, out)
	}
	t.Logf("%s: %s", version, ranLine.Find(out))
}

// scrapyRun is one Scrapy process of the fleet test: its name, the shard
// of the site it crawls and its own settings.
type scrapyRun struct {
	who      string
	shard    int
	settings []string
	out      bytes.Buffer
	stats    map[string]any
	err      error
}

// The settings every process of the fleet test has.
var fleetSettings = []string{
	"USER_AGENT=SitetxtTestBot/1.0 (+http://127.0.0.1/bot)",
	`DOWNLOADER_MIDDLEWARES={"sitetxt_scrapy.PaceMiddleware": 543}`,
	"LOG_LEVEL=INFO",
	"TELNETCONSOLE_ENABLED=False",
	"REQUEST_FINGERPRINTER_IMPLEMENTATION=2.7",
}

// TestScrapyFleet: two Scrapy processes at once, behind one "sitetxt
// serve" with a real Redis, crawl one loopback site that asks for
// Crawl-delay: 1, disallows /private/ and answers one page 429 with
// Retry-After: 3 (internal/crawltest). The first uses RobotParser as
// ROBOTSTXT_PARSER (so Scrapy fetches robots.txt, unpaced, and the parser
// drops /private/) and Twisted's epoll reactor; the second only
// PaceMiddleware (serve drops /private/) and the asyncio reactor. The site
// sees no private URL and no two page requests closer than 1 s; the 429 is
// reported within a second, and neither process is granted a slot before
// its pause ends.
func TestScrapyFleet(t *testing.T) {
	slowtest.Only(t, "two Scrapy processes crawl a loopback site paced at one request a second, about 20 s")
	py, version := scrapyPython(t)
	if redistest.Path() == "" {
		t.Skip("redis-server is not installed (Debian package redis-server); skipping the Scrapy fleet test")
	}
	bin := servetest.Build(t)
	rds := redistest.Start(t)
	srv, err := servetest.Start(t, bin, "serve", "--listen", "127.0.0.1:0", "--redis", rds.URL(), "--allow-private", "--log-level", "info")
	if err != nil {
		t.Fatal(err)
	}
	site := crawltest.NewSite(t)
	log := &crawltest.Log{}
	runs := []*scrapyRun{
		{who: "scrapy-1", shard: 1, settings: []string{"ROBOTSTXT_OBEY=True", "ROBOTSTXT_PARSER=sitetxt_scrapy.RobotParser",
			"TWISTED_REACTOR=twisted.internet.epollreactor.EPollReactor"}},
		{who: "scrapy-2", shard: 2, settings: []string{"ROBOTSTXT_OBEY=False",
			"TWISTED_REACTOR=twisted.internet.asyncioreactor.AsyncioSelectorReactor"}},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for _, r := range runs {
		proxy := crawltest.Proxy(t, log, r.who, srv.Addr)
		wg.Go(func() { r.run(ctx, t, py, site.Shard(r.shard), proxy) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, r := range runs {
		if r.err != nil {
			t.Fatalf("%s: %v\n%s", r.who, r.err, r.out.String())
		}
	}
	f := crawltest.Check(t, site, log, []string{"scrapy-1", "scrapy-2"}, 2*crawltest.ShardPages+1)
	t.Logf("%s, two processes in %.1f s: %v", version, elapsed.Seconds(), f)
	checkStats(t, runs)
	if t.Failed() {
		for _, r := range runs {
			t.Logf("%s's log:\n%s", r.who, r.out.String())
		}
		t.Logf("serve's log:\n%s", srv.Log())
	}
}

// run runs the process to the end of its crawl and reads its stats.
func (r *scrapyRun) run(ctx context.Context, t *testing.T, py, start, serve string) {
	out := filepath.Join(t.TempDir(), "stats.json")
	args := []string{"-m", "scrapy", "runspider", "testdata/linkspider.py", "-a", "start=" + start, "-a", "out=" + out,
		"-s", "SITETXT_URL=" + serve}
	for _, s := range append(append([]string{}, fleetSettings...), r.settings...) {
		args = append(args, "-s", s)
	}
	cmd := python(ctx, py, args...)
	cmd.Stdout, cmd.Stderr = &r.out, &r.out
	if r.err = cmd.Run(); r.err != nil {
		return
	}
	b, err := os.ReadFile(out)
	if err == nil {
		err = json.Unmarshal(b, &r.stats)
	}
	r.err = err
}

// checkStats checks what each process counted: a finished crawl without
// errors, every private link dropped by the part that should drop it.
func checkStats(t *testing.T, runs []*scrapyRun) {
	num := func(r *scrapyRun, k string) int {
		v, _ := r.stats[k].(float64)
		return int(v)
	}
	for _, r := range runs {
		var counts []string
		for _, k := range []string{"robotstxt/forbidden", "sitetxt/acquired", "sitetxt/disallowed", "sitetxt/waited", "sitetxt/reported", "retry/count"} {
			counts = append(counts, fmt.Sprintf("%s %d", k, num(r, k)))
		}
		t.Logf("%s: %s", r.who, strings.Join(counts, ", "))
		if reason, _ := r.stats["finish_reason"].(string); reason != "finished" {
			t.Errorf("%s: finish_reason %q, want finished", r.who, reason)
		}
		for _, k := range []string{"log_count/ERROR", "sitetxt/errors", "sitetxt/report_errors", "sitetxt/robots_errors"} {
			if n := num(r, k); n != 0 {
				t.Errorf("%s: %s %d, want 0", r.who, k, n)
			}
		}
	}
	// The first process's RobotParser drops the private links before its
	// PaceMiddleware sees them; the second's PaceMiddleware drops them.
	if n := num(runs[0], "robotstxt/forbidden"); n < 2 {
		t.Errorf("%s: robotstxt/forbidden %d, want the private links (at least 2)", runs[0].who, n)
	}
	if n := num(runs[1], "sitetxt/disallowed"); n < 2 {
		t.Errorf("%s: sitetxt/disallowed %d, want the private links (at least 2)", runs[1].who, n)
	}
}
