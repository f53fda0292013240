//go:build race

package grammar

// raceEnabled is set under -race, where sync.Pool drops a part of what
// is put in it on purpose, so that a parse's reused token stream
// (tokenBuf) is now and then made again: the allocation counts vary.
const raceEnabled = true
