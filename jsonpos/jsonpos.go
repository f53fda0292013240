// Package jsonpos reads a JSON document (RFC 8259) into values that keep
// the byte each one starts at, so that a reader of a JSON format can put
// what it finds wrong at its line and column. encoding/json's values
// forget where they were, and its SyntaxError counts, for a problem
// inside a string or number, from somewhere other than the document's
// start; jsonpos reads with encoding/json's tokenizer and keeps, for every
// value and every object member's name, the offset it began at.
//
// A document read this way is also kept when it breaks: Parse returns the
// values read up to a syntax error, a cut-off end or too deep a nesting,
// with the containers left open marked not Done, so a reader can use the
// records a broken document completes before the break. Objects keep
// their members in document order, repeated names included: which of two
// members of one name counts is the reader's choice (First, Last), and
// Options.Repeated reports them.
//
// Package webbotauth reads key directories with it and package discover
// data.json and JSON-LD documents.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Kind is the type of a JSON value.
type Kind byte

// The kinds of JSON value.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String returns the kind as a message names it, with its article: "an
// object", "an array", "a string", "a number", "a boolean", "null".
func (k Kind) String() string {
	switch k {
	case Object:
		return "an object"
	case Array:
		return "an array"
	case String:
		return "a string"
	case Number:
		return "a number"
	case Bool:
		return "a boolean"
	}
	return "null"
}

// Value is one JSON value of a document and where it is.
type Value struct {
	Kind Kind
	// Offset is the value's first byte in the document.
	Offset int
	// Text is a String's value, or a Number as written.
	Text string
	// Bool is a Bool's value.
	Bool bool
	// Members are an Object's members in document order, each with its
	// Name and NameOffset.
	Members []*Value
	// Items are an Array's elements.
	Items []*Value
	// Name is the name of an object's member, and NameOffset the byte its
	// opening quote is at.
	Name       string
	NameOffset int
	// Done is false for an array or object the document ended or broke
	// inside: the members or items read before the break are kept.
	Done bool
}

// First returns the first member called name of an object, or nil (also
// for a nil v or one that is not an object).
func (v *Value) First(name string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for _, m := range v.Members {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Last returns the last member called name of an object, as
// encoding/json and JavaScript's JSON.parse read a repeated name, or nil.
func (v *Value) Last(name string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Name == name {
			return v.Members[i]
		}
	}
	return nil
}

// List returns an array's items, the value itself as a list of one for
// any other value (formats such as JSON-LD give one value or an array of
// them), and nil for a nil v.
func (v *Value) List() []*Value {
	switch {
	case v == nil:
		return nil
	case v.Kind == Array:
		return v.Items
	}
	return []*Value{v}
}

// Scalar returns the text of a string, number or boolean ("true",
// "false"), and "" for null, an array, an object or a nil v.
func (v *Value) Scalar() string {
	switch {
	case v == nil:
		return ""
	case v.Kind == String || v.Kind == Number:
		return v.Text
	case v.Kind == Bool:
		return fmt.Sprint(v.Bool)
	}
	return ""
}

// Errors an Error wraps, besides encoding/json's *json.SyntaxError for a
// document that is not JSON.
var (
	// ErrEnd is a document that ends inside a value.
	ErrEnd = errors.New("the document ends inside a JSON value")
	// ErrDepth is a document whose values nest deeper than
	// Options.MaxDepth.
	ErrDepth = errors.New("values nest too deep")
	// ErrMore is a document with more after its value.
	ErrMore = errors.New("more than one JSON value")
)

// Error is why a document is not one JSON value, and where.
type Error struct {
	// Offset is the byte the problem is at: the byte the tokenizer stopped
	// at between tokens, the first byte of a string, number or literal
	// that does not read, the end of a document cut off, the array or
	// object that nests too deep, or the first byte after the value.
	Offset int
	// Msg says what is wrong, in encoding/json's words for a syntax error.
	Msg string
	// Err is ErrEnd, ErrDepth, ErrMore or a *json.SyntaxError.
	Err error
}

// Error returns the message with its offset.
func (e *Error) Error() string { return fmt.Sprintf("byte %d: %s", e.Offset, e.Msg) }

// Unwrap returns Err, and nil for a nil e: errors.Is and errors.As on the
// nil *Error of a document that reads say no, as they do for a nil error.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// DefaultMaxDepth is how deep values may nest when Options.MaxDepth is 0.
const DefaultMaxDepth = 200

// Options set how Parse reads.
type Options struct {
	// MaxDepth is how many arrays and objects may nest; 0 means
	// DefaultMaxDepth. It bounds the stack a hostile document can take.
	MaxDepth int
	// Repeated, when set, is called with each object member, read
	// completely, whose name an earlier member of its object has.
	Repeated func(member *Value)
}

// Parse reads one JSON value from data. It never discards what it read:
// on an error it returns the values read so far (the root nil only when
// the document breaks before its first value) with the error and its
// offset. Data after the value is an ErrMore error; the value is then
// whole.
func Parse(data []byte, opts Options) (*Value, *Error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := &parser{data: data, dec: dec, opts: opts}
	if p.opts.MaxDepth <= 0 {
		p.opts.MaxDepth = DefaultMaxDepth
	}
	root, err := p.value()
	if err == nil {
		if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
			err = &Error{Offset: len(data) - len(rest), Msg: ErrMore.Error(), Err: ErrMore}
		}
	}
	return root, err
}

type parser struct {
	data  []byte
	dec   *json.Decoder
	opts  Options
	depth int
}

// next is the offset of the next token: past the white space, colons and
// commas after what the decoder has read.
func (p *parser) next() int {
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

func (p *parser) fail(err error) *Error {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return &Error{Offset: len(p.data), Msg: ErrEnd.Error(), Err: ErrEnd}
	case errors.As(err, &se):
		return &Error{Offset: p.syntaxOffset(se), Msg: se.Error(), Err: se}
	}
	return &Error{Offset: int(p.dec.InputOffset()), Msg: err.Error(), Err: err}
}

// syntaxOffset returns the byte a syntax error is at. The decoder stops
// before the byte it refuses between tokens, and at the start of a string,
// number or literal it cannot read; the SyntaxError's own Offset counts
// the bytes of every value the decoder has read, not the document's. So a
// token that fails is read again on its own, by a fresh decoder whose
// count starts at the token: the same error from it is at the byte it
// counts to.
func (p *parser) syntaxOffset(se *json.SyntaxError) int {
	off := int(p.dec.InputOffset())
	var raw json.RawMessage
	err := json.NewDecoder(bytes.NewReader(p.data[off:])).Decode(&raw)
	if again, ok := err.(*json.SyntaxError); ok && again.Error() == se.Error() && again.Offset > 0 {
		return off + int(again.Offset) - 1
	}
	return off
}

// value reads the next value.
func (p *parser) value() (*Value, *Error) {
	off := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.fail(err)
	}
	v := &Value{Offset: off, Done: true}
	switch t := tok.(type) {
	case json.Delim: // '{' or '[': the tokenizer refuses a closing one here
		if p.depth++; p.depth > p.opts.MaxDepth {
			return nil, &Error{Offset: off, Msg: fmt.Sprintf("values nest more than %d deep", p.opts.MaxDepth), Err: ErrDepth}
		}
		defer func() { p.depth-- }()
		v.Kind, v.Done = Array, false
		if t == '{' {
			v.Kind = Object
		}
		return v, p.members(v)
	case string:
		v.Kind, v.Text = String, t
	case json.Number:
		v.Kind, v.Text = Number, string(t)
	case bool:
		v.Kind, v.Bool = Bool, t
	default:
		v.Kind = Null
	}
	return v, nil
}

// members reads the members of an object or the items of an array, up to
// its closing delimiter.
func (p *parser) members(v *Value) *Error {
	var seen map[string]bool
	for p.dec.More() {
		var name string
		nameOff := p.next()
		if v.Kind == Object {
			tok, err := p.dec.Token()
			if err != nil {
				return p.fail(err)
			}
			name, _ = tok.(string)
		}
		item, err := p.value()
		if item == nil {
			return err
		}
		if v.Kind == Array {
			v.Items = append(v.Items, item)
		} else {
			item.Name, item.NameOffset = name, nameOff
			v.Members = append(v.Members, item)
			if err == nil && p.opts.Repeated != nil {
				if seen[name] {
					p.opts.Repeated(item)
				}
				if seen == nil {
					seen = map[string]bool{}
				}
				seen[name] = true
			}
		}
		if err != nil {
			return err
		}
	}
	if _, err := p.dec.Token(); err != nil { // the closing delimiter
		return p.fail(err)
	}
	v.Done = true
	return nil
}
