package sitemap

import (
	"bytes"
	"encoding/binary"

	"github.com/sitetxt/sitetxt/grammar"
)

// The fast path. Nearly every entry of a real urlset or sitemap index is
// the same few bytes of markup: <url><loc>...</loc><lastmod>...</lastmod>
// ...</url>, plain ASCII text, no attribute, no comment. encoding/xml
// spends about a microsecond and 40 allocations on each (a token, a name,
// a copy of every text), which is most of the time a million-URL tree
// takes. So between two entries, where the Decoder has read exactly up to
// the end of a tag and holds nothing back, the parser looks at the bytes
// already buffered: when the next entry is complete there and of that
// simple form, it reads the entry itself (fastScan) and moves the input
// past it as if the Decoder had read it, its positions included. Anything
// else - an attribute, a prefix, a comment, a reference other than XML's
// five, a byte that is not printable ASCII, a CR in a value, an entry
// that is not all buffered yet - is left to the Decoder, so what an entry
// gives (values, diagnostics, positions) is the same either way: the
// fast path only takes the entries on which both would agree, and hands
// their values to the same code (childField's fieldOf, finish).

// fastChild is a child element of an entry the fast path read, by
// offsets in the buffered input (ints, not slices: storing them needs no
// write barrier): its '<' at, its name from at+1 to text-1, its raw text
// from text to end.
type fastChild struct {
	at, text, end int
}

func (k *fastChild) name(buf []byte) []byte { return buf[k.at+1 : k.text-1] }

// fastScan is an entry the fast path read, by offsets in the buffered
// input.
type fastScan struct {
	at   int // the entry's '<'
	end  int // its end tag's '<'
	n    int // the bytes it takes, through its end tag's '>'
	kids [8]fastChild
	nk   int
	flat bool // no line break from at to n: positions there are columns apart
}

// scan reads an entry named name at the start of buf (after white
// space), of the simple form only; false when buf does not start with a
// whole one.
func (s *fastScan) scan(buf []byte, name string) bool {
	i, _ := skipSpace(buf, 0)
	if !hasTag(buf, i, name) {
		return false
	}
	s.at, s.nk, s.flat = i, 0, true
	i += len(name) + 2
	for {
		var lf bool
		if i, lf = skipSpace(buf, i); lf {
			s.flat = false
		}
		if i+1 >= len(buf) || buf[i] != '<' {
			return false
		}
		if buf[i+1] == '/' {
			if !hasEndTag(buf, i, name) {
				return false
			}
			s.end, s.n = i, i+len(name)+3
			return true
		}
		j := i + 1
		if j < len(buf) && nameBytes[buf[j]]&nameStart != 0 {
			for j++; j < len(buf) && nameBytes[buf[j]] != 0; j++ {
			}
		}
		if j == i+1 || j >= len(buf) || buf[j] != '>' || s.nk == len(s.kids) {
			return false
		}
		name := buf[i+1 : j]
		j++
		t := bytes.IndexByte(buf[j:min(len(buf), j+maxValue+1)], '<')
		if t < 0 {
			return false
		}
		ok, lf := plainText(buf[j : j+t])
		if !ok {
			return false
		}
		s.flat = s.flat && !lf
		s.kids[s.nk] = fastChild{at: i, text: j, end: j + t}
		i = j + t
		if n := len(name); len(buf) < i+n+3 || buf[i] != '<' || buf[i+1] != '/' || string(buf[i+2:i+2+n]) != string(name) || buf[i+2+n] != '>' {
			return false
		}
		i += len(name) + 3
		s.nk++
	}
}

// skipSpace returns the index of the first byte from i on that is not
// white space, and whether it passed a line break.
func skipSpace(buf []byte, i int) (int, bool) {
	lf := false
	for ; i < len(buf); i++ {
		switch buf[i] {
		case ' ', '\t':
		case '\n', '\r':
			lf = true
		default:
			return i, lf
		}
	}
	return i, lf
}

// hasTag reports whether buf holds "<name>" at i.
func hasTag(buf []byte, i int, name string) bool {
	return len(buf) >= i+len(name)+2 && buf[i] == '<' && string(buf[i+1:i+1+len(name)]) == name && buf[i+1+len(name)] == '>'
}

// hasEndTag reports whether buf holds "</name>" at i.
func hasEndTag(buf []byte, i int, name string) bool {
	return len(buf) >= i+len(name)+3 && buf[i] == '<' && buf[i+1] == '/' && string(buf[i+2:i+2+len(name)]) == name && buf[i+2+len(name)] == '>'
}

// nameBytes says which bytes may start (nameStart) and continue
// (nameMore) an element name the fast path reads: ASCII, no prefix.
var nameBytes = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
			t[c] = nameStart | nameMore
		case c >= '0' && c <= '9', c == '-', c == '.':
			t[c] = nameMore
		}
	}
	return t
}()

const (
	nameStart = 1 << iota
	nameMore
)

// plainText reports whether the Decoder and the input layer would hand
// text on as it is but for XML's five entity references: printable ASCII,
// tab and LF (a CR becomes LF), no "]]>", and '&' only as one of the five;
// and whether it holds a line feed. It looks at eight bytes at a time
// until a word holds a byte that needs a closer look (below 0x20, above
// 0x7F, '&' or '>').
func plainText(text []byte) (ok, lf bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for i < len(text) {
		if i+8 <= len(text) {
			w := binary.LittleEndian.Uint64(text[i:])
			amp, gt := w^('&'*ones), w^('>'*ones)
			if (w-0x20*ones)&^w&highs == 0 && w&highs == 0 && (amp-ones)&^amp&highs == 0 && (gt-ones)&^gt&highs == 0 {
				i += 8
				continue
			}
		}
		for end := min(i+8, len(text)); i < end; i++ {
			switch c := text[i]; {
			case c >= 0x20 && c < 0x80 && c != '&' && c != '>':
			case c == '\t':
			case c == '\n':
				lf = true
			case c == '>':
				if i >= 2 && text[i-1] == ']' && text[i-2] == ']' {
					return false, lf
				}
			case c == '&':
				n, _ := predefinedRef(text[i:])
				if n == 0 {
					return false, lf
				}
				i += n - 1
			default:
				return false, lf
			}
		}
	}
	return true, lf
}

// predefinedRefs are XML's five entity references and what they stand for.
var predefinedRefs = [...]struct {
	ref string
	c   byte
}{{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}}

// predefinedRef returns the length of the predefined entity reference b
// starts with, or 0, and the byte it stands for.
func predefinedRef(b []byte) (int, byte) {
	for _, r := range predefinedRefs {
		if bytes.HasPrefix(b, []byte(r.ref)) {
			return len(r.ref), r.c
		}
	}
	return 0, 0
}

// appendText appends plain text (plainText's) to out with its entity
// references replaced.
func appendText(out, text []byte) []byte {
	for i := bytes.IndexByte(text, '&'); i >= 0; i = bytes.IndexByte(text, '&') {
		n, c := predefinedRef(text[i:])
		out = append(append(out, text[:i]...), c)
		text = text[i+n:]
	}
	return append(out, text...)
}

// posCursor turns offsets in buf, ascending, into positions, from the
// position of buf's first byte.
type posCursor struct {
	pos grammar.Pos
	cr  bool // the byte before pos was '\r'
	buf []byte
	i   int
}

func (c *posCursor) to(off int) grammar.Pos {
	seg := c.buf[c.i:off]
	c.i = off
	if len(seg) == 0 {
		return c.pos
	}
	if bytes.IndexByte(seg, '\r') >= 0 || (c.cr && seg[0] == '\n') {
		for _, b := range seg {
			c.pos, c.cr = nextPos(c.pos, c.cr, b)
		}
		return c.pos
	}
	c.pos.Offset += len(seg)
	c.cr = false
	if last := bytes.LastIndexByte(seg, '\n'); last >= 0 {
		c.pos.Line += bytes.Count(seg, []byte{'\n'})
		c.pos.Column = len(seg) - last
	} else {
		c.pos.Column += len(seg)
	}
	return c.pos
}

// fast reads the entries that follow, while each is buffered whole and
// simple (see above); false when reading stops (the URL limit, or the
// caller). The Decoder must have read exactly up to here.
func (p *xmlParser) fast(yield func(*Entry, error) bool) bool {
	in, r := p.in, p.r
	var s fastScan
	if !p.fastOK || r.opts.noFast || (r.format != URLSet && r.format != Index) || len(p.stack) != 1 || p.cur != nil {
		return true
	}
	for in.outI >= in.outN && in.err == nil && in.st == stText {
		buf, _ := in.src.Peek(in.src.Buffered())
		if room := in.max - int64(in.pos.Offset); int64(len(buf)) > room {
			buf = buf[:room]
		}
		if !s.scan(buf, entryName[r.format]) {
			return true
		}
		c := posCursor{pos: in.pos, cr: in.cr, buf: buf}
		at := c.to(s.at)
		pos := func(off int) grammar.Pos {
			if s.flat {
				return grammar.Pos{Offset: at.Offset + off - s.at, Line: at.Line, Column: at.Column + off - s.at}
			}
			return c.to(off)
		}
		if !p.begin(at, 2) {
			return false
		}
		for i := range s.nk {
			k := &s.kids[i]
			kat := pos(k.at)
			name := k.name(buf)
			f := fieldOf(r.format, name)
			switch {
			case f == fNone:
			case p.seen[f]:
				p.repeated(name, kat)
			default:
				p.seen[f], p.valPos[f] = true, kat
				p.spans[f][0] = int32(len(p.text))
				p.text = appendText(p.text, buf[k.text:k.end])
				p.spans[f][1] = int32(len(p.text))
			}
		}
		in.markPos = pos(s.end)
		in.pos = pos(s.n)
		in.cr, in.textPos = false, in.pos // the last byte is '>'
		in.tok, in.bad, in.quote = 0, false, 0
		in.prev = [2]byte{buf[s.n-2], buf[s.n-1]}
		in.src.Discard(s.n)
		r.fast++
		e := p.finish()
		p.cur = nil
		if e != nil && !r.emit(e, yield) {
			return false
		}
	}
	return true
}
