package shareddata

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"
)

// PeerCase is one check of peer-suites/cases.json: an allow/disallow
// assertion from another robots.txt parser's own test suite, under the
// sitetxt profile closest to that parser (peer-suites/README.md).
type PeerCase struct {
	ID       string            `json:"id"`
	Source   string            `json:"source"`
	Robots   string            `json:"robots"` // the file, decoded from robots_b64 where the JSON has it
	Agent    string            `json:"agent"`
	URL      string            `json:"url"`
	Expected bool              `json:"expected"`
	Profile  string            `json:"profile"`
	Triage   map[string]string `json:"triage"`

	RobotsB64 string `json:"robots_b64"`
}

// PeerCases reads the peer-suite checks, or skips t saying they are
// absent. The robots.txt of each is decoded (two are UTF-16 bodies given
// in base64).
func PeerCases(t testing.TB) []PeerCase {
	t.Helper()
	data, err := os.ReadFile(Require(t, "peer-suites", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []PeerCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if c.RobotsB64 != "" {
			b, err := base64.StdEncoding.DecodeString(c.RobotsB64)
			if err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			cases[i].Robots = string(b)
		}
	}
	return cases
}
