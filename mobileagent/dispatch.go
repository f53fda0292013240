package mobileagent

// Robots is what Dispatch needs from a robots.txt policy: whether agent may
// fetch url. A *robots.Policy compiled from the same grammar.File, under
// any profile, is one; this package does not import robots.
type Robots interface {
	Allowed(agent, url string) bool
}

// Dispatched is the answer to a dispatcher about one URL: may the agent go
// there, and where to send it.
type Dispatched struct {
	// URL is the URL asked about.
	URL string
	// Allowed reports whether robots.txt lets the agent fetch URL.
	Allowed bool
	// Result is the server for URL and the deciding line.
	Result
}

// OK reports whether the agent may be dispatched for the URL: robots.txt
// allows it and a server accepts agents for it.
func (d Dispatched) OK() bool { return d.Allowed && d.Server != nil }

// Dispatch decides, for agent and url, whether robots lets the agent in and
// which server to dispatch it to. robots is usually compiled from the same
// parsed file as t, so that one parse answers both questions; a nil robots
// allows everything (a site with no robots.txt rules). The server is
// reported even when robots disallows the URL: the two answers are
// independent, and OK combines them. Dispatch allocates nothing itself.
func (t *Table) Dispatch(robots Robots, agent, url string) Dispatched {
	d := Dispatched{URL: url, Allowed: true, Result: t.Lookup(url)}
	if robots != nil {
		d.Allowed = robots.Allowed(agent, url)
	}
	return d
}
