package cli

import (
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

// access is what one robots.txt profile makes of a source: the compiled
// file, unless the source was fetched and the response's status decides
// every URL (a 404 allows all, a 5xx disallows all, ...): robots.Reading,
// with the profile and the file as it read them.
type access struct {
	robots.Reading
	prof robots.Profile
	file *grammar.File // the file as this profile reads it
}

// fixed returns the decision the fetch status of src makes for every URL
// (allow all, disallow all, defer), and whether it makes one: not for a
// file to parse, nor for a source that was not fetched.
func (s *source) fixed() (robots.Decision, bool) { return robots.Reading{Fetched: s.fetched}.Fixed() }

// parseFor parses src as profile reads it (robots.Profile.MaxSize): google
// reads the whole file (Google's parser has no size limit; the grammar's
// line limit, all the lines 500 KiB can hold, still bounds memory), the
// others their first 500 KiB.
func parseFor(src *source, prof robots.Profile) *grammar.File {
	return src.parse(prof.ParseOptions())
}

// accessFor compiles src under each named profile. For a fetched source,
// each profile's own access method reads the one response.
func accessFor(ff *fetchFlags, src *source, names []string) ([]*access, error) {
	if len(names) == 0 {
		return nil, usageError("no profile given")
	}
	var (
		parsed = map[int]*grammar.File{} // by how much of src a profile reads (-1: all)
		out    []*access
	)
	for _, n := range names {
		p, err := robots.ParseProfile(n)
		if err != nil {
			return nil, usageError("%v", err)
		}
		a := &access{prof: p}
		if src.fetched != nil {
			if a.Fetched, err = ff.interpretAs(src, p.String()); err != nil {
				return nil, err
			}
		}
		reads := p.MaxSize()
		if reads < 0 || reads >= len(src.data) {
			reads = -1
		}
		if parsed[reads] == nil {
			parsed[reads] = parseFor(src, p)
		}
		a.file = parsed[reads]
		a.Policy = robots.Compile(a.file, p)
		out = append(out, a)
	}
	return out, nil
}

// compareAccess is robots.CompareReadings over accesses.
func compareAccess(as []*access, agent, url string) robots.Comparison {
	rs := make([]robots.Reading, len(as))
	for i, a := range as {
		rs[i] = a.Reading
	}
	return robots.CompareReadings(rs, agent, url)
}
