package serve

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// goWords are what an error answer must never say: the Go decoder's own
// text, Go type and package names.
var goWords = regexp.MustCompile(`json: |Go (value|struct)|[Uu]nmarshal|\bserve\.|\b(pace|robots|fetch|jsonview|prefs|http)\.[A-Za-z]|` +
	`invalid character|looking for beginning|unexpected (EOF|end of JSON)|\[\]string|\*string|\bint(64)?\b|\bfloat64\b|` +
	`\bstruct\b|\bmap\[|\binterface\b|\bbool\b|exceeded max depth`)

// malformedBodies returns the bodies TestMalformedBodies sends a JSON
// route whose request type is t: bodies that are not JSON or not one
// object, an unknown field, and for each field of t a value of every
// JSON type it does not take.
func malformedBodies(t reflect.Type) []string {
	bodies := []string{
		``, `null`, `[]`, `"x"`, `42`, `true`, `{`, `{"`, `{"a":`, `{} {}`, `{}x`, `{"a":1}`, `{'a':1}`,
		`{"a" 1}`, `{,}`, `{"a":1,}`, "\xef\xbb\xbf{}", `{"a":"\x"}`, strings.Repeat("[", 20000),
		`{"nested":` + strings.Repeat(`{"a":`, 20000) + `1` + strings.Repeat("}", 20000) + `}`,
	}
	wrong := map[reflect.Kind][]string{
		reflect.String: {`1`, `true`, `[]`, `{}`, `1e999`},
		reflect.Slice:  {`"x"`, `1`, `{}`, `[1]`, `[null, {}]`, `[["x"]]`},
		reflect.Int:    {`"x"`, `1.5`, `[]`, `{}`, `true`, `1e999`, `99999999999999999999999`},
		reflect.Bool:   {`"x"`, `1`, `[]`, `{}`},
	}
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || f.Anonymous {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		kind := ft.Kind()
		if kind == reflect.Int64 {
			kind = reflect.Int
		}
		for _, v := range wrong[kind] {
			bodies = append(bodies, `{"`+name+`":`+v+`}`)
		}
	}
	return bodies
}

// TestMalformedBodies sends every JSON route of the route table bodies
// that are not what it takes (malformedBodies): each is answered 4xx with
// {"error": ...} in our own words, never the decoder's text or a Go type
// name.
func TestMalformedBodies(t *testing.T) {
	s := New(Config{Logger: quiet()})
	h := s.Handler()
	answers, raw := 0, 0
	for _, p := range s.routes {
		rt := s.routeTable[p]
		if rt.body == nil {
			continue
		}
		_, path, _ := strings.Cut(p, " ")
		for _, body := range malformedBodies(rt.body) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, jsonRequest(http.MethodPost, path, strings.NewReader(body)))
			if w.Code == http.StatusOK {
				continue // a body the endpoint reads as an answerable question (a number for a string it accepts)
			}
			answers++
			var out struct{ Error string }
			if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || out.Error == "" || w.Code < 400 || w.Code > 499 {
				t.Errorf("POST %s %.60q = %d %.200s; want 4xx {\"error\": ...}", path, body, w.Code, w.Body)
				continue
			}
			if m := goWords.FindString(out.Error); m != "" {
				raw++
				t.Errorf("POST %s %.60q = %d %q: says %q, not our words", path, body, w.Code, out.Error, m)
			}
		}
	}
	t.Logf("%d error answers to malformed bodies, %d of them in the decoder's or Go's words", answers, raw)
	if answers < 200 {
		t.Errorf("%d error answers; the bodies are not reaching the routes", answers)
	}
}
