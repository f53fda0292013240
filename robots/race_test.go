//go:build race

package robots

// raceEnabled is set under -race, where the corpus-wide tests take a
// sample: the race detector makes them ten times slower.
const raceEnabled = true
