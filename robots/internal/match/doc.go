// Package match decides which of a crawler's robots.txt rules applies to
// a URL. A rule is a pattern (a path prefix, with '*' for any run of
// bytes and a final '$' for the end of the path under the profiles that
// read them) and a directive; a profile says how patterns and paths
// compare (their percent-encoding) and which matching rule decides (the
// longest, Allow winning a tie, or the first). robots compiles a file's
// rules and orders them; this package finds the first in that order that
// matches a path, in time that depends on the path rather than on how
// many rules there are (Index), and says what the answer must be in the
// plainest terms (Reference), the specification every speed structure
// is held to by the fuzzers.
package match
