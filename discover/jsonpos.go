package discover

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// jvalue is one JSON value of a document with the byte offset it starts
// at, so that a dataset and a problem can be placed (line:col) in the
// document it came from. Objects keep their members in order.
type jvalue struct {
	off   int
	kind  byte // '{' object, '[' array, '"' string, '0' number, 't' bool, 'n' null
	str   string
	b     bool
	keys  []string
	vals  []*jvalue
	items []*jvalue
	// done is false for a container the document ended (or broke) inside:
	// its members read before the break are kept.
	done bool
}

// get returns the member key of an object (the last one of that name), or
// nil.
func (v *jvalue) get(key string) *jvalue {
	if v == nil || v.kind != '{' {
		return nil
	}
	for i := len(v.keys) - 1; i >= 0; i-- {
		if v.keys[i] == key {
			return v.vals[i]
		}
	}
	return nil
}

// list returns an array's items, or the value itself as a list of one
// (JSON-LD and data.json writers give one value or an array of them).
func (v *jvalue) list() []*jvalue {
	switch {
	case v == nil:
		return nil
	case v.kind == '[':
		return v.items
	}
	return []*jvalue{v}
}

// text returns a string's (or number's, bool's) text, "" for anything else.
func (v *jvalue) text() string {
	switch {
	case v == nil:
		return ""
	case v.kind == '"' || v.kind == '0':
		return v.str
	case v.kind == 't':
		return fmt.Sprint(v.b)
	}
	return ""
}

// jsonError is why a document is not JSON, and where.
type jsonError struct {
	off int
	msg string
}

// parseJSON reads one JSON value from data. It never discards what it
// read: on a syntax error or a cut-off document it returns the values
// read so far (containers not closed have done false) and the error with
// its byte offset. Data after the value is an error too.
func parseJSON(data []byte) (*jvalue, *jsonError) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := &jparser{data: data, dec: dec}
	root, err := p.value()
	if err == nil && dec.More() {
		err = &jsonError{off: p.next(), msg: "more than one JSON value"}
	}
	return root, err
}

type jparser struct {
	data  []byte
	dec   *json.Decoder
	depth int
}

// next is the offset of the next token: past the whitespace, colons and
// commas after what the decoder has read.
func (p *jparser) next() int {
	i := int(p.dec.InputOffset())
	for i < len(p.data) {
		switch p.data[i] {
		case ' ', '\t', '\r', '\n', ':', ',':
			i++
			continue
		}
		break
	}
	return i
}

const maxJSONDepth = 200

func (p *jparser) fail(err error) *jsonError {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// The decoder's Offset counts from where its Token call began
		// scanning; the token it stopped at starts at next.
		return &jsonError{off: p.next(), msg: se.Error()}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return &jsonError{off: len(p.data), msg: "the document ends inside a JSON value"}
	}
	return &jsonError{off: p.next(), msg: err.Error()}
}

// value reads the next value.
func (p *jparser) value() (*jvalue, *jsonError) {
	off := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.fail(err)
	}
	v := &jvalue{off: off, done: true}
	switch t := tok.(type) {
	case json.Delim:
		if t != '{' && t != '[' {
			return nil, &jsonError{off: off, msg: fmt.Sprintf("unexpected %q", rune(t))}
		}
		if p.depth++; p.depth > maxJSONDepth {
			return nil, &jsonError{off: off, msg: fmt.Sprintf("values nest more than %d deep", maxJSONDepth)}
		}
		defer func() { p.depth-- }()
		v.kind, v.done = byte(t), false
		return v, p.members(v)
	case string:
		v.kind, v.str = '"', t
	case json.Number:
		v.kind, v.str = '0', string(t)
	case bool:
		v.kind, v.b = 't', t
	default:
		v.kind = 'n'
	}
	return v, nil
}

// members reads the members of an object or the items of an array, up to
// its closing delimiter.
func (p *jparser) members(v *jvalue) *jsonError {
	for p.dec.More() {
		var key string
		if v.kind == '{' {
			tok, err := p.dec.Token()
			if err != nil {
				return p.fail(err)
			}
			key, _ = tok.(string)
		}
		item, jerr := p.value()
		if item != nil {
			if v.kind == '{' {
				v.keys, v.vals = append(v.keys, key), append(v.vals, item)
			} else {
				v.items = append(v.items, item)
			}
		}
		if jerr != nil {
			return jerr
		}
	}
	if _, err := p.dec.Token(); err != nil { // the closing delimiter
		return p.fail(err)
	}
	v.done = true
	return nil
}
