package aipref

import (
	"encoding/base64"
	"fmt"
	"unicode/utf8"
)

// sfError is where a Structured Field Dictionary (RFC 9651) stops being
// one: the byte offset into the value and what is wrong there.
type sfError struct {
	Offset int
	Msg    string
}

func (e *sfError) Error() string { return fmt.Sprintf("at byte %d: %s", e.Offset+1, e.Msg) }

// sfDictCheck follows the parsing algorithm of RFC 9651 section 4.2
// (Dictionaries, section 4.2.2) over s and returns the first place it
// fails, or nil when s is a Dictionary. It builds nothing: the values are
// read by github.com/dunglas/httpsfv (FuzzSFDictCheck holds the two to the
// same verdict); this only says where a value goes wrong, so that lint can
// put the diagnostic at its column.
func sfDictCheck(s string) *sfError {
	p := sfScanner{s: s}
	p.skipSP() // 4.2: discard leading SP
	end := len(s)
	for end > p.i && s[end-1] == ' ' {
		end-- // and trailing SP
	}
	p.s = s[:end]
	if p.eof() {
		return nil // an empty Dictionary
	}
	for {
		if err := p.key(); err != nil {
			return err
		}
		if p.peek() == '=' {
			p.i++
			if err := p.itemOrInnerList(); err != nil {
				return err
			}
		} else if err := p.params(); err != nil {
			return err
		}
		p.skipOWS()
		if p.eof() {
			return nil
		}
		if p.peek() != ',' {
			return p.fail("want \",\" between members, found %q", p.peek())
		}
		p.i++
		p.skipOWS()
		if p.eof() {
			return p.fail("a \",\" ends the dictionary")
		}
	}
}

type sfScanner struct {
	s string
	i int
}

func (p *sfScanner) eof() bool { return p.i >= len(p.s) }

func (p *sfScanner) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

func (p *sfScanner) fail(format string, args ...any) *sfError {
	return &sfError{Offset: p.i, Msg: fmt.Sprintf(format, args...)}
}

func (p *sfScanner) skipSP() {
	for !p.eof() && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *sfScanner) skipOWS() {
	for !p.eof() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func isLCAlpha(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool   { return '0' <= c && c <= '9' }
func isAlpha(c byte) bool   { return isLCAlpha(c) || 'A' <= c && c <= 'Z' }

// key reads a key (4.2.3.3): lcalpha or "*", then lcalpha, DIGIT, "_",
// "-", "." or "*".
func (p *sfScanner) key() *sfError {
	c := p.peek()
	if !isLCAlpha(c) && c != '*' {
		if 'A' <= c && c <= 'Z' {
			return p.fail("keys are lower case; %q is not", c)
		}
		if p.eof() {
			return p.fail("want a key, found the end")
		}
		return p.fail("a key starts with a-z or \"*\", not %q", c)
	}
	for p.i++; !p.eof(); p.i++ {
		c := p.s[p.i]
		if !isLCAlpha(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' && c != '*' {
			if 'A' <= c && c <= 'Z' {
				return p.fail("keys are lower case; %q is not", c)
			}
			break
		}
	}
	return nil
}

// itemOrInnerList reads 4.2.1.1.
func (p *sfScanner) itemOrInnerList() *sfError {
	if p.peek() != '(' {
		return p.item()
	}
	p.i++
	for {
		p.skipSP()
		if p.eof() {
			return p.fail("an inner list has no \")\"")
		}
		if p.peek() == ')' {
			p.i++
			return p.params()
		}
		if err := p.item(); err != nil {
			return err
		}
		if c := p.peek(); c != ' ' && c != ')' {
			if p.eof() {
				return p.fail("an inner list has no \")\"")
			}
			return p.fail("want a space or \")\" in an inner list, found %q", c)
		}
	}
}

func (p *sfScanner) item() *sfError {
	if err := p.bareItem(); err != nil {
		return err
	}
	return p.params()
}

// params reads 4.2.3.2: ";" key ["=" bare-item], repeated.
func (p *sfScanner) params() *sfError {
	for p.peek() == ';' {
		p.i++
		p.skipSP()
		if err := p.key(); err != nil {
			return err
		}
		if p.peek() == '=' {
			p.i++
			if err := p.bareItem(); err != nil {
				return err
			}
		}
	}
	return nil
}

// bareItem reads 4.2.3.1.
func (p *sfScanner) bareItem() *sfError {
	c := p.peek()
	switch {
	case p.eof():
		return p.fail("want a value, found the end")
	case c == '-' || isDigit(c):
		return p.number(false)
	case c == '"':
		return p.str()
	case c == '*' || isAlpha(c):
		return p.token()
	case c == ':':
		return p.bytes()
	case c == '?':
		if p.i+1 < len(p.s) && (p.s[p.i+1] == '0' || p.s[p.i+1] == '1') {
			p.i += 2
			return nil
		}
		return p.fail("a boolean is ?0 or ?1")
	case c == '@':
		p.i++
		return p.number(true)
	case c == '%':
		return p.displayString()
	}
	return p.fail("%q starts no value (want a token, number, string, byte sequence or boolean)", c)
}

// number reads 4.2.4 (Integer or Decimal); a Date (4.2.9) is an Integer.
func (p *sfScanner) number(intOnly bool) *sfError {
	if p.peek() == '-' {
		p.i++
	}
	if !isDigit(p.peek()) {
		return p.fail("want a digit")
	}
	digits, frac, dot := 0, 0, false
	for ; !p.eof(); p.i++ {
		c := p.s[p.i]
		switch {
		case isDigit(c):
			if dot {
				frac++
			} else {
				digits++
			}
		case c == '.' && !dot && !intOnly:
			if digits > 12 {
				return p.fail("a decimal has at most 12 integer digits")
			}
			dot = true
			continue
		default:
			goto done
		}
		if !dot && digits > 15 {
			return p.fail("an integer has at most 15 digits")
		}
		if dot && frac > 3 {
			return p.fail("a decimal has at most 3 fractional digits")
		}
	}
done:
	if dot && frac == 0 {
		p.i--
		return p.fail("a decimal ends in \".\"")
	}
	return nil
}

// str reads 4.2.5.
func (p *sfScanner) str() *sfError {
	for p.i++; !p.eof(); p.i++ {
		c := p.s[p.i]
		switch {
		case c == '\\':
			p.i++
			if p.eof() {
				return p.fail("a string ends after \"\\\"")
			}
			if c := p.s[p.i]; c != '"' && c != '\\' {
				return p.fail("only \\\" and \\\\ are escapes in a string, not \\%c", c)
			}
		case c == '"':
			p.i++
			return nil
		case c < 0x20 || c > 0x7e:
			return p.fail("byte 0x%02x is not allowed in a string", c)
		}
	}
	return p.fail("a string has no closing '\"'")
}

// token reads 4.2.6: ALPHA or "*", then tchar, ":" or "/".
func (p *sfScanner) token() *sfError {
	for p.i++; !p.eof() && (isTchar(p.s[p.i]) || p.s[p.i] == ':' || p.s[p.i] == '/'); p.i++ {
	}
	return nil
}

func isTchar(c byte) bool {
	if isAlpha(c) || isDigit(c) {
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// bytes reads 4.2.7: ":" base64 ":".
func (p *sfScanner) bytes() *sfError {
	start := p.i + 1
	for p.i++; !p.eof(); p.i++ {
		c := p.s[p.i]
		if c == ':' {
			if _, err := base64.StdEncoding.DecodeString(p.s[start:p.i]); err != nil {
				p.i = start
				return p.fail("a byte sequence is not base64 (with its padding): %v", err)
			}
			p.i++
			return nil
		}
		if !isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=' {
			return p.fail("%q is not base64 in a byte sequence", c)
		}
	}
	return p.fail("a byte sequence has no closing \":\"")
}

// displayString reads 4.2.10: %"...", with %xx (lower-case hex) escapes.
func (p *sfScanner) displayString() *sfError {
	p.i++
	if p.peek() != '"' {
		return p.fail("want '\"' after '%%'")
	}
	var buf []byte
	for p.i++; !p.eof(); p.i++ {
		c := p.s[p.i]
		switch {
		case c == '%':
			if p.i+2 >= len(p.s) || !isLowerHex(p.s[p.i+1]) || !isLowerHex(p.s[p.i+2]) {
				return p.fail("want two lower-case hex digits after '%%'")
			}
			hi, _ := unhex(p.s[p.i+1])
			lo, _ := unhex(p.s[p.i+2])
			buf = append(buf, hi<<4|lo)
			p.i += 2
		case c == '"':
			p.i++
			if !utf8.Valid(buf) {
				return p.fail("a display string is not UTF-8")
			}
			return nil
		case c < 0x20 || c > 0x7e:
			return p.fail("byte 0x%02x is not allowed in a display string", c)
		default:
			buf = append(buf, c)
		}
	}
	return p.fail("a display string has no closing '\"'")
}

func isLowerHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' }

func unhex(c byte) (byte, bool) {
	switch {
	case isDigit(c):
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
