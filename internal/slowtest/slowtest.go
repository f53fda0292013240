// Package slowtest says which test tier a build is. sitetxt's tests come in
// two tiers, and the build tag slow is the only thing that tells them apart:
//
//	go test -race ./...            the default tier (the README's command, CI's first step)
//	go test -tags slow ./...       the slow tier (CI's second step, without -race)
//
// The slow tier runs every test, the default ones included, and adds the
// load, hostile-input, fleet and whole-corpus tests: a test that belongs
// only there starts with Only(t, why), and a corpus test that checks a
// sample in the default tier asks On for the whole (shareddata.Sample does).
// No environment variable and no -run pattern selects a tier.
//
// CI keeps both tiers' go test -json logs and fails when a test is skipped
// in both (internal/testlog): a test that never runs is reported, not
// forgotten.
package slowtest

import "testing"

// On reports whether the tests were built with -tags slow, the slow tier.
const On = on

// Only skips t unless the slow tier runs, saying why the test waits for it
// (what it costs: "reads 64 MiB", "1,000 sites under load").
func Only(t testing.TB, why string) {
	t.Helper()
	if !On {
		t.Skipf("slow tier (%s): runs with go test -tags slow, CI's second step", why)
	}
}
