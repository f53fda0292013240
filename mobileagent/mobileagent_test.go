package mobileagent

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
)

func compile(src string) *Table {
	return Compile(grammar.ParseString("robots.txt", src, grammar.Options{}))
}

// want is the expected answer for a URL: the server's target as written
// ("" for no server) and the deciding line (0 for none).
type want struct {
	server string
	line   int
}

func checkLookup(t *testing.T, tab *Table, url string, w want) {
	t.Helper()
	r := tab.Lookup(url)
	got := want{}
	if r.Server != nil {
		got.server = r.Server.URL
	}
	if r.Rule != nil {
		got.line = r.Rule.Line.Pos.Line
	}
	if got != w {
		t.Errorf("Lookup(%q) = server %q line %d, want server %q line %d", url, got.server, got.line, w.server, w.line)
	}
	if r.Server != nil && r.Rule == nil {
		t.Errorf("Lookup(%q) has a server but no deciding line", url)
	}
}

// The draft's example (section 4): the directives and the matrix.
const draftExample = `Mobile-agent-server: / atp://www.fict.org:8001
Mobile-agent-server: /home/ none
Mobile-agent-server: /home/user1/ atp://user1.fict.org:854
Mobile-agent-server: /home/user2/ atp://user2.fict.org:831
`

func TestDraftMatrix(t *testing.T) {
	tab := compile(draftExample)
	if ds := tab.Diagnostics(); len(ds) != 0 {
		t.Fatalf("Diagnostics() = %v, want none", ds)
	}
	tests := []struct {
		url  string
		want want
	}{
		// The matrix, row by row ("not available" is no server).
		{"http://www.fict.org/index.html", want{"atp://www.fict.org:8001", 1}},
		{"http://www.fict.org/services/", want{"atp://www.fict.org:8001", 1}},
		{"http://www.fict.org/services/index.html", want{"atp://www.fict.org:8001", 1}},
		{"http://www.fict.org/robots.txt", want{"atp://www.fict.org:8001", 1}},
		{"http://www.fict.org/home/", want{"", 2}},
		{"http://www.fict.org/home/user1/", want{"atp://user1.fict.org:854", 3}},
		{"http://www.fict.org/home/user1/index.html", want{"atp://user1.fict.org:854", 3}},
		// Erratum: the matrix says atp://user1.fict.org:831 for these two
		// rows; the directives (line 4) say atp://user2.fict.org:831.
		{"http://www.fict.org/home/user2/", want{"atp://user2.fict.org:831", 4}},
		{"http://www.fict.org/home/user2/index.html", want{"atp://user2.fict.org:831", 4}},
		{"http://www.fict.org/home/user3/", want{"", 2}},
		{"http://www.fict.org/home/user3/index.html", want{"", 2}},
		// The URLs the draft lists but leaves out of the matrix.
		{"http://www.fict.org/", want{"atp://www.fict.org:8001", 1}},
		// Paths instead of URLs.
		{"/home/user1/index.html", want{"atp://user1.fict.org:854", 3}},
		{"/home", want{"atp://www.fict.org:8001", 1}}, // "/home/" is not a prefix of "/home"
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) { checkLookup(t, tab, tt.url, tt.want) })
	}
}

// TestDraftMatrixErratum pins the erratum: the matrix's value for
// /home/user2/ is not what the directives give.
func TestDraftMatrixErratum(t *testing.T) {
	tab := compile(draftExample)
	const matrix = "atp://user1.fict.org:831"
	for _, u := range []string{"http://www.fict.org/home/user2/", "http://www.fict.org/home/user2/index.html"} {
		if r := tab.Lookup(u); r.Server == nil || r.Server.URL == matrix {
			t.Errorf("Lookup(%q) = %v, want the directives' server, not the matrix's %s", u, r.Server, matrix)
		}
	}
}

func TestDir1(t *testing.T) {
	// Section 3.1's example.
	tab := compile(`Mobile-agent-server: / none
Mobile-agent-server: /dir1 atp://www.fict.org:544
Mobile-agent-server: /dir1/dir2 atp://www.fict.org:543
`)
	tests := []struct {
		url  string
		want want
	}{
		{"http://www.fict.org/", want{"", 1}},
		{"http://www.fict.org", want{"", 1}},
		{"http://www.fict.org/index.html", want{"", 1}},
		{"http://www.fict.org/dir1", want{"atp://www.fict.org:544", 2}},
		{"http://www.fict.org/dir1/", want{"atp://www.fict.org:544", 2}},
		{"http://www.fict.org/dir1/a.html", want{"atp://www.fict.org:544", 2}},
		{"http://www.fict.org/dir1/dir", want{"atp://www.fict.org:544", 2}},
		{"http://www.fict.org/dir1/dir2", want{"atp://www.fict.org:543", 3}},
		{"http://www.fict.org/dir1/dir2/", want{"atp://www.fict.org:543", 3}},
		{"http://www.fict.org/dir1/dir2/a/b.html", want{"atp://www.fict.org:543", 3}},
		// Octet-prefix matching, as robots.txt's: "/dir1" is a prefix of
		// "/dir1x" and "/dir1/dir2" of "/dir1/dir2x".
		{"http://www.fict.org/dir1x", want{"atp://www.fict.org:544", 2}},
		{"http://www.fict.org/dir1x/dir2", want{"atp://www.fict.org:544", 2}},
		{"http://www.fict.org/dir1/dir2x", want{"atp://www.fict.org:543", 3}},
		// No case folding; %xx escapes decoded, except %2F, as the drafts
		// compare paths.
		{"http://www.fict.org/DIR1", want{"", 1}},
		{"http://www.fict.org/%64ir1", want{"atp://www.fict.org:544", 2}},
		{"http://www.fict.org/%64ir1%2fdir2", want{"atp://www.fict.org:544", 2}},
		{"http://www.fict.org/dir1%2Fdir2", want{"atp://www.fict.org:544", 2}},
		// Query and fragment are not part of the path.
		{"http://www.fict.org/dir1?dir2", want{"atp://www.fict.org:544", 2}},
		{"http://www.fict.org/dir1/dir2#top", want{"atp://www.fict.org:543", 3}},
		{"http://www.fict.org?/dir1", want{"", 1}},
		{"/dir1/dir2/x", want{"atp://www.fict.org:543", 3}},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) { checkLookup(t, tab, tt.url, tt.want) })
	}
}

func TestEqualPaths(t *testing.T) {
	tests := []struct {
		name, src string
		url       string
		want      want
	}{
		{"later server wins", "Mobile-agent-server: /a atp://one:1\nMobile-agent-server: /a atp://two:2\n", "/a/x", want{"atp://two:2", 2}},
		{"later none wins", "Mobile-agent-server: /a atp://one:1\nMobile-agent-server: /a none\n", "/a/x", want{"", 2}},
		{"later server beats none", "Mobile-agent-server: /a none\nMobile-agent-server: /a atp://two:2\n", "/a", want{"atp://two:2", 2}},
		{"three lines", "Mobile-agent-server: /a atp://one:1\nMobile-agent-server: /a atp://two:2\nMobile-agent-server: /a atp://three:3\n", "/a", want{"atp://three:3", 3}},
		{"far apart", "Mobile-agent-server: /a atp://one:1\nUser-agent: *\nDisallow: /x\n\nMobile-agent-server: /b none\nMobile-agent-server: /a atp://two:2\n", "/a", want{"atp://two:2", 6}},
		{"malformed later line does not override", "Mobile-agent-server: /a atp://one:1\nMobile-agent-server: /a atp:/two\n", "/a", want{"atp://one:1", 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkLookup(t, compile(tt.src), tt.url, tt.want) })
	}
}

func TestOverriddenDiagnostic(t *testing.T) {
	tab := compile("Mobile-agent-server: /a atp://one:1\nMobile-agent-server: /a atp://two:2\n")
	ds := tab.Diagnostics()
	if len(ds) != 1 || ds[0].Code != CodeOverridden || ds[0].Severity != grammar.Warning {
		t.Fatalf("Diagnostics() = %v, want one %s warning", ds, CodeOverridden)
	}
	if got, want := ds[0].Error(), `robots.txt:1:22: warning: path "/a" is assigned again on line 2, which overrides this line`; got != want {
		t.Errorf("diagnostic = %q, want %q", got, want)
	}
}

func TestShorterAfterLonger(t *testing.T) {
	// The longest path decides whatever the order: a later, shorter line
	// does not override a longer one.
	tab := compile(`Mobile-agent-server: /a/b/ atp://deep:1
Mobile-agent-server: /a/ atp://shallow:2
Mobile-agent-server: / none
`)
	for _, tt := range []struct {
		url  string
		want want
	}{
		{"/a/b/c", want{"atp://deep:1", 1}},
		{"/a/b/", want{"atp://deep:1", 1}},
		{"/a/b", want{"atp://shallow:2", 2}},
		{"/a/c", want{"atp://shallow:2", 2}},
		{"/b", want{"", 3}},
	} {
		t.Run(tt.url, func(t *testing.T) { checkLookup(t, tab, tt.url, tt.want) })
	}
}

func TestComments(t *testing.T) {
	tab := compile(`# servers
Mobile-agent-server: /a atp://h:1 # after the target
Mobile-agent-server: /b none# right after none
Mobile-agent-server: /c atp://h:2#no space
Mobile-agent-server: /d #no target, only a comment
Mobile-agent-server: /e	atp://h:3	# tabs
`)
	for _, tt := range []struct {
		url  string
		want want
	}{
		{"/a", want{"atp://h:1", 2}},
		{"/b", want{"", 3}},
		{"/c", want{"atp://h:2", 4}},
		{"/d", want{"", 0}},
		{"/e", want{"atp://h:3", 6}},
	} {
		t.Run(tt.url, func(t *testing.T) { checkLookup(t, tab, tt.url, tt.want) })
	}
	ds := tab.Diagnostics()
	if len(ds) != 1 || ds[0].Code != CodeMissingTarget || ds[0].Range.Start.Line != 5 {
		t.Errorf("Diagnostics() = %v, want one %s on line 5", ds, CodeMissingTarget)
	}
}

func TestNone(t *testing.T) {
	// "none" is a literal of an RFC 822-style BNF: case does not matter
	// (RFC 822 section 3.4.7).
	for _, none := range []string{"none", "NONE", "None", "nOnE"} {
		tab := compile("Mobile-agent-server: / atp://h:1\nMobile-agent-server: /x " + none + "\n")
		checkLookup(t, tab, "/x", want{"", 2})
		if ds := tab.Diagnostics(); len(ds) != 0 {
			t.Errorf("%s: Diagnostics() = %v, want none", none, ds)
		}
		if got := tab.Lookup("/x").Rule.Target(); got != none {
			t.Errorf("Target() = %q, want %q", got, none)
		}
	}
	// Not none: a word that is neither none nor a URL is malformed.
	tab := compile("Mobile-agent-server: / atp://h:1\nMobile-agent-server: /x nothing\n")
	checkLookup(t, tab, "/x", want{"atp://h:1", 1})
}

func TestMalformed(t *testing.T) {
	// Each line follows a good root line, which must still apply. col is
	// the column the diagnostic points at.
	tests := []struct {
		name, line string
		code       string
		col        int
		summary    string
	}{
		{"empty", "Mobile-agent-server:", CodeMissingPath, 21, `missing path and server after "Mobile-agent-server:"`},
		{"blank value", "Mobile-agent-server:   \t", CodeMissingPath, 25, ""},
		{"missing target", "Mobile-agent-server: /x", CodeMissingTarget, 24, `missing server after path "/x": want scheme://host:port or none`},
		{"three fields", "Mobile-agent-server: /x atp://h:1 atp://h:2", CodeExtraField, 35, `unexpected "atp://h:2" after the server: a line holds one path and one server`},
		{"four fields", "Mobile-agent-server: /x none and more", CodeExtraField, 30, ""},
		{"bad scheme char", "Mobile-agent-server: /x a_b://h:1", CodeBadScheme, 26, `"_" is not allowed in a scheme (letters, digits, "+", "-" and ".")`},
		{"empty scheme", "Mobile-agent-server: /x ://h:1", CodeBadScheme, 25, `missing scheme before "://"`},
		{"no scheme", "Mobile-agent-server: /x www.fict.org:8001", CodeBadTarget, 25, `server "www.fict.org:8001" is not scheme://host:port or none`},
		{"one slash", "Mobile-agent-server: /x atp:/h:1", CodeBadTarget, 25, ""},
		{"missing host", "Mobile-agent-server: /x atp://", CodeMissingHost, 31, `missing host in server "atp://"`},
		{"port only", "Mobile-agent-server: /x atp://:80", CodeMissingHost, 31, ""},
		{"bad port", "Mobile-agent-server: /x atp://h:8o", CodeBadPort, 33, `port "8o" is not a number from 0 to 65535`},
		{"port too big", "Mobile-agent-server: /x atp://h:65536", CodeBadPort, 33, ""},
		{"path in target", "Mobile-agent-server: /x atp://h:1/agents", CodeBadNetLoc, 34, `"/agents" after the host is not allowed: the server is scheme://host:port, with no path`},
		{"bad net_loc char", "Mobile-agent-server: /x atp://h~x:1", CodeBadNetLoc, 32, `"~" is not allowed in the server address; write it as %7E`},
		{"bad net_loc escape", "Mobile-agent-server: /x atp://h%4:1", CodeBadNetLoc, 32, ""},
		{"space-like control byte in path", "Mobile-agent-server: /a\vb atp://h:1", CodeBadPath, 24, `"\v" is not allowed in a path; write it as %0B`},
		{"IPv6 without brackets closed", "Mobile-agent-server: /x atp://[::1:1", CodeBadNetLoc, 31, ""},
		{"bad path escape", "Mobile-agent-server: /a%zz atp://h:1", CodeBadPath, 24, `"%" must start a %XX escape in a path`},
		{"short path escape", "Mobile-agent-server: /a%2 atp://h:1", CodeBadPath, 24, ""},
		{"query in path", "Mobile-agent-server: /a?b atp://h:1", CodeBadPath, 24, ""},
		{"NUL in path", "Mobile-agent-server: /a\x00 atp://h:1", CodeBadPath, 24, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := compile("Mobile-agent-server: / atp://root:1\n" + tt.line + "\n")
			var errs grammar.Diagnostics
			for _, d := range tab.Diagnostics() {
				if d.Severity == grammar.Error {
					errs = append(errs, d)
				}
			}
			if len(errs) != 1 {
				t.Fatalf("errors = %v, want one %s", errs, tt.code)
			}
			d := errs[0]
			if d.Code != tt.code {
				t.Errorf("Code = %q, want %q (%s)", d.Code, tt.code, d.Summary)
			}
			if d.Range.Start.Line != 2 || d.Range.Start.Column != tt.col {
				t.Errorf("position = %s, want 2:%d (%s)", d.Range.Start, tt.col, d.Summary)
			}
			if tt.summary != "" && d.Summary != tt.summary {
				t.Errorf("Summary = %q, want %q", d.Summary, tt.summary)
			}
			if d.Filename != "robots.txt" || d.Range.End.Offset < d.Range.Start.Offset {
				t.Errorf("diagnostic %v has a bad file or range %v", d, d.Range)
			}
			if n := len(tab.Rules()); n != 1 {
				t.Errorf("len(Rules()) = %d, want 1: the malformed line must be ignored", n)
			}
			checkLookup(t, tab, "/x", want{"atp://root:1", 1})
		})
	}
}

// TestPathEscapes shows paths compared as the drafts compare them (issue
// 12): %xx escapes decoded on both sides except %2F, and a path written
// with a character the BNF wants escaped accepted with a warning.
func TestPathEscapes(t *testing.T) {
	tab := compile("Mobile-agent-server: / atp://root:1\n" +
		"Mobile-agent-server: /%7Euser/ atp://tilde:2\n" +
		"Mobile-agent-server: /~bob/ atp://bob:3\n" +
		"Mobile-agent-server: /caf\u00e9/ atp://cafe:4\n" +
		"Mobile-agent-server: /a%2Fb/ atp://slash:5\n")
	tests := []struct {
		url  string
		want want
	}{
		{"http://host/~user/a", want{"atp://tilde:2", 2}},
		{"http://host/%7euser/a", want{"atp://tilde:2", 2}},
		{"http://host/~bob/x", want{"atp://bob:3", 3}},
		{"http://host/%7Ebob/x", want{"atp://bob:3", 3}},
		{"http://host/caf%C3%A9/x", want{"atp://cafe:4", 4}},
		{"http://host/caf\u00e9/x", want{"atp://cafe:4", 4}},
		{"http://host/a%2fb/x", want{"atp://slash:5", 5}},
		{"http://host/a/b/x", want{"atp://root:1", 1}},
	}
	for _, tt := range tests {
		checkLookup(t, tab, tt.url, tt.want)
	}
	var got []string
	for _, d := range tab.Diagnostics() {
		got = append(got, fmt.Sprintf("%s %s %s", d.Range.Start, d.Severity, d.Code))
	}
	wantDiags := []string{"3:23 warning " + CodeUnescapedPath, "4:26 warning " + CodeUnescapedPath}
	if strings.Join(got, ", ") != strings.Join(wantDiags, ", ") {
		t.Errorf("Diagnostics() = %v, want %v", got, wantDiags)
	}
	// A later line for the same path, escaped or not, overrides.
	tab = compile("Mobile-agent-server: /~u/ atp://a:1\nMobile-agent-server: /%7Eu/ atp://b:2\n")
	checkLookup(t, tab, "/~u/", want{"atp://b:2", 2})
}

// TestIPv6Server accepts IPv6 literal hosts, with a warning that the 1997
// BNF predates them.
func TestIPv6Server(t *testing.T) {
	tests := []struct {
		target, host, port string
	}{
		{"atp://[::1]:8001", "[::1]", "8001"},
		{"atp://[::1]", "[::1]", ""},
		{"atp://[2001:db8::7]:99", "[2001:db8::7]", "99"},
		{"atp://u@[::ffff:10.0.0.1]:1", "[::ffff:10.0.0.1]", "1"},
	}
	for _, tt := range tests {
		tab := compile("Mobile-agent-server: / " + tt.target + "\n")
		r := tab.Lookup("/x")
		if r.Server == nil || r.Server.Host != tt.host || r.Server.Port != tt.port {
			t.Errorf("%s: Lookup(/x).Server = %+v, want host %q port %q (%v)", tt.target, r.Server, tt.host, tt.port, tab.Diagnostics())
			continue
		}
		ds := tab.Diagnostics()
		if len(ds) != 1 || ds[0].Code != CodeIPv6 || ds[0].Severity != grammar.Warning {
			t.Errorf("%s: Diagnostics() = %v, want one %s warning", tt.target, ds, CodeIPv6)
		}
	}
}

func TestRelativePath(t *testing.T) {
	// The draft's BNF path has no leading "/"; such a line is valid but
	// never matches, and a warning says so.
	tab := compile("Mobile-agent-server: / atp://root:1\nMobile-agent-server: home/ atp://h:2\n")
	ds := tab.Diagnostics()
	if len(ds) != 1 || ds[0].Code != CodeRelativePath || ds[0].Severity != grammar.Warning || ds[0].Range.Start.Column != 22 {
		t.Fatalf("Diagnostics() = %v, want one %s warning at column 22", ds, CodeRelativePath)
	}
	for _, u := range []string{"/home/", "http://h/home/"} {
		checkLookup(t, tab, u, want{"atp://root:1", 1})
	}
	// Not even a relative reference matches it.
	checkLookup(t, tab, "home/x", want{"", 0})
	if n := len(tab.Rules()); n != 2 {
		t.Errorf("len(Rules()) = %d, want 2", n)
	}
}

func TestServerParts(t *testing.T) {
	tests := []struct {
		target string
		want   Server
	}{
		{"atp://www.fict.org:8001", Server{Scheme: "atp", NetLoc: "www.fict.org:8001", Host: "www.fict.org", Port: "8001"}},
		{"ATP://Host.Example", Server{Scheme: "atp", NetLoc: "Host.Example", Host: "Host.Example"}},
		{"x-agent+tls.v1://h:", Server{Scheme: "x-agent+tls.v1", NetLoc: "h:", Host: "h"}},
		{"atp://bob:secret@h:77", Server{Scheme: "atp", NetLoc: "bob:secret@h:77", User: "bob:secret", Host: "h", Port: "77"}},
		{"atp://h:77;type=a?x", Server{Scheme: "atp", NetLoc: "h:77;type=a?x", Host: "h", Port: "77"}},
		{"atp://10.0.0.1:0", Server{Scheme: "atp", NetLoc: "10.0.0.1:0", Host: "10.0.0.1", Port: "0"}},
		{"atp://h%41", Server{Scheme: "atp", NetLoc: "h%41", Host: "h%41"}},
		{"9://h", Server{Scheme: "9", NetLoc: "h", Host: "h"}},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			tab := compile("Mobile-agent-server: / " + tt.target)
			r := tab.Lookup("/")
			if r.Server == nil {
				t.Fatalf("Lookup: no server; diagnostics %v", tab.Diagnostics())
			}
			tt.want.URL = tt.target
			if *r.Server != tt.want {
				t.Errorf("Server = %+v, want %+v", *r.Server, tt.want)
			}
			if r.Server.String() != tt.target {
				t.Errorf("String() = %q, want %q", r.Server.String(), tt.target)
			}
		})
	}
}

func TestFieldSpelling(t *testing.T) {
	tab := compile(`MOBILE-AGENT-SERVER: / atp://upper:1
mobile-agent-server: /lower atp://lower:2
Mobile-agent-servers: /a atp://plural:3
Mobile agent server: /b atp://spaces:4
MobileAgentServer: /c atp://camel:5
Mobile-agent-server / atp://nocolon:6
Mobile-agent-server /d
Mobile-agent-server / none
Sitemap: /e
`)
	checkLookup(t, tab, "/x", want{"atp://upper:1", 1})
	checkLookup(t, tab, "/lower", want{"atp://lower:2", 2})
	for _, u := range []string{"/a", "/b", "/c", "/d"} {
		checkLookup(t, tab, u, want{"atp://upper:1", 1})
	}
	var got []string
	for _, d := range tab.Diagnostics() {
		got = append(got, fmt.Sprintf("%s %s", d.Range.Start, d.Code))
	}
	want := []string{
		"3:1 " + CodeFieldSpelling,
		"4:1 " + CodeFieldSpelling,
		"5:1 " + CodeFieldSpelling,
		"6:20 " + CodeMissingColon,
		"8:20 " + CodeMissingColon,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Diagnostics() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestWherever(t *testing.T) {
	// Lines count in the preamble, among User-agent lines, among rules and
	// after blank lines: they are not per agent.
	tab := compile(`Mobile-agent-server: /pre atp://pre:1
User-agent: a
Mobile-agent-server: /head atp://head:3
User-agent: b
Disallow: /x
Mobile-agent-server: /rules atp://rules:6

Mobile-agent-server: /after-blank atp://blank:8
User-agent: *
Allow: /
Mobile-agent-server: /last atp://last:11`)
	for _, tt := range []struct {
		url  string
		want want
	}{
		{"/pre", want{"atp://pre:1", 1}},
		{"/head", want{"atp://head:3", 3}},
		{"/rules", want{"atp://rules:6", 6}},
		{"/after-blank", want{"atp://blank:8", 8}},
		{"/last", want{"atp://last:11", 11}},
		{"/other", want{"", 0}},
	} {
		t.Run(tt.url, func(t *testing.T) { checkLookup(t, tab, tt.url, tt.want) })
	}
}

func TestURLPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "/"},
		{"/", "/"},
		{"/a/b?c#d", "/a/b"},
		{"http://h", "/"},
		{"http://h/", "/"},
		{"http://h?q", "/"},
		{"http://h#f", "/"},
		{"http://user@h:80/a/b?c", "/a/b"},
		{"HTTPS://H/A", "/A"},
		{"//a/b", "/b"}, // a network-path reference names a host, as robots reads it
		{"//x", "/"},
		{"/a:b", "/a:b"},
		{"mailto:x@y", "x@y"},
		{"a/b", "a/b"},
	}
	for _, tt := range tests {
		if got := urlPath(tt.in); got != tt.want {
			t.Errorf("urlPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLookupAllocs(t *testing.T) {
	tab := compile(draftExample)
	var sink Result
	n := testing.AllocsPerRun(100, func() {
		sink = tab.Lookup("http://www.fict.org/home/user2/index.html?q=1")
		sink = tab.Lookup("/home/user3/")
	})
	if n != 0 {
		t.Errorf("Lookup allocates %v times per run, want 0", n)
	}
	_ = sink
}

func TestEmptyTable(t *testing.T) {
	tab := compile("User-agent: *\nDisallow: /\n")
	checkLookup(t, tab, "/", want{"", 0})
	if len(tab.Rules()) != 0 || len(tab.Diagnostics()) != 0 {
		t.Errorf("Rules() = %v, Diagnostics() = %v, want none", tab.Rules(), tab.Diagnostics())
	}
	var zero Table
	checkLookup(t, &zero, "/", want{"", 0})
}

func TestConcurrentLookup(t *testing.T) {
	tab := compile(draftExample)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if r := tab.Lookup("/home/user1/x"); r.Server == nil || r.Server.Port != "854" {
					t.Errorf("Lookup(/home/user1/x) = %v, want port 854", r.Server)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// fakeRobots disallows every URL that contains one of its strings.
type fakeRobots []string

func (f fakeRobots) Allowed(agent, url string) bool {
	for _, s := range f {
		if strings.Contains(url, s) {
			return false
		}
	}
	return true
}

// agentRobots records the agent it was asked about.
type agentRobots struct{ agent *string }

func (a agentRobots) Allowed(agent, url string) bool { *a.agent = agent; return true }

func TestDispatch(t *testing.T) {
	tab := compile(draftExample)
	robots := fakeRobots{"/home/user1/"}
	tests := []struct {
		url     string
		allowed bool
		server  string
		ok      bool
	}{
		{"http://www.fict.org/index.html", true, "atp://www.fict.org:8001", true},
		{"http://www.fict.org/home/user1/", false, "atp://user1.fict.org:854", false},
		{"http://www.fict.org/home/user3/", true, "", false},
		{"http://www.fict.org/home/user2/", true, "atp://user2.fict.org:831", true},
	}
	for _, tt := range tests {
		d := tab.Dispatch(robots, "bot", tt.url)
		server := ""
		if d.Server != nil {
			server = d.Server.URL
		}
		if d.URL != tt.url || d.Allowed != tt.allowed || server != tt.server || d.OK() != tt.ok {
			t.Errorf("Dispatch(bot, %q) = {allowed %v server %q ok %v}, want {allowed %v server %q ok %v}",
				tt.url, d.Allowed, server, d.OK(), tt.allowed, tt.server, tt.ok)
		}
	}
	if d := tab.Dispatch(nil, "bot", "/home/user1/"); !d.Allowed || !d.OK() {
		t.Errorf("Dispatch(nil robots) = %+v, want allowed", d)
	}
	var asked string
	tab.Dispatch(agentRobots{&asked}, "Aglet/1.0", "/")
	if asked != "Aglet/1.0" {
		t.Errorf("Dispatch passed agent %q to robots, want %q", asked, "Aglet/1.0")
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "abc", 0}, {"abc", "abd", 1}, {"abc", "ab", 1}, {"ab", "ba", 2}, {"abcdef", "abc", 3},
	} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	for _, f := range []string{"Mobile-agent-server", "mobile_agent_server", "Mobile-Agent-Servers", "MobileAgentServ", "Mobil agent server"} {
		if !looksLikeField(f) {
			t.Errorf("looksLikeField(%q) = false, want true", f)
		}
	}
	for _, f := range []string{"Sitemap", "Mobile", "Agent-server", "Crawl-delay", "Mobile-agent-serverxxx"} {
		if looksLikeField(f) {
			t.Errorf("looksLikeField(%q) = true, want false", f)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	tab := compile(draftExample)
	const u = "http://www.fict.org/home/user2/index.html"
	b.SetBytes(int64(len(u)))
	b.ReportAllocs()
	for b.Loop() {
		tab.Lookup(u)
	}
}

func BenchmarkLookupLarge(b *testing.B) {
	var src strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&src, "Mobile-agent-server: /d%d/s%d/ atp://h%d.example:%d\n", i%50, i, i, 1000+i)
	}
	tab := compile(src.String())
	const u = "http://www.example/d7/s957/page.html"
	b.SetBytes(int64(len(u)))
	b.ReportAllocs()
	for b.Loop() {
		tab.Lookup(u)
	}
}

func BenchmarkCompile(b *testing.B) {
	f := grammar.ParseString("robots.txt", draftExample, grammar.Options{})
	b.SetBytes(int64(len(draftExample)))
	b.ReportAllocs()
	for b.Loop() {
		Compile(f)
	}
}
