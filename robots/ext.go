package robots

import (
	"encoding/binary"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sitetxt/sitetxt/grammar"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// Sitemap is a Sitemap line: file-wide, whatever group it stands in.
type Sitemap struct {
	URL  string // the value as written
	Line *grammar.Line
}

// CrawlDelay is a Crawl-delay line: seconds to wait between fetches.
type CrawlDelay struct {
	Delay time.Duration
	Line  *grammar.Line
}

// RequestRate is a Request-rate line: at most Requests fetches per Period
// ("1/5" is one fetch every five seconds; the period may end in s, m or h).
type RequestRate struct {
	Requests int
	Period   time.Duration
	Line     *grammar.Line
}

// VisitTime is a Visit-time line: the UTC hours in which to crawl,
// "0600-0845" (From and To are minutes after midnight; To may be less than
// From for a window across midnight).
type VisitTime struct {
	From, To int
	Line     *grammar.Line
}

// Host is a Host line (Yandex): the site's preferred host name, file-wide;
// the first valid one counts.
type Host struct {
	Host string // as written, e.g. "www.example.com" or "https://example.com:8443"
	Line *grammar.Line
}

// CleanParam is a Clean-param line (Yandex): query parameters that do not
// change a page, for URLs whose path starts with Path ("" for all).
type CleanParam struct {
	Params []string
	Path   string
	Line   *grammar.Line
}

// Sitemaps returns the file's Sitemap lines with a valid absolute URL, in
// file order.
func (pol *Policy) Sitemaps() []Sitemap { return pol.sitemaps }

// Host returns the file's first valid Host line, or nil.
func (pol *Policy) Host() *Host { return pol.host }

// CleanParams returns every valid Clean-param line of the file, in file
// order, whatever group it stands in.
func (pol *Policy) CleanParams() []*CleanParam { return pol.cleanParams }

// isSitemapField reports whether a field names a Sitemap line under p:
// Google's parser takes any field that starts with "sitemap" or
// "site-map".
func isSitemapField(p Profile, field string) bool {
	if p.desc().googleLines {
		return hasPrefixFold(field, "sitemap") || hasPrefixFold(field, "site-map")
	}
	return equalFoldASCII(field, "sitemap")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFoldASCII(s[:len(prefix)], prefix)
}

// extField is a field of the extension lines the compiler reads.
type extField uint8

const (
	fieldOther extField = iota
	fieldSitemap
	fieldCrawlDelay
	fieldRequestRate
	fieldVisitTime
	fieldHost
	fieldCleanParam
	fieldContentUsage
	fieldContentSignal
	fieldLicense
	fieldLLMPolicy
	nFields
)

// fieldNames holds each extField's name in lower case.
var fieldNames = [nFields]string{
	fieldSitemap: "sitemap", fieldCrawlDelay: "crawl-delay", fieldRequestRate: "request-rate",
	fieldVisitTime: "visit-time", fieldHost: "host", fieldCleanParam: "clean-param",
	fieldContentUsage: "content-usage", fieldContentSignal: "content-signal", fieldLicense: "license",
	fieldLLMPolicy: "llm-policy",
}

// extFieldOf returns the field named name under profile p, ignoring case as
// Line.FieldIs does (Unicode folding, so "ſ" is an "s"), except for
// Sitemap, which isSitemapField names. An ASCII name is told by its length
// and one byte, then compared once: one comparison for the line, not one
// per field.
func extFieldOf(p Profile, name string) extField {
	f := fieldOther
	switch len(name) {
	case 4:
		f = fieldHost
	case 7:
		f = fieldLicense
		if name[0]|0x20 == 's' {
			f = fieldSitemap
		}
	case 10:
		f = fieldVisitTime
		if name[0]|0x20 == 'l' {
			f = fieldLLMPolicy
		}
	case 11:
		f = fieldCleanParam
		if name[1]|0x20 == 'r' {
			f = fieldCrawlDelay
		}
	case 12:
		f = fieldRequestRate
	case 13:
		f = fieldContentUsage
	case 14:
		f = fieldContentSignal
	}
	switch {
	case f != fieldOther && equalFoldASCII(name, fieldNames[f]):
		return f
	case isSitemapField(p, name):
		return fieldSitemap
	}
	// Only Unicode folding can match a name with a byte outside ASCII, the
	// rare one: a letter folds to an ASCII one from at most three bytes
	// ("\u212a" is a "k"), so a longer name matches none.
	if len(name) <= 3*len("content-signal") && !isASCII(name) {
		for f := fieldCrawlDelay; f < nFields; f++ {
			if strings.EqualFold(name, fieldNames[f]) {
				return f
			}
		}
	}
	return fieldOther
}

// isASCII reports whether s has no byte outside ASCII, testing eight
// bytes at a time.
func isASCII(s string) bool {
	b := match.BytesOf(s)
	for ; len(b) >= 8; b = b[8:] {
		if binary.LittleEndian.Uint64(b)&hi8 != 0 {
			return false
		}
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// extension reads a line that is neither User-agent nor a rule under the
// profile, into g (nil before the first group).
func (c *compiler) extension(g *Group, l *grammar.Line) {
	if l.Kind != grammar.Extension && !(l.Kind.IsRule() || l.Kind == grammar.AgentLine) {
		return
	}
	if l.NoColon && !c.desc.googleLines {
		return
	}
	v := l.Value
	switch f := extFieldOf(c.pol.profile, l.Field); f {
	case fieldContentUsage, fieldContentSignal, fieldLicense, fieldLLMPolicy:
		if l.Kind == grammar.Extension && !l.NoColon {
			c.usageLine(g, l, f)
		}
	case fieldSitemap:
		if err := checkAbsURL(v); err != nil {
			c.diag(l, grammar.Error, "sitemap-url", fmt.Sprintf("Sitemap value %q is not an absolute URL: %v", v, err))
			return
		}
		if c.pol.sitemaps == nil {
			c.pol.sitemaps = make([]Sitemap, 0, max(c.extLeft, 1))
		}
		c.pol.sitemaps = append(c.pol.sitemaps, Sitemap{URL: v, Line: l})
	case fieldCrawlDelay:
		d, err := parseCrawlDelay(v)
		if err != nil {
			c.diag(l, grammar.Error, "crawl-delay", fmt.Sprintf("Crawl-delay value %q %v", v, err))
			return
		}
		if g != nil && g.CrawlDelay == nil {
			g.CrawlDelay = &CrawlDelay{Delay: d, Line: l}
		}
	case fieldRequestRate:
		n, per, err := parseRequestRate(v)
		if err != nil {
			c.diag(l, grammar.Error, "request-rate", fmt.Sprintf("Request-rate value %q %v", v, err))
			return
		}
		if g != nil && g.RequestRate == nil {
			g.RequestRate = &RequestRate{Requests: n, Period: per, Line: l}
		}
	case fieldVisitTime:
		from, to, err := parseVisitTime(v)
		if err != nil {
			c.diag(l, grammar.Error, "visit-time", fmt.Sprintf("Visit-time value %q %v", v, err))
			return
		}
		if g != nil && g.VisitTime == nil {
			g.VisitTime = &VisitTime{From: from, To: to, Line: l}
		}
	case fieldHost:
		if err := checkHost(v); err != nil {
			c.diag(l, grammar.Error, "host", fmt.Sprintf("Host value %q %v", v, err))
			return
		}
		if c.pol.host == nil {
			c.pol.host = &Host{Host: v, Line: l}
		}
	case fieldCleanParam:
		cp, err := parseCleanParam(v)
		if err != nil {
			c.diag(l, grammar.Error, "clean-param", fmt.Sprintf("Clean-param value %q %v", v, err))
			return
		}
		cp.Line = l
		c.pol.cleanParams = append(c.pol.cleanParams, cp)
		if g != nil {
			g.CleanParams = append(g.CleanParams, cp)
		}
	}
}

func (c *compiler) diag(l *grammar.Line, sev grammar.Severity, code, summary string) {
	c.pol.diags = append(c.pol.diags, &grammar.Diagnostic{
		Severity: sev, Code: code, Summary: summary, Filename: c.file.Name,
		Range: grammar.Range{Start: l.ValuePos(), End: l.End()},
	})
}

// checkAbsURL checks that v is an absolute URL with a host, by hand
// (url.Parse costs more than the rest of a Sitemap line): a scheme before
// the first ':', "//" after it and a host, no white space or control
// character.
func checkAbsURL(v string) error {
	if v == "" {
		return fmt.Errorf("empty")
	}
	i := strings.IndexByte(v, ':') // a scheme holds no ':': "://" must follow the first
	if i <= 0 || !strings.HasPrefix(v[i:], "://") || !isScheme(v[:i]) {
		return fmt.Errorf("missing scheme")
	}
	if h := v[i+3:]; h == "" || h[0] == '/' || h[0] == '?' || h[0] == '#' {
		return fmt.Errorf("missing host")
	}
	if k := indexSpaceOrControl(v); k >= 0 {
		return fmt.Errorf("white space or control character at byte %d", k+1)
	}
	return nil
}

// indexSpaceOrControl returns the index of the first byte of s that is
// white space or a control character (at most ' ', or DEL), or -1. It
// skips eight bytes at a time while none of them is one.
func indexSpaceOrControl(s string) int {
	const del, below = 0x7F7F7F7F7F7F7F7F, 0x2121212121212121
	b := match.BytesOf(s)
	for ; len(b) >= 8; b = b[8:] {
		w := binary.LittleEndian.Uint64(b)
		x := w ^ del // a zero byte where s has DEL; (w-below)&^w has a high bit set when a byte is below '!'
		if ((w-below)&^w|(x-lo8)&^x)&hi8 != 0 {
			break // the loop below finds which byte
		}
	}
	for i := len(s) - len(b); i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f {
			return i
		}
	}
	return -1
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

func unwrapURL(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// parseCrawlDelay reads a number of seconds, fractions allowed.
func parseCrawlDelay(v string) (time.Duration, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("is not a number of seconds")
	}
	if f < 0 {
		return 0, fmt.Errorf("is negative")
	}
	if f > 1e9 {
		return 0, fmt.Errorf("is too large")
	}
	return time.Duration(f * float64(time.Second)), nil
}

// parseRequestRate reads "n/period[unit]", optionally followed by a
// visit-time window, which is ignored here.
func parseRequestRate(v string) (int, time.Duration, error) {
	if i := strings.IndexAny(v, " \t"); i >= 0 {
		v = v[:i]
	}
	num, per, ok := strings.Cut(v, "/")
	if !ok {
		return 0, 0, fmt.Errorf("is not requests/period")
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return 0, 0, fmt.Errorf("has a bad request count")
	}
	unit := time.Second
	if per != "" {
		switch per[len(per)-1] {
		case 's', 'S':
			per = per[:len(per)-1]
		case 'm', 'M':
			unit, per = time.Minute, per[:len(per)-1]
		case 'h', 'H':
			unit, per = time.Hour, per[:len(per)-1]
		}
	}
	m, err := strconv.Atoi(per)
	if err != nil || m <= 0 || m > 1e6 {
		return 0, 0, fmt.Errorf("has a bad period")
	}
	return n, time.Duration(m) * unit, nil
}

// parseVisitTime reads "HHMM-HHMM" (or "HH:MM-HH:MM").
func parseVisitTime(v string) (int, int, error) {
	a, b, ok := strings.Cut(strings.ReplaceAll(v, " ", ""), "-")
	if !ok {
		return 0, 0, fmt.Errorf("is not HHMM-HHMM")
	}
	from, ok1 := hhmm(a)
	to, ok2 := hhmm(b)
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("is not HHMM-HHMM")
	}
	return from, to, nil
}

func hhmm(s string) (int, bool) {
	s = strings.Replace(s, ":", "", 1)
	if len(s) != 4 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n/100 > 23 || n%100 > 59 {
		return 0, false
	}
	return n/100*60 + n%100, true
}

func checkHost(v string) error {
	if v == "" {
		return fmt.Errorf("is empty")
	}
	s := v
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("is not a host name: %v", unwrapURL(err))
	}
	if u.Host == "" || u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return fmt.Errorf("is not a host name")
	}
	return nil
}

func parseCleanParam(v string) (*CleanParam, error) {
	fields := strings.Fields(v)
	if len(fields) == 0 || len(fields) > 2 {
		return nil, fmt.Errorf("is not \"param[&param...] [path]\"")
	}
	cp := &CleanParam{}
	for _, p := range strings.Split(fields[0], "&") {
		if p == "" {
			return nil, fmt.Errorf("has an empty parameter name")
		}
		cp.Params = append(cp.Params, p)
	}
	if len(fields) == 2 {
		cp.Path = fields[1]
	}
	return cp, nil
}

// lo8 and hi8 have the low and the high bit of each of a word's eight
// bytes set: the word-at-a-time tests' constants.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)
