//go:build race

package audit

// raceEnabled is set when the tests run with -race.
const raceEnabled = true
