package sitemap

import (
	"bufio"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/grammar"
)

// xmlInput is the byte stream encoding/xml's Decoder reads: the sitemap's
// bytes, with what the Decoder cannot be trusted with taken care of first.
// It implements io.ByteReader, so the Decoder reads it a byte at a time
// without a buffer of its own, and its state always matches the
// Decoder's. It follows the XML lexical structure just far enough to
//
//   - keep the position (line, column in bytes, offset) of every byte of
//     the file as written, so diagnostics point into the original file
//     even where the stream the Decoder sees was rewritten;
//   - bound every token: the Decoder keeps a whole text run, tag, comment
//     or declaration in memory, so one 50 MB comment would cost 50 MB (and
//     more as its buffer doubles); past maxToken bytes the stream ends with
//     errTokenTooLong;
//   - bound the file: past max bytes it ends with errTooLarge;
//   - neutralise references: an "&" that does not start one of XML's five
//     predefined entity references or a valid character reference is
//     handed on as "&amp;", so an unescaped "&" in a URL reads as itself,
//     and an entity a DOCTYPE declares ("&lol9;", an external "&xxe;") is
//     never expanded or resolved: it is an error, counted in ents, and the
//     parser does not read the value that holds it;
//   - replace bytes that are not UTF-8 and characters XML forbids (C0
//     controls but tab, CR and LF; U+FFFE, U+FFFF) with U+FFFD, which the
//     Decoder would otherwise stop at.
//
// Each rewrite is reported (report caps the number per code).
type xmlInput struct {
	src    *bufio.Reader
	pos    grammar.Pos // position of the next byte of src
	cr     bool        // the last byte read was '\r'
	max    int64
	maxTok int
	report func(sev grammar.Severity, code string, at grammar.Pos, msg string)

	st    lexState
	quote byte // the quote an attribute value (or a quoted declaration part) is in, or 0
	depth int  // '<' nesting inside a declaration
	skip  int  // bytes of a "!--" to pass before a declaration's comment starts
	prev  [2]byte
	tok   int // bytes in the current token
	bad   bool

	out  [8]byte // bytes to hand out before reading src again
	outN int
	outI int
	err  error

	markPos grammar.Pos // where the last markup token ('<') started
	textPos grammar.Pos // where the text after the last markup token started
	ents    int         // entity references not expanded since the parser last looked
}

type lexState uint8

const (
	stText        lexState = iota
	stTag                  // <name ...>, </name>
	stComment              // <!-- ... -->
	stCDATA                // <![CDATA[ ... ]]>
	stPI                   // <? ... ?>
	stDecl                 // <!DOCTYPE ...>, <!ENTITY ...>
	stDeclComment          // a comment inside a declaration
)

var (
	errTooLarge      = errors.New("sitemap: larger than the size limit")
	errRawTooLarge   = errors.New("sitemap: larger than the size limit as it arrived")
	errTokenTooLong  = errors.New("sitemap: token longer than the limit")
	replacementBytes = []byte("\uFFFD")
)

// maxToken bounds one XML token (a text run, tag, comment, CDATA section
// or declaration): 1 MiB is 500 times the longest loc the protocol allows.
const maxToken = 1 << 20

// errPos is where to report a syntax error the Decoder found: the start
// of the markup it was reading (or had just read), else the next byte.
func (in *xmlInput) errPos() grammar.Pos {
	if in.st != stText || in.tok == 0 {
		return in.markPos
	}
	return in.pos
}

func (in *xmlInput) emit(b ...byte) {
	in.outN = copy(in.out[:], b)
	in.outI = 0
}

// advance moves the position past byte c of the file.
func (in *xmlInput) advance(c byte) {
	in.pos, in.cr = nextPos(in.pos, in.cr, c)
}

// nextPos returns the position after byte c at pos, and whether c is a
// CR; cr says whether the byte before c was one (CRLF is one line break).
func nextPos(pos grammar.Pos, cr bool, c byte) (grammar.Pos, bool) {
	pos.Offset++
	switch {
	case c == '\n' && cr:
		pos.Column = 1
	case c == '\n' || c == '\r':
		pos.Line++
		pos.Column = 1
	default:
		pos.Column++
	}
	return pos, c == '\r'
}

// Read makes xmlInput an io.Reader too (the Decoder's CharsetReader hands
// it on); the Decoder itself calls ReadByte.
func (in *xmlInput) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		b, err := in.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		p[n] = b
		n++
		if in.outI >= in.outN && in.src.Buffered() == 0 {
			break
		}
	}
	return n, nil
}

// ReadByte returns the next byte for the Decoder.
func (in *xmlInput) ReadByte() (byte, error) {
	if in.outI < in.outN {
		b := in.out[in.outI]
		in.outI++
		return b, nil
	}
	if in.err != nil {
		return 0, in.err
	}
	if int64(in.pos.Offset) >= in.max {
		in.err = errTooLarge
		return 0, in.err
	}
	if in.tok >= in.maxTok {
		in.err = errTokenTooLong
		return 0, in.err
	}
	at := in.pos
	c, err := in.src.ReadByte()
	if err != nil {
		in.err = err
		return 0, err
	}
	in.advance(c)
	in.tok++
	if c >= utf8.RuneSelf || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
		return in.char(c, at), nil
	}
	switch in.st {
	case stText:
		return in.text(c, at), nil
	case stTag:
		return in.tag(c, at), nil
	case stComment:
		if c == '>' && in.tok >= 7 && in.prev == [2]byte{'-', '-'} {
			in.endMarkup()
		}
	case stCDATA:
		if c == '>' && in.tok >= 12 && in.prev == [2]byte{']', ']'} {
			in.endMarkup()
		}
	case stPI:
		if c == '>' && in.tok >= 3 && in.prev[1] == '?' {
			in.endMarkup()
		}
	case stDecl:
		in.decl(c)
	case stDeclComment:
		switch {
		case in.skip > 0:
			in.skip--
			if in.skip == 0 {
				in.prev = [2]byte{}
				return c, nil
			}
		case c == '>' && in.prev == [2]byte{'-', '-'}:
			in.st = stDecl
		}
	}
	in.prev = [2]byte{in.prev[1], c}
	return c, nil
}

// char hands on a byte that starts a non-ASCII character, or a control
// character: whole when it is a valid XML character, else as U+FFFD.
func (in *xmlInput) char(c byte, at grammar.Pos) byte {
	in.prev = [2]byte{in.prev[1], c}
	if c < utf8.RuneSelf {
		in.replaced(at, "control", fmt.Sprintf("control character 0x%02X is not allowed in XML: read as U+FFFD", c))
		return in.replace()
	}
	var seq [utf8.UTFMax]byte
	seq[0] = c
	want := 2 // the sequence's length by its first byte (a bad one fails below)
	if c >= 0xF0 {
		want = 4
	} else if c >= 0xE0 {
		want = 3
	}
	n := 1
	if more, _ := in.src.Peek(want - 1); len(more) > 0 {
		n += copy(seq[1:], more)
	}
	r, size := utf8.DecodeRune(seq[:n])
	if r == utf8.RuneError && size <= 1 {
		in.replaced(at, "utf8", "bytes that are not UTF-8 (sitemaps must be UTF-8): read as U+FFFD")
		return in.replace()
	}
	for i := 1; i < size; i++ {
		b, _ := in.src.ReadByte()
		in.advance(b)
		in.tok++
	}
	if r == 0xFFFE || r == 0xFFFF {
		in.replaced(at, "control", fmt.Sprintf("character %U is not allowed in XML: read as U+FFFD", r))
		return in.replace()
	}
	in.emit(seq[1:size]...)
	return c
}

func (in *xmlInput) replace() byte {
	in.emit(replacementBytes[1:]...)
	return replacementBytes[0]
}

// replaced reports a replacement once per token.
func (in *xmlInput) replaced(at grammar.Pos, code, msg string) {
	if !in.bad {
		in.bad = true
		in.report(grammar.Warning, code, at, msg)
	}
}

// startMarkup is called after a '<' in text: it decides from the bytes
// after it which kind of markup starts.
func (in *xmlInput) startMarkup(at grammar.Pos) {
	in.markPos, in.tok, in.bad, in.quote = at, 1, false, 0
	switch {
	case in.next("!--"):
		in.st = stComment
	case in.next("![CDATA["):
		in.st = stCDATA
	case in.next("!"):
		in.st, in.depth = stDecl, 0
	case in.next("?"):
		in.st = stPI
	default:
		in.st = stTag
	}
}

// next reports whether the next bytes of src are s, without consuming
// them; it waits for no more bytes than it takes to tell.
func (in *xmlInput) next(s string) bool {
	for i := 1; i <= len(s); i++ {
		b, _ := in.src.Peek(i)
		if len(b) < i || b[i-1] != s[i-1] {
			return false
		}
	}
	return true
}

func (in *xmlInput) endMarkup() {
	in.st, in.tok, in.bad = stText, 0, false
	in.textPos = in.pos
}

func (in *xmlInput) text(c byte, at grammar.Pos) byte {
	prev := in.prev
	in.prev = [2]byte{in.prev[1], c}
	switch c {
	case '<':
		in.startMarkup(at)
	case '&':
		return in.reference(at)
	case '>':
		if prev == [2]byte{']', ']'} {
			in.report(grammar.Warning, "xml-text", at, `"]]>" outside a CDATA section: read as text`)
			in.emit([]byte("gt;")...)
			return '&'
		}
	}
	return c
}

func (in *xmlInput) tag(c byte, at grammar.Pos) byte {
	in.prev = [2]byte{in.prev[1], c}
	switch {
	case in.quote == 0 && (c == '"' || c == '\''):
		in.quote = c
	case in.quote == 0 && c == '>':
		in.endMarkup()
	case in.quote == c:
		in.quote = 0
	case in.quote != 0 && c == '&':
		return in.reference(at)
	case in.quote != 0 && c == '<':
		in.report(grammar.Warning, "xml-text", at, `"<" inside an attribute value: read as "&lt;"`)
		in.emit([]byte("lt;")...)
		return '&'
	}
	return c
}

// decl follows a declaration (<!DOCTYPE ...>) as the Decoder does:
// quoted parts, nested '<' ... '>', and comments inside it.
func (in *xmlInput) decl(c byte) {
	switch {
	case in.quote != 0:
		if c == in.quote {
			in.quote = 0
		}
	case c == '"' || c == '\'':
		in.quote = c
	case c == '<':
		if in.next("!--") {
			in.st, in.skip = stDeclComment, 3
			return
		}
		in.depth++
	case c == '>':
		if in.depth == 0 {
			in.endMarkup()
			return
		}
		in.depth--
	}
}

// predefined are the names of XML's five predefined entities
// (predefinedRefs, which the fast path reads too).
var predefined = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range predefinedRefs {
		m[r.ref[1:len(r.ref)-1]] = true
	}
	return m
}()

// reference is called at an '&' in text or an attribute value. A valid
// reference is handed on as it is; anything else as "&amp;", reported.
func (in *xmlInput) reference(at grammar.Pos) byte {
	var next []byte
	semi := -1
	for i := 1; i <= 40; i++ {
		b, _ := in.src.Peek(i)
		if len(b) < i {
			break
		}
		next = b
		if c := b[i-1]; c == ';' {
			semi = i - 1
			break
		} else if c == '<' || c == '&' || c <= ' ' {
			break
		}
	}
	if semi > 0 {
		ref := string(next[:semi])
		switch {
		case ref[0] == '#':
			if validCharRef(ref[1:]) {
				return '&'
			}
			in.report(grammar.Warning, "ampersand", at, fmt.Sprintf("&%s; is not a valid character reference: read as the text %q", ref, "&"+ref+";"))
		case predefined[ref]:
			return '&'
		case isXMLName(ref):
			in.ents++
			in.report(grammar.Error, "entity", at, entityMsg(ref))
		default:
			semi = -1
		}
	}
	if semi <= 0 {
		in.report(grammar.Warning, "ampersand", at, `"&" not written as "&amp;" (the protocol asks for entity-escaped values): read as "&"`)
	}
	in.emit([]byte("amp;")...)
	return '&'
}

// entityMsg says why the entity reference &name; makes its value unread.
func entityMsg(name string) string {
	return fmt.Sprintf("entity &%s; is not one of XML's five (lt, gt, amp, apos, quot) and is never expanded (no DTD is read): the value holding it is not read", name)
}

// validCharRef reports whether s (after "&#") is a decimal or "x"
// hexadecimal reference to a character XML allows.
func validCharRef(s string) bool {
	base := 10
	if s != "" && s[0] == 'x' {
		base, s = 16, s[1:]
	}
	if s == "" || len(s) > 8 {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return false
		}
		n = n*base + d
	}
	r := rune(n)
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// isXMLName reports whether s is an ASCII XML name (every name the
// Decoder accepts as an entity name that this check passes, the Decoder
// accepts too).
func isXMLName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == ':':
		case i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return s != ""
}
