// Package treedump holds a test that pins what the grammar and package
// robots make of the whole shared corpus: for each of the 15,930 real
// robots.txt files, the grammar's records, its preamble and diagnostics,
// and under each robots profile the groups, rules and decisions for the
// URLs crawled on the same site (../shared/corpus/urls). The dump is
// hashed; testdata/dump.sha256 keeps the hash, so a change that is meant
// to leave behaviour unchanged (a new way of building the tree, a faster
// compiler) is checked on every real file, not a sample.
//
// It runs in the slow tier (go test -tags slow); -treedump.out FILE writes
// the dump itself, for diffing two versions (and runs it without the tag).
// It has no code outside its test.
package treedump
