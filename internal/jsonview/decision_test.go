package jsonview

import (
	"runtime"
	"testing"
	"weak"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

// TestGroupOfKeepsNoPolicy: the group object of an answer shares no
// memory with the policy that decided it. A policy of one group keeps
// that group, its agents and itself in one allocation, so an answer that
// kept the group's own Agents kept the whole policy, its rule index
// included: serve's load test went to 929-1,600 MiB of a 512 MiB budget.
func TestGroupOfKeepsNoPolicy(t *testing.T) {
	pol := robots.Compile(grammar.ParseString("robots.txt", "User-agent: a\nUser-agent: b\nDisallow: /x\n", grammar.Options{}), robots.RFC9309)
	d := pol.Decide("a", "/x")
	if d.Group == nil {
		t.Fatalf("Decide(%q, %q) has no group", "a", "/x")
	}
	g := GroupOf(d.Group, "robots.txt")
	if len(g.Agents) != 2 || g.Agents[0] != "a" || g.Agents[1] != "b" {
		t.Fatalf("GroupOf(...).Agents = %q, want [a b]", g.Agents)
	}
	held := weak.Make(pol)
	d, pol = robots.Decision{}, nil
	for range 3 {
		runtime.GC()
	}
	if held.Value() != nil {
		t.Errorf("the policy is still reachable from a kept group object %+v", g)
	}
	runtime.KeepAlive(g)
}
