package grammar

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options sets the parser's limits. The zero value means the defaults.
type Options struct {
	// MaxSize is how many bytes of input are parsed; the rest is kept in
	// File.Ignored with a diagnostic. 0 means DefaultMaxSize; a negative
	// value means no limit.
	MaxSize int
	// MaxLineLength is how many bytes of a line are split into field, value
	// and comment; the rest stays in Line.Raw, with a diagnostic. 0 means
	// DefaultMaxLineLength; a negative value means no limit.
	MaxLineLength int
	// MaxLines is how many lines are parsed; the rest is kept in
	// File.Ignored with a diagnostic. It bounds memory where MaxSize is
	// raised: each line costs about 100 bytes however short it is. 0 means
	// DefaultMaxLines; a negative value means no limit.
	MaxLines int
}

// The default limits.
const (
	// DefaultMaxSize is 500 KiB, the least RFC 9309 section 2.5 lets a
	// crawler parse.
	DefaultMaxSize = 500 << 10
	// DefaultMaxLineLength is the longest line Google's parser reads whole
	// (its buffer of 2083*8 bytes less the final NUL).
	DefaultMaxLineLength = 2083*8 - 1
	// DefaultMaxLines is the most lines DefaultMaxSize bytes can hold, so
	// it only binds when MaxSize is raised.
	DefaultMaxLines = DefaultMaxSize + 1
)

func (o Options) maxSize() int {
	if o.MaxSize == 0 {
		return DefaultMaxSize
	}
	return o.MaxSize
}

func (o Options) maxLines() int {
	if o.MaxLines == 0 {
		return DefaultMaxLines
	}
	return o.MaxLines
}

func (o Options) maxLineLength() int {
	if o.MaxLineLength == 0 {
		return DefaultMaxLineLength
	}
	return o.MaxLineLength
}

// scanner splits input into classified lines: the first half of the
// grammar's lexer, which decides each line's Kind, parts and class;
// lineLexer hands the classes to participle, a token per run.
type scanner struct {
	name  string
	src   string
	opts  Options
	lines []*Line
	diags Diagnostics
	html  bool
	// counts counts the diagnostics of each code.
	counts map[string]int
	// stop is where scanning stopped at the line limit, or -1.
	stop int
	// first is the empty store scan fills first, and firstPtrs the list
	// of its lines' pointers; scan makes them when they are nil.
	first     []Line
	firstPtrs []*Line
}

// maxPerCode is how many diagnostics of one code a parse reports; past it
// they are counted, and one more diagnostic says how many were left out, so
// a megabyte of binary junk yields a readable report in bounded memory.
const maxPerCode = 1000

func (s *scanner) diag(sev Severity, code string, r Range, summary string) {
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[code]++
	if s.counts[code] > maxPerCode {
		return
	}
	s.diags = append(s.diags, &Diagnostic{Severity: sev, Code: code, Summary: summary, Filename: s.name, Range: r})
}

// summarize adds one diagnostic for each code that went past maxPerCode.
func (s *scanner) summarize() {
	for code, n := range s.counts {
		if n <= maxPerCode {
			continue
		}
		var last *Diagnostic
		for _, d := range s.diags {
			if d.Code == code {
				last = d
			}
		}
		s.diags = append(s.diags, leftOut(last, n-maxPerCode))
	}
}

// BOMLen returns how many bytes at the start of src are a whole (EF BB BF)
// or partial UTF-8 byte-order mark, which Parse skips as Google's parser
// does.
func BOMLen(src string) int {
	const bom = "\xEF\xBB\xBF"
	n := 0
	for n < len(bom) && n < len(src) && src[n] == bom[n] {
		n++
	}
	return n
}

// scan splits s.src from offset start into lines.
func (s *scanner) scan(start int) {
	src := s.src
	maxLines := s.opts.maxLines()
	store := s.first
	if store == nil {
		s.reserve(lineCount(src[start:], maxLines, 0))
		store = s.first
	}
	s.lines = s.firstPtrs
	lineNo := 1
	maxLine := s.opts.maxLineLength()
	s.stop = -1
	// nl, cr and hs are the next '\n', '\r' and '#' at or after i
	// (len(src) for none), and sp the next NUL or non-ASCII byte, each
	// searched for again only once passed: every byte is searched at most
	// four times whatever the line ends, an ASCII file once for sp in all,
	// and a file with few comments about once for '#'.
	nl, cr, hs, sp := -1, -1, -1, -1
	for i := start; i < len(src); {
		if len(s.lines) == maxLines {
			s.stop = i
			break
		}
		if nl < i {
			nl = indexFrom(src, i, '\n')
		}
		if cr < i {
			cr = indexFrom(src, i, '\r')
		}
		j := min(nl, cr)
		eol := eolNone
		next := j
		if j < len(src) {
			if src[j] == '\r' && j+1 < len(src) && src[j+1] == '\n' {
				eol, next = eolCRLF, j+2
			} else if src[j] == '\r' {
				eol, next = eolCR, j+1
			} else {
				eol, next = eolLF, j+1
			}
		}
		if sp < i {
			if sp = nulOrHigh(src[i:]); sp >= 0 {
				sp += i
			} else {
				sp = len(src)
			}
		}
		special, hash := -1, -1
		if sp < j {
			special = sp - i
		}
		if hs < i {
			hs = indexFrom(src, i, '#')
		}
		if hs < j {
			hash = hs - i
		}
		if len(store) == cap(store) {
			// A CR line end among LF ones: the lines' pointers keep them
			// where they are, so a store is never grown.
			store = make([]Line, 0, lineCount(src[i:], maxLines, len(s.lines)))
			s.lines = slices.Grow(s.lines, cap(store))
		}
		store = store[:len(store)+1] // zeroed when the store was made
		l := &store[len(store)-1]
		l.Pos, l.Raw, l.eol = Pos{Offset: i, Line: lineNo, Column: 1}, src[i:j], eol
		s.lines = append(s.lines, l)
		s.split(l, maxLine, special, hash)
		l.class = uint8(classOf(l))
		lineNo++
		i = next
	}
}

// reserve makes the store of n lines and the list of their pointers,
// which scan fills (parse gives small files the room in their File's slab
// instead).
func (s *scanner) reserve(n int) {
	s.first, s.firstPtrs = make([]Line, 0, n), make([]*Line, 0, n)
}

// lineCount returns how many Lines to store for rest, the input from
// where a line starts to its end, when made lines are already stored.
// Lines end at LF, CR and CRLF: the first store counts LF only (one fast
// count; a CRLF file's lines exactly), and when a CR line end fills it,
// the next one takes the rest of the lines at most, counting LF and CR
// apart, so that no line costs more than two Lines of store. No line
// follows the last line end; at most maxLines are stored.
func lineCount(rest string, maxLines, made int) int {
	n := strings.Count(rest, "\n")
	if made > 0 {
		n += strings.Count(rest, "\r")
	}
	if last := len(rest) - 1; last >= 0 && rest[last] != '\n' && rest[last] != '\r' {
		n++
	}
	if n == 0 && rest != "" {
		n = 1 // CR line ends only: the next store counts them
	}
	if maxLines >= 0 && n > maxLines-made {
		n = maxLines - made
	}
	return n
}

// indexFrom returns the index of the first c in src at or after i, or
// len(src).
func indexFrom(src string, i int, c byte) int {
	if k := strings.IndexByte(src[i:], c); k >= 0 {
		return i + k
	}
	return len(src)
}

// space is the white space around fields and values: space and tab, as
// RFC 9309's ABNF (WS = SP / HTAB) and the drafts' BNF (space = 1*(SP |
// HT)) define it. Vertical tab, form feed and other control bytes are
// part of the field or value they stand in; a reader that follows
// Google's parser reads them as it does.
const space = " \t"

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// hasSpace reports whether s holds white space (strings.ContainsAny(s,
// space) without building its byte set on every call).
func hasSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) {
			return true
		}
	}
	return false
}

// split fills in the line's kind, field, value and comment; special is
// the index in the line of its first NUL or non-ASCII byte, and hash of
// its first '#', or -1.
func (s *scanner) split(l *Line, maxLine, special, hash int) {
	text := l.Raw
	l.fieldCol, l.valueCol, l.commentCol = -1, -1, -1
	if maxLine >= 0 && len(text) > maxLine {
		text = text[:maxLine]
		l.TooLong = true
		s.diag(Warning, CodeLineTooLong, Range{l.at(int32(maxLine)), l.End()},
			"line is longer than "+strconv.Itoa(maxLine)+" bytes; the rest of it is ignored")
	}
	if k := special; k >= 0 && k < len(text) {
		if text[k] == 0 {
			p := l.at(int32(k))
			s.diag(Warning, CodeNUL, Range{p, p}, "NUL byte in line")
		} else if !utf8.ValidString(text[k:]) {
			s.diag(Warning, CodeUTF8, Range{l.Pos, l.End()}, "line is not valid UTF-8")
		}
	}
	body := text
	if h := hash; h >= 0 && h < len(text) {
		l.commentCol, l.commentEnd = int32(h), int32(len(text))
		body = text[:h]
	}
	// Trim white space around the body.
	b0, b1 := 0, len(body)
	for b0 < b1 && isSpace(body[b0]) {
		b0++
	}
	for b1 > b0 && isSpace(body[b1-1]) {
		b1--
	}
	if b0 == b1 {
		if l.commentCol >= 0 {
			l.Kind = CommentLine
		} else {
			l.Kind = Blank
		}
		return
	}
	var f0, f1, v0, v1 int // field and value bounds in text
	if c := strings.IndexByte(body[b0:b1], ':'); c >= 0 {
		c += b0
		f0, f1 = b0, c
		for f1 > f0 && isSpace(body[f1-1]) {
			f1--
		}
		v0, v1 = c+1, b1
		for v0 < len(body) && isSpace(body[v0]) {
			v0++
		}
		if v0 > v1 {
			v1 = v0 // an empty value starts after the white space
		}
	} else {
		// No colon: Google takes exactly two words as field and value.
		w := b0
		for w < b1 && !isSpace(body[w]) {
			w++
		}
		v := w
		for v < b1 && isSpace(body[v]) {
			v++
		}
		if w == b1 || hasSpace(body[v:b1]) {
			l.Kind = Invalid
			if !s.html {
				s.diag(Warning, CodeInvalidLine, Range{l.at(int32(b0)), l.at(int32(b1))}, `line is not a "field: value" line`)
			}
			return
		}
		f0, f1, v0, v1 = b0, w, v, b1
		l.NoColon = true
	}
	if f0 == f1 {
		l.Kind = Invalid
		if !s.html {
			s.diag(Warning, CodeInvalidLine, Range{l.at(int32(b0)), l.at(int32(b1))}, `line has no field name before ":"`)
		}
		return
	}
	l.Field, l.fieldCol = body[f0:f1], int32(f0)
	l.Value, l.valueCol = body[v0:v1], int32(v0)
	l.Kind, l.Typo = classify(l.Field)
	if l.NoColon && !s.html {
		s.diag(Warning, CodeNoColon, Range{l.FieldPos(), l.at(int32(f1))}, `missing ":" after field "`+l.Field+`"`)
	}
}

// nulOrHigh returns the index of the first NUL byte or byte above 0x7F in
// s, or -1. It tests eight bytes at a time: a word holds one when a byte
// has its high bit set, or when subtracting 1 from every byte borrows
// through a zero byte (which can flag bytes after a real zero byte, never
// a word without one); the bytes of that word are then tested one by one.
func nulOrHigh(s string) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+32 <= len(s); i += 32 { // four words at a time, then one
		w0 := load64(s, i)
		w1 := load64(s, i+8)
		w2 := load64(s, i+16)
		w3 := load64(s, i+24)
		if (w0|(w0-lo)&^w0|w1|(w1-lo)&^w1|w2|(w2-lo)&^w2|w3|(w3-lo)&^w3)&hi != 0 {
			break
		}
	}
	for ; i+8 <= len(s); i += 8 {
		w := load64(s, i)
		if (w|(w-lo)&^w)&hi != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == 0 || c >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}

// load64 returns the eight bytes of s at i, little-endian: eight byte
// loads after one bounds check, which the compiler makes one load.
func load64(s string, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// The spellings Google's parser takes for each field besides its own; a
// field name that starts with one of them counts (RFC 9309 section 2.2
// allows crawlers to be lenient about this).
var (
	agentSpellings    = []string{"user-agent", "useragent", "user agent"}
	allowSpellings    = []string{"allow"}
	disallowSpellings = []string{"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}
)

// Classify returns the kind of a field line from its field name, and
// whether the name is a misspelling or prefix of the BNF's spelling
// (Line.Typo): the User-agent, Allow and Disallow spellings Google's
// parser accepts count, by prefix and case-insensitively; any other name
// is an Extension ("Mobile-agent-server" a MobileAgentRec).
func Classify(field string) (Kind, bool) { return classify(field) }

func classify(field string) (Kind, bool) {
	switch field { // the spellings nearly every file uses, first
	case "Disallow", "disallow":
		return DisallowLine, false
	case "Allow", "allow":
		return AllowLine, false
	case "User-agent", "User-Agent", "user-agent":
		return AgentLine, false
	}
	if len(field) < 5 {
		return Extension, false
	}
	switch field[0] | 0x20 {
	case 'u':
		if k, ok := match(field, agentSpellings, AgentLine); ok {
			return k, !strings.EqualFold(field, "user-agent")
		}
	case 'a':
		if k, ok := match(field, allowSpellings, AllowLine); ok {
			return k, len(field) != len("allow")
		}
	case 'd':
		if k, ok := match(field, disallowSpellings, DisallowLine); ok {
			return k, !strings.EqualFold(field, "disallow")
		}
	case 'm':
		if strings.EqualFold(field, "mobile-agent-server") {
			return MobileAgentRec, false
		}
	}
	return Extension, false
}

func match(field string, spellings []string, k Kind) (Kind, bool) {
	for _, sp := range spellings {
		if len(field) >= len(sp) && strings.EqualFold(field[:len(sp)], sp) {
			return k, true
		}
	}
	return Extension, false
}

// markup looks for an HTML or XML document in the first 4 KiB of src and
// returns the offset of its tag and which it is.
func markup(src string) (int, string) {
	head := src
	if len(head) > 4096 {
		head = head[:4096]
	}
	if strings.IndexByte(head, '<') < 0 {
		return -1, ""
	}
	if nulOrHigh(head) >= 0 {
		if !tagCandidate(head) {
			return -1, ""
		}
		if !lowerKeepsOffsets(head) {
			return markupUnicode(head)
		}
	}
	for _, t := range markupTags {
		if i := indexTag(head, t.tag); i >= 0 {
			return i, t.what
		}
	}
	return -1, ""
}

// markupTags are the tags markup looks for, in order.
var markupTags = []struct{ tag, what string }{
	{"<!doctype html", "HTML"}, {"<html", "HTML"}, {"<head", "HTML"}, {"<body", "HTML"},
	{"<?xml", "XML"}, {"<urlset", "XML"}, {"<sitemapindex", "XML"},
}

// indexTag returns the index of the first occurrence of tag (lower case,
// starting with '<') in the ASCII text head, ignoring case, or -1.
func indexTag(head, tag string) int {
	for i := 0; ; {
		j := strings.IndexByte(head[i:], '<')
		if j < 0 {
			return -1
		}
		i += j
		if len(head)-i < len(tag) {
			return -1
		}
		if strings.EqualFold(head[i:i+len(tag)], tag) {
			return i
		}
		i++
	}
}

// tagCandidate reports whether head, lowered as Unicode lowers it, may
// hold one of markupTags: whether a '<' in it starts one ignoring ASCII
// case, or is followed within a tag's length by a byte above 0x7F. Only
// ASCII letters lower to ASCII letters, but for "İ" and the Kelvin sign
// (TestLowerToASCII checks it), so a tag can come from nothing else.
func tagCandidate(head string) bool {
	for i := 0; ; i++ {
		j := strings.IndexByte(head[i:], '<')
		if j < 0 {
			return false
		}
		i += j
		for _, t := range markupTags {
			w := head[i:min(i+len(t.tag), len(head))]
			if strings.EqualFold(w, t.tag) || nulOrHigh(w) >= 0 && len(w) == len(t.tag) {
				return true
			}
		}
	}
}

// lowerKeepsOffsets reports whether lowering head as Unicode does
// (bytes.ToLower) keeps every byte where it is: head is valid UTF-8 (an
// invalid byte lowers to the 3-byte U+FFFD) and every rune above 0x7F
// lowers to a rune of its own length (so never to ASCII: "İ" and the
// Kelvin sign do not qualify). Then a tag is in the lowered head where
// ASCII letters alone, ignoring case, spell it in head itself.
func lowerKeepsOffsets(head string) bool {
	for i := max(nulOrHigh(head), 0); i < len(head); i++ {
		if head[i] < utf8.RuneSelf {
			continue
		}
		r, n := utf8.DecodeRuneInString(head[i:])
		if r == utf8.RuneError && n == 1 || utf8.RuneLen(unicode.ToLower(r)) != n {
			return false
		}
		i += n - 1
	}
	return true
}

// markupUnicode is markup for a head that is not all ASCII: it searches
// the head lowered as Unicode lowers it (where "İ" is "i"), and returns
// offsets in the lowered text, as markup always has.
func markupUnicode(head string) (int, string) {
	lower := bytes.ToLower([]byte(head))
	for _, t := range markupTags {
		if i := bytes.Index(lower, []byte(t.tag)); i >= 0 {
			return i, t.what
		}
	}
	return -1, ""
}
