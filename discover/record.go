package discover

import (
	"strings"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/jsonpos"
)

// record is one statement of one source about one dataset, before the
// statements of several sources are merged into one entry.
type record struct {
	kind    Kind
	src     string      // the URL of the document it came from
	pos     grammar.Pos // where in that document
	name    string
	id      string   // the dataset's own IRI, or ""
	keys    []string // further identifiers (IRIs) it is known by
	landing string   // its landing page, or ""
	files   []file
	meta    map[string]any // the metadata keys the exports read
	entry   *datatxt.Entry // a data.txt's entry, as datatxt.Parse read it
	seq     int            // the order it was read in
	// pageTitle and pageDescription are a Signposting landing page's
	// title and description: the dataset's name and description when no
	// source gives one.
	pageTitle, pageDescription string
}

// file is one file of a dataset: its URL and, when the source says, its
// media type and size (-1: unknown).
type file struct {
	url       string
	mediaType string
	size      int64
}

// set puts a metadata value, unless it is empty.
func (r *record) set(key string, v any) {
	switch v := v.(type) {
	case string:
		if v = strings.TrimSpace(v); v == "" {
			return
		}
		r.meta[key] = v
	case []any:
		if len(v) == 0 {
			return
		}
		r.meta[key] = v
	case nil:
	default:
		r.meta[key] = v
	}
}

// addFile adds a file, once per URL.
func (r *record) addFile(f file) {
	if f.url == "" {
		return
	}
	for _, g := range r.files {
		if g.url == f.url {
			return
		}
	}
	r.files = append(r.files, f)
}

// doc is a document being read: its URL and how offsets in the JSON it
// holds map to positions in it (a script block starts inside its page).
type doc struct {
	url   string
	lines *grammar.LineIndex
	base  int // the offset the JSON starts at in the document
}

func (d doc) at(off int) grammar.Pos { return d.lines.Pos(d.base + off) }

// strings returns the text of each value of a list (or of the one value).
func stringsOf(v *jsonpos.Value) []any {
	var out []any
	for _, item := range v.List() {
		if s := strings.TrimSpace(item.Scalar()); s != "" {
			out = append(out, s)
		}
	}
	return out
}
