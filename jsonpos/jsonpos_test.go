package jsonpos

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// tree renders v as its kind and offset, a container's members and items
// inside parentheses, "~" after one the document broke inside.
func tree(v *Value) string {
	if v == nil {
		return "nil"
	}
	var b strings.Builder
	kinds := map[Kind]string{Null: "n", Bool: "b", Number: "0", String: "s", Array: "[", Object: "{"}
	fmt.Fprintf(&b, "%s@%d", kinds[v.Kind], v.Offset)
	if v.Kind != Array && v.Kind != Object {
		return b.String()
	}
	b.WriteString("(")
	for i, m := range v.Members {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s@%d:%s", m.Name, m.NameOffset, tree(m))
	}
	for i, item := range v.Items {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(tree(item))
	}
	b.WriteString(")")
	if !v.Done {
		b.WriteString("~")
	}
	return b.String()
}

// deep is the tree of n arrays, each inside the one before, none closed.
func deep(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[@%d(", i)
	}
	return b.String() + strings.Repeat(")~", n)
}

func TestParse(t *testing.T) {
	syntax := errors.New("a *json.SyntaxError") // stands for one in the table
	tests := []struct {
		name, src string
		tree      string
		errOff    int // -1: no error
		err       error
	}{
		{"every kind", `[{"a": 1}, {"b": [true, null, "x"]}]`, "[@0({@1(a@2:0@7) {@11(b@12:[@17(b@18 n@24 s@30)))", -1, nil},
		{"white space", " \t\r\n{ \"a\" :\n\"x\" } \n", "{@4(a@6:s@12)", -1, nil},
		{"cut off in a member", `[{"a": 1}, {"b": `, "[@0({@1(a@2:0@7) {@11()~)~", 17, ErrEnd},
		{"cut off after a comma", `[1,`, "[@0(0@1)~", 3, ErrEnd},
		{"nothing", ``, "nil", 0, ErrEnd},
		{"no colon", `[{"a": 1}, {"b" 2}]`, "[@0({@1(a@2:0@7) {@11()~)~", 16, syntax},
		{"a comma for a value", `{"keys": [,]}`, "{@0(keys@1:[@9()~)~", 10, syntax},
		{"a comma for a name", `{"a":1,,}`, "{@0(a@1:0@5)~", 7, syntax},
		{"a bad escape", `{"a": "\x"}`, "{@0()~", 8, syntax},
		{"a bad number", `[1, -x]`, "[@0(0@1)~", 5, syntax},
		{"a bad literal", `[tru]`, "[@0()~", 4, syntax},
		{"a bad literal where a comma goes", `{"a" tru}`, "{@0()~", 5, syntax},
		{"a closing bracket first", `]`, "nil", 0, syntax},
		{"a second value", `[{"a": 1}] [2]`, "[@0({@1(a@2:0@7))", 11, ErrMore},
		{"a closing bracket after", `{} ]`, "{@0()", 3, ErrMore},
		{"a comma after", "{}\n,", "{@0()", 3, ErrMore},
		{"too deep", strings.Repeat("[", 300), deep(200), 200, ErrDepth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Parse([]byte(tt.src), Options{})
			got := tree(v)
			off := -1
			if err != nil {
				off = err.Offset
			}
			if got != tt.tree || off != tt.errOff {
				t.Errorf("Parse(%.40q) = %s, error at %d (%v); want %s, error at %d", tt.src, got, off, err, tt.tree, tt.errOff)
			}
			switch {
			case tt.err == nil && err != nil, tt.err != nil && err == nil:
				t.Errorf("Parse(%.40q) error = %v, want %v", tt.src, err, tt.err)
			case tt.err == syntax:
				if se := (*json.SyntaxError)(nil); !errors.As(err, &se) {
					t.Errorf("Parse(%.40q) error = %v, want a *json.SyntaxError", tt.src, err)
				}
			case tt.err != nil && !errors.Is(err, tt.err):
				t.Errorf("Parse(%.40q) error = %v, want %v", tt.src, err, tt.err)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	src := `{"a": 1, "b": {"a": 2, "a": [3]}, "a": 4, "a": {"c": 5`
	tests := []struct {
		name     string
		opts     Options
		repeated string // each member Repeated is called with: name@NameOffset
		errOff   int
	}{
		{"repeated names; the last member cut off is not", Options{}, "a@23 a@34", 54},
		{"depth 1", Options{MaxDepth: 1}, "", 14},
		{"depth 2: the member too deep is not read", Options{MaxDepth: 2}, "", 28},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			tt.opts.Repeated = func(m *Value) { got = append(got, fmt.Sprintf("%s@%d", m.Name, m.NameOffset)) }
			_, err := Parse([]byte(src), tt.opts)
			if strings.Join(got, " ") != tt.repeated || err == nil || err.Offset != tt.errOff {
				t.Errorf("Parse(%q, %+v): repeated %q, error %v; want repeated %q, error at %d", src, tt.opts, got, err, tt.repeated, tt.errOff)
			}
		})
	}
}

func TestValue(t *testing.T) {
	v, err := Parse([]byte(`{"s": "x", "n": -1.5e3, "t": true, "f": false, "z": null, "s": "y", "l": [1, 2]}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"First(s)", v.First("s").Scalar(), "x"},
		{"Last(s)", v.Last("s").Scalar(), "y"},
		{"number", v.First("n").Scalar(), "-1.5e3"},
		{"true", v.First("t").Scalar(), "true"},
		{"false", v.First("f").Scalar(), "false"},
		{"null", v.First("z").Scalar(), ""},
		{"object", v.Scalar(), ""},
		{"absent", v.First("q"), (*Value)(nil)},
		{"absent's absent", v.First("q").Last("r").Scalar(), ""},
		{"not an object", v.First("s").First("x"), (*Value)(nil)},
		{"array as a list", len(v.First("l").List()), 2},
		{"one value as a list", v.First("s").List()[0].Text, "x"},
		{"nil as a list", len(v.First("q").List()), 0},
		{"kind", v.First("l").Kind.String(), "an array"},
		{"null's kind", v.First("z").Kind.String(), "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("%s = %#v, want %#v", tt.name, tt.got, tt.want)
			}
		})
	}
}

// starts says which bytes a value of each kind may start with.
var starts = map[Kind]string{Null: "n", Bool: "tf", Number: "-0123456789", String: `"`, Array: "[", Object: "{"}

// FuzzParse: Parse fails exactly where encoding/json finds the document
// not JSON (for documents nesting at most DefaultMaxDepth); every offset
// it gives lies in the document, at a byte its value can start with; and
// a string is what encoding/json reads there.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a": [1, "x\u00e9", true, null, {"b": -2.5e1}], "a": {}}`, `[{"a": 1}, {"b" 2}]`, `{"a": "\x"}`, `[tru]`, `{} ,`, `[1, `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		data := []byte(src)
		v, err := Parse(data, Options{})
		if err != nil && (err.Offset < 0 || err.Offset > len(data)) {
			t.Fatalf("Parse(%q): error offset %d outside the document", src, err.Offset)
		}
		if !errors.Is(err, ErrDepth) && (err == nil) != json.Valid(data) {
			t.Errorf("Parse(%q) error = %v, json.Valid = %v", src, err, json.Valid(data))
		}
		check(t, src, v)
	})
}

func check(t *testing.T, src string, v *Value) {
	if v == nil {
		return
	}
	if v.Offset < 0 || v.Offset >= len(src) || !strings.Contains(starts[v.Kind], src[v.Offset:v.Offset+1]) {
		t.Fatalf("Parse(%q): %s at byte %d", src, v.Kind, v.Offset)
	}
	if v.Kind == String && v.Done {
		var s string
		if json.NewDecoder(strings.NewReader(src[v.Offset:])).Decode(&s) != nil || s != v.Text {
			t.Errorf("Parse(%q): the string at byte %d is %q, encoding/json reads %q", src, v.Offset, v.Text, s)
		}
	}
	for _, m := range v.Members {
		if m.NameOffset < 0 || m.NameOffset >= m.Offset || src[m.NameOffset] != '"' {
			t.Fatalf("Parse(%q): member %q's name at byte %d, its value at %d", src, m.Name, m.NameOffset, m.Offset)
		}
		check(t, src, m)
	}
	for _, item := range v.Items {
		check(t, src, item)
	}
}
