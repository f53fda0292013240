package grammar

import (
	"sync"
	"sync/atomic"

	"github.com/alecthomas/participle/v2/lexer"
)

// participle parses from a lexer.PeekingLexer: the whole token stream,
// read by lexer.Upgrade, which grows it token by token (a few allocations
// per file, more than the rest of a small file's tree). A token here is its
// type only (see lineLexer), so the token stream of a file depends on its
// shape alone ("Agentlines Rulelines", twice, is most of the small files)
// and is the same for every file of that shape: a stream, once read, is
// kept and handed to participle again, which parses it anew every time.
// The cache is bounded in shapes and in tokens per shape; a longer or
// rarer file is read by lexer.Upgrade as before.

const (
	// maxShapeTokens is the most tokens of a kept stream (16 records).
	maxShapeTokens = 32
	// maxShapes is the most streams kept: about 1 MiB at most.
	maxShapes = 512
)

// shapes maps a shape (its token types, one byte each) to its token
// stream, never modified once stored: a lookup is one atomic load, and a
// new shape replaces the map with a copy (under shapesMu).
var (
	shapes   atomic.Pointer[map[string]*lexer.PeekingLexer]
	shapesMu sync.Mutex
)

// tokens returns the token stream of lines for participle: the slab's
// PeekingLexer, set to a kept stream of the lines' shape when there is
// one. The lines are lexed once: the shape is the stream, and the first
// line of each Agentlines token is kept in slab.agentStarts, where
// records places the records participle finds.
func (slab *fileSlab) tokens(lines []*Line) *lexer.PeekingLexer {
	var buf [maxShapeTokens]byte
	shape := buf[:0]
	slab.agentStarts = slab.starts[:0]
	lx := lineLexer{lines: lines}
	for t, _ := lx.Next(); !t.EOF(); t, _ = lx.Next() {
		if t.Type == tAgent {
			slab.agentStarts = append(slab.agentStarts, lx.start)
		}
		shape = append(shape, byte(t.Type))
	}
	if len(shape) > maxShapeTokens {
		return upgrade(string(shape))
	}
	var kept *lexer.PeekingLexer
	if m := shapes.Load(); m != nil {
		kept = (*m)[string(shape)]
	}
	if kept == nil {
		kept = keep(string(shape))
		if kept == nil {
			return upgrade(string(shape))
		}
	}
	// A copy: participle moves its cursor, and reads the tokens only.
	slab.peek = *kept
	return &slab.peek
}

// upgrade reads the token stream of a shape with lexer.Upgrade.
func upgrade(shape string) *lexer.PeekingLexer {
	lex, err := lexer.Upgrade(&shapeLexer{shape: shape})
	if err != nil {
		panic("grammar: shape lexer failed: " + err.Error())
	}
	return lex
}

// keep makes the token stream of a shape and keeps it, unless maxShapes
// are kept already (it then returns nil).
func keep(shape string) *lexer.PeekingLexer {
	shapesMu.Lock()
	defer shapesMu.Unlock()
	old := shapes.Load()
	if old != nil {
		if kept := (*old)[shape]; kept != nil {
			return kept
		}
		if len(*old) >= maxShapes {
			return nil
		}
	}
	lex := upgrade(shape)
	m := make(map[string]*lexer.PeekingLexer, 1+lenOf(old))
	if old != nil {
		for k, v := range *old {
			m[k] = v
		}
	}
	m[shape] = lex
	shapes.Store(&m)
	return lex
}

func lenOf(m *map[string]*lexer.PeekingLexer) int {
	if m == nil {
		return 0
	}
	return len(*m)
}

// shapeLexer gives the tokens of a shape.
type shapeLexer struct {
	shape string
	next  int
}

func (l *shapeLexer) Next() (lexer.Token, error) {
	if l.next == len(l.shape) {
		return lexer.Token{Type: lexer.EOF}, nil
	}
	l.next++
	return lexer.Token{Type: lexer.TokenType(l.shape[l.next-1])}, nil
}
