package webbotauth

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// node is a JSON value with the byte it starts at: what Parse needs to
// put a problem at its line and column, which encoding/json's values do
// not keep. encoding/json's tokenizer reads the document; node keeps
// where each token began.
type node struct {
	kind    byte // '{', '[', '"', '0' (number), 't', 'f', 'n'
	off     int  // the value's first byte
	keyOff  int  // for an object member, its name's first byte
	str     string
	num     json.Number
	members []*node // object members, in order; name in key
	key     string
	elems   []*node // array elements
}

// member returns the first member called name of an object, or nil.
func (n *node) member(name string) *node {
	for _, m := range n.members {
		if m.key == name {
			return m
		}
	}
	return nil
}

func kindName(k byte) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	}
	return "null"
}

// maxDepth bounds how deep values nest: a key set needs three levels.
const maxDepth = 32

// tree reads the document into nodes, reporting repeated member names.
func (p *parser) tree() (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(p.data))
	dec.UseNumber()
	root, err := p.value(dec, 0)
	if err != nil {
		return nil, err
	}
	if off := p.start(dec); off < len(p.data) {
		p.errorAt(off, "json", "more after the key set: a directory is one JSON object")
	}
	return root, nil
}

// start returns the offset of the next token: past the white space and
// the ',' or ':' the tokenizer has not consumed yet.
func (p *parser) start(dec *json.Decoder) int {
	off := int(dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (p *parser) value(dec *json.Decoder, depth int) (*node, error) {
	off := p.start(dec)
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	n := &node{off: off}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return nil, fmt.Errorf("values nested more than %d deep", maxDepth)
		}
		if t == '{' {
			n.kind = '{'
			return n, p.object(dec, n, depth)
		}
		n.kind = '['
		for dec.More() {
			e, err := p.value(dec, depth+1)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, e)
		}
		_, err = dec.Token() // ]
		return n, err
	case string:
		n.kind, n.str = '"', t
	case json.Number:
		n.kind, n.num = '0', t
	case bool:
		n.kind = 'f'
		if t {
			n.kind = 't'
		}
	default:
		n.kind = 'n'
	}
	return n, nil
}

func (p *parser) object(dec *json.Decoder, n *node, depth int) error {
	seen := map[string]bool{}
	for dec.More() {
		keyOff := p.start(dec)
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		v, err := p.value(dec, depth+1)
		if err != nil {
			return err
		}
		v.key, v.keyOff = name, keyOff
		if seen[name] {
			p.warnAt(keyOff, "json", "member %q again: readers differ on which one counts (sitetxt reads the first)", name)
		}
		seen[name] = true
		n.members = append(n.members, v)
	}
	_, err := dec.Token() // }
	return err
}
