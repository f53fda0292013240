package mobileagent_test

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/mobileagent"
)

const robotsTxt = `User-agent: *
Disallow: /home/user1/private/

Mobile-agent-server: /            atp://www.fict.org:8001
Mobile-agent-server: /home/       none
Mobile-agent-server: /home/user1/ atp://user1.fict.org:854
Mobile-agent-server: /home/user2/ atp://user2.fict.org/
`

func ExampleCompile() {
	f := grammar.ParseString("robots.txt", robotsTxt, grammar.Options{})
	table := mobileagent.Compile(f)
	for _, r := range table.Rules() {
		fmt.Printf("%d: %s -> %s\n", r.Pos().Line, r.Path, r.Target())
	}
	for _, d := range table.Diagnostics() {
		fmt.Println(d)
	}
	// Output:
	// 4: / -> atp://www.fict.org:8001
	// 5: /home/ -> none
	// 6: /home/user1/ -> atp://user1.fict.org:854
	// robots.txt:7:55: error: "/" after the host is not allowed: the server is scheme://host:port, with no path
}

func ExampleTable_Lookup() {
	f := grammar.ParseString("robots.txt", robotsTxt, grammar.Options{})
	table := mobileagent.Compile(f)
	for _, url := range []string{
		"http://www.fict.org/index.html",
		"http://www.fict.org/home/user1/index.html",
		"http://www.fict.org/home/user3/",
		"/home/user2/", // its line is malformed: /home/ decides
	} {
		r := table.Lookup(url)
		if r.Server == nil {
			fmt.Printf("%s: no server (line %d)\n", url, r.Rule.Pos().Line)
			continue
		}
		fmt.Printf("%s: host %s port %s (line %d)\n", url, r.Server.Host, r.Server.Port, r.Rule.Pos().Line)
	}
	// Output:
	// http://www.fict.org/index.html: host www.fict.org port 8001 (line 4)
	// http://www.fict.org/home/user1/index.html: host user1.fict.org port 854 (line 6)
	// http://www.fict.org/home/user3/: no server (line 5)
	// /home/user2/: no server (line 5)
}

// prefixRobots stands in for a *robots.Policy compiled from the same file:
// it disallows every URL that contains one of its strings.
type prefixRobots []string

func (p prefixRobots) Allowed(agent, url string) bool {
	for _, s := range p {
		if strings.Contains(url, s) {
			return false
		}
	}
	return true
}

func ExampleTable_Dispatch() {
	f := grammar.ParseString("robots.txt", robotsTxt, grammar.Options{})
	table := mobileagent.Compile(f)
	// In sitetxt's CLI: robots.Compile(f, robots.RFC9309).
	policy := prefixRobots{"/home/user1/private/"}
	for _, url := range []string{
		"http://www.fict.org/home/user1/index.html",
		"http://www.fict.org/home/user1/private/notes.html",
		"http://www.fict.org/home/",
	} {
		d := table.Dispatch(policy, "Aglet/1.0", url)
		fmt.Printf("%s allowed=%v server=%v ok=%v\n", url, d.Allowed, d.Server, d.OK())
	}
	// Output:
	// http://www.fict.org/home/user1/index.html allowed=true server=atp://user1.fict.org:854 ok=true
	// http://www.fict.org/home/user1/private/notes.html allowed=false server=atp://user1.fict.org:854 ok=false
	// http://www.fict.org/home/ allowed=true server=<nil> ok=false
}

func ExampleLint() {
	src := `Mobile-agent-server: /home/ atp://user1.fict.org:854
Mobile-agent-server: /~user2/ atp://user2.fict.org:831
Mobile-agent-server: /home/ ftp//user3.fict.org
Mobile-agents-server: / none
`
	for _, d := range mobileagent.Lint(grammar.ParseString("robots.txt", src, grammar.Options{})) {
		fmt.Printf("%s [%s]\n", d, d.Code)
	}
	// Output:
	// robots.txt:2:23: warning: "~" should be escaped in a path (RFC 1808); write it as %7E; the line is accepted and compares as the escape would [agent-server-unescaped-path]
	// robots.txt:3:29: error: server "ftp//user3.fict.org" is not scheme://host:port or none [agent-server-bad-target]
	// robots.txt:4:1: warning: unknown field "Mobile-agents-server" looks like "Mobile-agent-server"; the line is ignored [agent-server-field-spelling]
}

func ExampleRule_String() {
	f := grammar.ParseString("robots.txt", robotsTxt, grammar.Options{})
	for _, r := range mobileagent.Compile(f).Rules() {
		fmt.Println(r)
	}
	// Output:
	// Mobile-agent-server: / atp://www.fict.org:8001
	// Mobile-agent-server: /home/ none
	// Mobile-agent-server: /home/user1/ atp://user1.fict.org:854
}
