package datatxt

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// frictionlessName is the pattern of a Frictionless resource or package
// name.
var frictionlessName = regexp.MustCompile(`^([-a-z0-9._/])+$`)

// slug lower-cases s and replaces every character a Frictionless name may
// not hold with "-".
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '.', r == '_', r == '/':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// DataPackage returns the catalog as a Frictionless Data Package
// (datapackage.json, v1): one resource per path of each entry, named after
// the entry (lower-cased, other characters replaced with "-", "-2", "-3"
// added to keep names unique; with the format appended when an entry has
// several paths). The resource path is the URL, or the path as written when
// there is no base URL (relative to the data.txt, as Frictionless paths are
// relative to the datapackage.json). pins' file_size is the resource's
// bytes.
func DataPackage(c *Catalog, opts ExportOptions) (map[string]any, Problems) {
	x := newExporter("datapackage", c, opts)
	used := map[string]bool{}
	unique := func(n string) string {
		if n == "" {
			n = "dataset"
		}
		out := n
		for i := 2; used[out]; i++ {
			out = fmt.Sprintf("%s-%d", n, i)
		}
		used[out] = true
		return out
	}
	var resources []any
	for _, e := range c.Entries {
		x.badDates(e)
		base := slug(e.Name)
		if base == "" && len(e.Paths) > 0 {
			base = slug(strings.TrimSuffix(path.Base(e.Paths[0]), path.Ext(e.Paths[0])))
		}
		urls := e.urlByPath()
		sizes := e.fileSizes()
		for i, p := range e.Paths {
			loc := urls[i]
			if loc == "" && !e.goodPath(i) && e.DeniedBy == "scheme" {
				continue // not http(s): never exported
			}
			if u, err := url.Parse(loc); loc == "" || err != nil || !u.IsAbs() {
				// Host-less: relative to the data.txt (taken to be at the
				// site root), with dot segments resolved; Frictionless
				// forbids absolute paths and "..".
				if loc == "" {
					loc = path.Clean("/" + p)
				}
				loc = strings.TrimLeft(loc, "/")
				if !x.warnedRel {
					x.warnedRel = true
					x.problem(grammar.Error, e, "path", "resource paths are relative to the data.txt, which was read from a file, and the package is not written beside it: give the data.txt's URL (--base) for absolute ones")
				}
			}
			name := base
			if len(e.Paths) > 1 {
				if f := format(p); f != "" {
					name = base + "." + slug(f)
				}
			}
			r := map[string]any{
				"name":  unique(name),
				"path":  loc,
				"title": e.Title(),
			}
			if desc := e.description(); desc != "" {
				r["description"] = desc
			}
			if mt := mediaType(p); mt != "" {
				r["mediatype"] = mt
			}
			if f := format(p); f != "" {
				r["format"] = f
			}
			if sizes[i] >= 0 {
				r["bytes"] = sizes[i]
			}
			if info, ok := e.Files[urls[i]]; ok && info.Size >= 0 {
				r["bytes"] = info.Size
			}
			if l, isURL := e.license(); isURL {
				r["licenses"] = []any{map[string]any{"path": l}}
			} else if l != "" {
				r["licenses"] = []any{map[string]any{"name": slug(l), "title": l}}
			}
			if fields := e.schemaFields(); fields != nil {
				r["schema"] = map[string]any{"fields": fields}
			}
			resources = append(resources, r)
		}
	}
	pkg := map[string]any{
		"profile":   "data-package",
		"title":     opts.title(c),
		"resources": resources,
	}
	if n := slug(packageName(c)); n != "" {
		pkg["name"] = n
	}
	if len(resources) == 0 {
		x.missing(nil, "resources", "the data.txt lists no file (a data package needs at least one resource)")
	}
	return pkg, x.probs
}

func packageName(c *Catalog) string {
	if u, err := url.Parse(c.Base); err == nil && u.Host != "" {
		return u.Host + strings.TrimSuffix(strings.TrimSuffix(u.Path, "/data.txt"), "/")
	}
	return strings.TrimSuffix(path.Base(c.Name), path.Ext(c.Name))
}

// rTypes maps R column classes, as pins and cellar write them, to
// Frictionless field types.
var rTypes = map[string]string{
	"character": "string", "factor": "string", "integer": "integer", "numeric": "number",
	"double": "number", "logical": "boolean", "Date": "date", "POSIXct": "datetime",
}

// column is one column pins or cellar record: its name, R class and
// description.
type column struct {
	name, class, description string
}

// columns returns the entry's "columns" metadata: a mapping of column
// name to R class, or a list of mappings with name, type and description;
// nil when there is none.
func (e *Entry) columns() []column {
	switch cols := e.Metadata["columns"].(type) {
	case map[string]any:
		keys := e.colOrder
		if len(keys) != len(cols) {
			keys = sortedKeys(cols)
		}
		var out []column
		for _, k := range keys {
			if v, ok := cols[k]; ok {
				t, _ := v.(string)
				if _, known := rTypes[t]; !known && strings.ContainsAny(t, " \t") {
					// cellar writes "column: what it holds"
					out = append(out, column{name: k, description: t})
					continue
				}
				out = append(out, column{name: k, class: t})
			}
		}
		return out
	case []any:
		var out []column
		for _, c := range cols {
			m, ok := c.(map[string]any)
			if !ok {
				return nil
			}
			n, ok := m["name"].(string)
			if !ok {
				return nil
			}
			t, _ := m["type"].(string)
			d, _ := m["description"].(string)
			out = append(out, column{name: n, class: t, description: d})
		}
		return out
	}
	return nil
}

// schemaFields returns Frictionless schema fields from the entry's
// columns, or nil.
func (e *Entry) schemaFields() []any {
	cols := e.columns()
	if cols == nil {
		return nil
	}
	out := make([]any, 0, len(cols))
	for _, c := range cols {
		f := map[string]any{"name": c.name}
		if c.class != "" {
			if ft, ok := rTypes[c.class]; ok {
				f["type"] = ft
			} else {
				f["type"] = "any"
			}
		}
		if c.description != "" {
			f["description"] = c.description
		}
		out = append(out, f)
	}
	return out
}
