package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// decodeJSON reads r's body (bounded and charged to the memory budget by
// the gate) into v, a request of type t: one JSON object, no unknown
// field, arriving within ReadTimeout. What is wrong with it is said in
// our own words (bodyError), never the decoder's.
func (s *Server) decodeJSON(r *http.Request, v any, t reflect.Type) *apiError {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &apiError{code: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("request body larger than %d bytes", s.cfg.MaxBody)}
		}
		if errors.Is(err, errBusy) {
			return &apiError{code: http.StatusServiceUnavailable, msg: errBusy.Error() + "; try again"}
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return &apiError{code: http.StatusRequestTimeout, msg: fmt.Sprintf("the request body did not arrive within %s", s.cfg.ReadTimeout)}
		}
		return badRequest("bad request body: %s", bodyError(err, t))
	}
	if _, err := dec.Token(); errors.Is(err, errBusy) {
		return &apiError{code: http.StatusServiceUnavailable, msg: errBusy.Error() + "; try again"}
	} else if err != io.EOF {
		return badRequest("bad request body: more than one JSON value")
	}
	return nil
}

// fieldError is a request field's own decoder saying what it takes
// (flexString).
type fieldError struct{ field, want string }

func (e *fieldError) Error() string { return fmt.Sprintf("%q must be %s", e.field, e.want) }

// bodyError says what is wrong with a request body of type t that err,
// the JSON decoder's error, refused: where it is not JSON, which field
// has a value of the wrong kind and what it takes, which field is not
// one of the request's.
func bodyError(err error, t reflect.Type) string {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
		fe  *fieldError
	)
	switch {
	case errors.As(err, &fe):
		return fe.Error()
	case errors.Is(err, io.EOF):
		return "empty; want a JSON object with " + fieldList(t)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON stops before its end"
	case errors.As(err, &syn) && strings.Contains(syn.Error(), "max depth"):
		return fmt.Sprintf("nested too deep at byte %d", syn.Offset)
	case errors.As(err, &syn):
		return fmt.Sprintf("not JSON at byte %d", syn.Offset)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Sprintf("%s, not %s: want a JSON object with %s", valueWords(typ.Value), "an object", fieldList(t))
	case errors.As(err, &typ):
		want, what := "something else", strconv.Quote(typ.Field)
		if f, ok := fieldOf(t, typ.Field); ok {
			want = typeWords(f.Type)
			if f.Type.Kind() == reflect.Slice && typ.Type == f.Type.Elem() {
				want, what = typeWords(typ.Type), "each of "+what
			}
		}
		if n, ok := strings.CutPrefix(typ.Value, "number "); ok && want == "a whole number" && !strings.ContainsAny(n, ".eE") {
			want = "a whole number of at most 18 digits"
		}
		return fmt.Sprintf("%s must be %s, not %s", what, want, valueWords(typ.Value))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if n, uerr := strconv.Unquote(name); uerr == nil {
			return fmt.Sprintf("unknown field %q; this endpoint takes %s", truncate(n, 100), fieldList(t))
		}
	}
	return "not the JSON object this endpoint takes: " + fieldList(t)
}

// jsonFields returns the JSON names of t's fields, in order.
func jsonFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" && !f.Anonymous {
			f.Name = name
			out = append(out, f)
		}
	}
	return out
}

// fieldOf returns t's field of the JSON name.
func fieldOf(t reflect.Type, name string) (reflect.StructField, bool) {
	for _, f := range jsonFields(t) {
		if f.Name == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// fieldList names t's fields: `"url", "agent" and "profile"`.
func fieldList(t reflect.Type) string {
	var names []string
	for _, f := range jsonFields(t) {
		names = append(names, strconv.Quote(f.Name))
	}
	switch len(names) {
	case 0:
		return "no field"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// typeWords says what a field of type t takes, in JSON's words.
func typeWords(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		if t.Name() == "flexString" {
			return "a string or a number"
		}
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(typeWords(t.Elem()), "a "), "an ") + "s"
	}
	return "an object"
}

// valueWords names the JSON value the decoder found ("number 1.5",
// "array", ...): "a number", "a list".
func valueWords(v string) string {
	kind, _, _ := strings.Cut(v, " ")
	switch kind {
	case "number":
		if n, ok := strings.CutPrefix(v, "number "); ok {
			return "the number " + truncate(n, 30)
		}
		return "a number"
	case "string":
		return "a string"
	case "array":
		return "a list"
	case "object":
		return "an object"
	case "bool":
		return "true or false"
	}
	return "another kind of value"
}
