package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestRelativeReadOneWay: a URL typed without a scheme or a leading "/"
// ("org/plans.html") is read from the site's root ("/org/plans.html") by
// every command that takes URLs, with one note saying so, and answered
// (issue 35, item 2); it was refused (issue 24), and before that read as a
// host name.
func TestRelativeReadOneWay(t *testing.T) {
	chdirRoot(t)
	const noteText = `sitetxt: note: "org/plans.html" has no scheme and no leading "/": it is read from the site's root, as "/org/plans.html"`
	for _, tt := range []struct {
		args []string
		out  string // a part of standard output
		code int
	}{
		{[]string{"check", "testdata/robots/fict.org.txt", "org/plans.html"}, "disallowed org/plans.html: testdata/robots/fict.org.txt:12: Disallow: /org/plans.html", ExitFindings},
		{[]string{"diff", "testdata/robots/fict.org.txt", "org/plans.html"}, "disallowed :12  disallowed :12  disallowed :12  disallowed :12  org/plans.html", ExitOK},
		{[]string{"matrix", "testdata/robots/fict.org.txt", "org/plans.html"}, "why: *: testdata/robots/fict.org.txt:12: Disallow: /org/plans.html", ExitFindings},
		{[]string{"agents", "testdata/mobileagent/fict.org.txt", "org/plans.html"}, "org/plans.html  allowed", ExitOK},
		{[]string{"check", "-o", "json", "testdata/robots/fict.org.txt", "/ok", "org/plans.html"}, `{"url":"org/plans.html","agent":"*","profile":"rfc9309","allowed":false,"reason":"rule matched","rule":{"directive":"Disallow","pattern":"/org/plans.html"`, ExitFindings},
	} {
		out, errOut, code := runCLI(t, "", tt.args...)
		if code != tt.code || !strings.Contains(out, tt.out) || strings.Count(errOut, noteText) != 1 {
			t.Errorf("sitetxt %s = exit %d, stdout %q, stderr %q; want exit %d, %q and one note", strings.Join(tt.args, " "), code, out, errOut, tt.code, tt.out)
		}
	}
	out, errOut, code := runCLI(t, "", "audit", "--path", "org/plans.html", "-o", "csv", "testdata/robots/fict.org.txt")
	if code != ExitOK || !strings.Contains(out, "/org/plans.html") || !strings.Contains(errOut, `--path "org/plans.html" has no scheme`) {
		t.Errorf("audit --path org/plans.html = exit %d, stderr %q; want the path /org/plans.html audited, with the note", code, errOut)
	}
}

// TestBatchLosesNothing: a URL that cannot be answered is an error for
// that URL alone, named by where it came from (text) or an object with
// "url" and "error" in its place (JSON); every other URL is answered and
// the command exits 2 (issue 35, item 1).
func TestBatchLosesNothing(t *testing.T) {
	chdirRoot(t)
	const file = "testdata/robots/fict.org.txt"
	const urls = "/a\nhttp:///nohost\n/b\n#skipped\nhttps://[::1/x\n/org/plans.html\n"
	for _, cmd := range []string{"check", "diff", "matrix"} {
		t.Run(cmd, func(t *testing.T) {
			out, errOut, code := runCLI(t, urls, cmd, "--urls", "-", file)
			for _, u := range []string{"/a\n", "/b\n", "/org/plans.html\n"} {
				if !strings.Contains(out, u) && !strings.Contains(out, strings.TrimSuffix(u, "\n")+":") {
					t.Errorf("%s --urls -: %q not answered; stdout:\n%s", cmd, u, out)
				}
			}
			for _, want := range []string{
				`sitetxt: <stdin>:2: "http:///nohost" is an http URL without a host` + "\n",
				`sitetxt: <stdin>:5: "https://[::1/x" is not a URL`,
				"sitetxt: 2 URLs of 5 not answered\n",
			} {
				if !strings.Contains(errOut, want) {
					t.Errorf("%s --urls -: stderr %q, want %q", cmd, errOut, want)
				}
			}
			if code != ExitError {
				t.Errorf("%s --urls -: exit %d, want 2", cmd, code)
			}
		})
	}
	// JSON: the error in place, as an object of its own.
	out, errOut, code := runCLI(t, urls, "check", "-o", "json", "--urls", "-", file)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != ExitError || len(lines) != 5 {
		t.Fatalf("check -o json --urls - = exit %d, %d lines:\n%s%s", code, len(lines), out, errOut)
	}
	var bad urlError
	if err := json.Unmarshal([]byte(lines[1]), &bad); err != nil || bad.URL != "http:///nohost" || !strings.Contains(bad.Error, "without a host") {
		t.Errorf("line 2 = %s (%v), want {\"url\":\"http:///nohost\",\"error\":...}", lines[1], err)
	}
	var d decisionJSON
	if err := json.Unmarshal([]byte(lines[2]), &d); err != nil || d.URL != "/b" {
		t.Errorf("line 3 = %s (%v), want the decision for /b", lines[2], err)
	}
	// URLs named on the command line: numbered by their place.
	_, errOut, code = runCLI(t, "", "agents", "testdata/mobileagent/fict.org.txt", "/a", "http://", "/b")
	if code != ExitError || !strings.Contains(errOut, `sitetxt: URL 2: "http://" is an http URL without a host`) {
		t.Errorf("agents with a bad second URL = exit %d, stderr %q; want exit 2 naming URL 2", code, errOut)
	}
}

// TestBatchPerSiteAndOrigins: without a SOURCE, a URL that names no site
// is an error for that URL; with a fetched SOURCE, a URL of another origin
// is refused naming both origins, never judged by the other site's file
// (issue 35, item 2), and every other URL is answered. Two loopback sites.
func TestBatchPerSiteAndOrigins(t *testing.T) {
	a := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /private/\n"})
	b := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nAllow: /\n"})
	cache := t.TempDir()
	in := a.URL + "/private/x\nxyz/foo\n" + b.URL + "/private/x\n"
	out, errOut, code := runCLI(t, in, "check", "--cache-dir", cache, "--urls", "-")
	if code != ExitError || !strings.Contains(out, "disallowed "+a.URL+"/private/x") || !strings.Contains(out, "allowed    "+b.URL+"/private/x") ||
		!strings.Contains(errOut, `sitetxt: <stdin>:2: "xyz/foo" is not an absolute http(s) URL`) {
		t.Errorf("check --urls - (per site) = exit %d\n%s%s\nwant both sites' URLs answered and line 2 an error", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "check", "--cache-dir", cache, a.URL+"/robots.txt", "/private/y", b.URL+"/no")
	wantErr := "sitetxt: URL 2: " + b.URL + "/no is on " + b.URL + ", not on " + a.URL
	if code != ExitError || !strings.Contains(out, "disallowed /private/y") || strings.Contains(out, "/no") || !strings.Contains(errOut, wantErr) {
		t.Errorf("check %s/robots.txt /private/y %s/no = exit %d\n%s%s\nwant /private/y answered and %q", a.URL, b.URL, code, out, errOut, wantErr)
	}
}

// TestBatchNoSay: a batch answers nothing a robots.txt has no say over: a
// URL of another scheme (ftp:, mailto:) and one whose port no site has
// (above 65535) are each an error for that URL alone, against a file and
// against a fetched site, as serve's /v1/check refuses them; every other
// URL is answered and the run exits 2 (issue 50, item 1: they were
// answered "allowed" by the path of the URL).
func TestBatchNoSay(t *testing.T) {
	chdirRoot(t)
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /org/\n"})
	in := "ftp://x/y\nmailto:a@b\n/org/plans.html\nhttp://127.0.0.1:70000/x\nexample.org:99999/x\n/ok\n"
	for _, src := range []string{"testdata/robots/fict.org.txt", site.URL + "/"} {
		for _, format := range []string{"text", "json"} {
			out, errOut, code := runCLI(t, in, "check", "--no-cache", "-o", format, "--urls", "-", src)
			answered := strings.Count(out, `"allowed":`)
			if format == "text" {
				answered = strings.Count(out, "allowed ")
			}
			if code != ExitError || answered != 2 || !strings.Contains(out, "/ok") || !strings.Contains(out, "/org/plans.html") ||
				!strings.Contains(errOut, "sitetxt: 4 URLs of 6 not answered") {
				t.Errorf("check -o %s --urls - %s = exit %d, %d answered\n%s%s\nwant /org/plans.html and /ok answered, 4 URLs not, exit 2", format, src, code, answered, out, errOut)
			}
			for i, want := range []string{`"ftp://x/y" is not an http(s) URL (its scheme is ftp)`, `"mailto:a@b" is not an http(s) URL (its scheme is mailto)`,
				`"http://127.0.0.1:70000/x": port 70000 is larger than 65535`, `"example.org:99999/x": port 99999 is larger than 65535`} {
				if format == "text" {
					want = fmt.Sprintf("sitetxt: <stdin>:%d: ", []int{1, 2, 4, 5}[i]) + want
				} else {
					want = strings.ReplaceAll(want, `"`, `\"`)
				}
				if !strings.Contains(out+errOut, want) {
					t.Errorf("check -o %s --urls - %s: output %q, want %q", format, src, out+errOut, want)
				}
			}
		}
	}
}

// TestBareHostSource: a SOURCE that is no file but a host name, with or
// without a path, is read as that https site, as "sitetxt fetch" reads a
// SITE, with a note (issue 35, item 2); a file of that name wins.
func TestBareHostSource(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	// A loopback site: its host read as https answers no TLS, a fetch
	// failure that names the URL read.
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /a\n"})
	host := strings.TrimPrefix(site.URL, "http://")
	out, errOut, code := runCLI(t, "", "check", "--no-cache", host, "/a")
	if !strings.Contains(errOut, "sitetxt: note: "+host+" is not a file: it is read as the site https://"+host+"/") ||
		strings.Contains(errOut, "cannot read "+host) || !strings.Contains(errOut, "https://"+host+"/robots.txt") || !strings.Contains(out, "/a") || code != ExitError {
		t.Errorf("check %s /a = exit %d, %q, %q; want it read as https://%s/ (and its fetch failure)", host, code, out, errOut, host)
	}
	_, errOut, _ = runCLI(t, "", "check", "--no-cache", host+"/private/x")
	if !strings.Contains(errOut, "read as the site https://"+host+"/private/x") {
		t.Errorf("check %s/private/x: stderr %q, want the page of that site, checked against its robots.txt", host, errOut)
	}
	if err := os.WriteFile(filepath.Join(dir, "example.org"), []byte("User-agent: *\nDisallow: /a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "", "check", "example.org", "/a")
	if code != ExitFindings || !strings.Contains(out, "disallowed /a: example.org:2") || errOut != "" {
		t.Errorf("check example.org /a with a file example.org = exit %d, %q, %q; want the file read", code, out, errOut)
	}
}

// TestLongStdinLine: a line of a list on standard input longer than
// maxLine is an error naming the limit and the line's number, in every
// command that reads lines from standard input (check, diff and matrix
// share the batch, datasets --list and audit's "-" the line reader); a
// batch answers the lines around it (issue 44, item 9: it was
// "bufio.Scanner: token too long").
func TestLongStdinLine(t *testing.T) {
	chdirRoot(t)
	long := "/" + strings.Repeat("x", maxLine)
	const msg = "line 2 is longer than 16 MiB, the most sitetxt reads of one line"
	for _, tt := range []struct {
		args  []string
		stdin string
		code  int
		err   string // standard error holds it
		out   string // standard output holds it
	}{
		{[]string{"check", "--urls", "-", "testdata/robots/fict.org.txt"}, "/a\n" + long + "\n/org/plans.html\n", ExitError,
			"sitetxt: <stdin>: " + msg + "\n", "disallowed /org/plans.html"},
		{[]string{"check", "-o", "json", "--urls", "-", "testdata/robots/fict.org.txt"}, "/a\n" + long + "\r\n/b\n", ExitError,
			"", `{"url":"","error":"` + msg + `"}`},
		{[]string{"datasets", "--list", "-"}, "testdata/datatxt/list.yaml.txt\n" + long + "\n", ExitError, "sitetxt: cannot read <stdin>: " + msg + "\n", ""},
		{[]string{"audit", "--summary", "-"}, "testdata/robots/fict.org.txt\n" + long + "\n", ExitError, "sitetxt: <stdin>: " + msg + "\n", "audited"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.err) || !strings.Contains(out, tt.out) || strings.Contains(errOut, "token too long") {
				t.Errorf("sitetxt %s with a %d-byte line = exit %d, stdout %.300q, stderr %.300q; want exit %d, stderr with %q, stdout with %q",
					strings.Join(tt.args, " "), len(long), code, out, errOut, tt.code, tt.err, tt.out)
			}
		})
	}
}

// TestEachLine: eachLine gives each line without its line end and its
// number, as bufio.Scanner's lines are, and a line past the limit as an
// error of its own, reading on after it.
func TestEachLine(t *testing.T) {
	const limit = 100
	big := strings.Repeat("y", 100<<10) // past the reader's buffer
	for _, tt := range []struct {
		in    string
		limit int
		want  []string
	}{
		{"", limit, nil},
		{"a", limit, []string{"1 a"}},
		{"a\n", limit, []string{"1 a"}},
		{"a\r\nb\rc\r", limit, []string{"1 a", "2 b\rc"}},
		{"\n\nz", limit, []string{"1 ", "2 ", "3 z"}},
		{big + "\nq\n", maxLine, []string{"1 " + big, "2 q"}},
		{"a\n" + big + "\nb", limit, []string{"1 a", "2 line 2 is longer than 100 bytes, the most sitetxt reads of one line", "3 b"}},
		{"a\n" + big + "\nb", 64 << 10, []string{"1 a", "2 line 2 is longer than 64 KiB, the most sitetxt reads of one line", "3 b"}},
		{strings.Repeat("z", limit+1) + "\n", limit, []string{"1 line 1 is longer than 100 bytes, the most sitetxt reads of one line"}},
		{strings.Repeat("z", limit) + "\r\n", limit, []string{"1 " + strings.Repeat("z", limit)}},
	} {
		var got []string
		err := eachLineUpTo(strings.NewReader(tt.in), "in", tt.limit, func(n int, line string, long error) error {
			if long != nil {
				line = long.Error()
			}
			got = append(got, fmt.Sprintf("%d %s", n, line))
			return nil
		})
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("eachLineUpTo(%.40q, %d) = %.200q, %v; want %.200q", tt.in, tt.limit, got, err, tt.want)
		}
	}
	// An endless line: the reading stops once maxSkip bytes of it are
	// passed over, with the line's error.
	endless := io.LimitReader(&repeatReader{s: "u"}, 1<<30)
	err := eachLineUpTo(endless, "in", limit, func(int, string, error) error { return nil })
	if want := "cannot read in: line 1 is longer than 100 bytes, the most sitetxt reads of one line"; err == nil || err.Error() != want {
		t.Errorf("eachLineUpTo(an endless line, %d) = %v, want %q", limit, err, want)
	}
}
