package robots

import (
	"fmt"

	"github.com/sitetxt/sitetxt/fetch"
)

// Reading is a robots.txt as one profile reads it: the compiled policy
// and, for a file fetched over HTTP, the response as the profile's access
// method reads it (nil for a file that was not fetched). It is the one
// place where an HTTP status becomes a decision: a response that is not a
// file to parse (a 404, a 5xx, a network error) decides every URL before
// any rule does. Policy is never nil: a fetch that gave no file has the
// policy of an empty one.
type Reading struct {
	Policy  *Policy
	Fetched *fetch.Result
}

// Fixed returns the decision the fetch status makes for every URL (allow
// all, disallow all, defer, error), and whether it makes one: not for a
// file to parse, nor for a file that was not fetched.
func (r Reading) Fixed() (Decision, bool) {
	if r.Fetched == nil || r.Fetched.Status == fetch.Parse {
		return Decision{}, false
	}
	return Decision{Allowed: r.Fetched.Status == fetch.AllowAll, Reason: r.Fetched.Reason}, true
}

// Decide decides url for agent: by the fetch status when it decides every
// URL, else by the rules.
func (r Reading) Decide(agent, url string) Decision {
	if d, ok := r.Fixed(); ok {
		return d
	}
	return r.Policy.Decide(agent, url)
}

// Allowed reports whether Decide allows url for agent.
func (r Reading) Allowed(agent, url string) bool { return r.Decide(agent, url).Allowed }

// CompareReadings is Compare over readings: when a fetch status decides
// under any profile, the verdicts come from the statuses and the
// explanation is the access methods' reading of the response.
func CompareReadings(rs []Reading, agent, url string) Comparison {
	fixedAny := false
	for _, r := range rs {
		if _, ok := r.Fixed(); ok {
			fixedAny = true
		}
	}
	if !fixedAny {
		pols := make([]*Policy, len(rs))
		for i, r := range rs {
			pols[i] = r.Policy
		}
		return Compare(pols, agent, url)
	}
	c := Comparison{Agent: agent, URL: url, Agree: true}
	for _, r := range rs {
		c.Verdicts = append(c.Verdicts, Verdict{Profile: r.Policy.Profile(), Decision: r.Decide(agent, url)})
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
func (r Reading) reason(d Decision) string {
	if _, ok := r.Fixed(); ok {
		return r.Fetched.Reason
	}
	return "parse the file: " + d.String()
}
