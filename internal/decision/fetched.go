package decision

import (
	"fmt"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/robots"
)

// Fixed returns the decision a fetched robots.txt's status makes for every
// URL (allow all, disallow all, defer), and whether it makes one: not for
// a file to parse, nor for a source that was not fetched (nil).
func Fixed(r *fetch.Result) (robots.Decision, bool) {
	if r == nil || r.Status == fetch.Parse {
		return robots.Decision{}, false
	}
	return robots.Decision{Allowed: r.Status == fetch.AllowAll, Reason: r.Reason}, true
}

// Reading is what one profile makes of a robots.txt: the compiled file,
// and for a fetched one, the response as the profile's access method
// reads it (nil for a file that was not fetched). Policy is never nil: a
// fetch that gave no file has the policy of an empty one.
type Reading struct {
	Policy  *robots.Policy
	Fetched *fetch.Result
}

// Decide decides url for agent: by the fetch status when it decides every
// URL, else by the rules.
func (r Reading) Decide(agent, url string) robots.Decision {
	if d, ok := Fixed(r.Fetched); ok {
		return d
	}
	return r.Policy.Decide(agent, url)
}

// Allowed reports whether Decide allows url for agent (a Reading is the
// robots.txt side of a Mobile-agent-server dispatch).
func (r Reading) Allowed(agent, url string) bool { return r.Decide(agent, url).Allowed }

// Compare is robots.Compare over readings: when a fetch status decides
// under any profile, the verdicts come from the statuses and the
// explanation is the access methods' reading of the response.
func Compare(rs []Reading, agent, url string) robots.Comparison {
	fixedAny := false
	for _, r := range rs {
		if _, ok := Fixed(r.Fetched); ok {
			fixedAny = true
		}
	}
	if !fixedAny {
		pols := make([]*robots.Policy, len(rs))
		for i, r := range rs {
			pols[i] = r.Policy
		}
		return robots.Compare(pols, agent, url)
	}
	c := robots.Comparison{Agent: agent, URL: url, Agree: true}
	for _, r := range rs {
		c.Verdicts = append(c.Verdicts, robots.Verdict{Profile: r.Policy.Profile(), Decision: r.Decide(agent, url)})
	}
	ref := c.Verdicts[0]
	for i, v := range c.Verdicts[1:] {
		if v.Decision.Allowed != ref.Decision.Allowed {
			c.Agree = false
			c.Why = append(c.Why, fmt.Sprintf("access method: HTTP %d means %q under %s but %q under %s",
				rs[0].Fetched.HTTPStatus, rs[0].reason(ref.Decision), ref.Profile, rs[i+1].reason(v.Decision), v.Profile))
		}
	}
	return c
}

// reason is what decided d under r: the fetch status, or the file.
func (r Reading) reason(d robots.Decision) string {
	if _, ok := Fixed(r.Fetched); ok {
		return r.Fetched.Reason
	}
	return "parse the file: " + d.String()
}
