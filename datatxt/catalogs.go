package datatxt

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"
)

// ExportOptions fill the catalog-level fields data.txt has no place for.
// Empty fields get the placeholders below, never invented values.
type ExportOptions struct {
	// Title is the catalog's title; empty means `datasets listed in <base>`
	// (or the file name when there is no base).
	Title string
	// Publisher is the organisation that publishes the datasets; empty means
	// the base URL's host, else PlaceholderPublisher.
	Publisher string
	// ContactName and ContactEmail are the catalog's contact point (POD
	// requires one per dataset); empty means PlaceholderContact and
	// PlaceholderEmail.
	ContactName, ContactEmail string
	// Now is the date of the export: the "modified" date of entries whose
	// metadata gives none (data.json requires it). Zero means the current
	// time.
	Now time.Time
}

// The placeholders exports use where a format requires a field the
// data.txt does not give. Each is plainly not data; docs/datatxt.md lists
// where each is used.
const (
	PlaceholderDescription = "no description given in data.txt"
	PlaceholderPublisher   = "unknown publisher (not given in data.txt)"
	PlaceholderContact     = "unknown contact (not given in data.txt)"
	PlaceholderEmail       = "mailto:unknown@example.invalid"
	PlaceholderKeyword     = "no-keyword-given"
)

func (o ExportOptions) title(c *Catalog) string {
	if o.Title != "" {
		return o.Title
	}
	if c.Base != "" {
		return "datasets listed in " + c.Base
	}
	return "datasets listed in " + c.Name
}

func (o ExportOptions) publisher(c *Catalog) string {
	if o.Publisher != "" {
		return o.Publisher
	}
	if u, err := url.Parse(c.Base); err == nil && u.Host != "" {
		return u.Host
	}
	return PlaceholderPublisher
}

func (o ExportOptions) contact() (string, string) {
	name, email := o.ContactName, o.ContactEmail
	if name == "" {
		name = PlaceholderContact
	}
	if email == "" {
		email = PlaceholderEmail
	} else if !strings.HasPrefix(email, "mailto:") {
		email = "mailto:" + email
	}
	return name, email
}

func (o ExportOptions) now() time.Time {
	if o.Now.IsZero() {
		return time.Now().UTC()
	}
	return o.Now.UTC()
}

// description returns the entry's description or the placeholder.
func (e *Entry) description() string {
	if s := strings.TrimSpace(e.Text("description")); s != "" {
		return s
	}
	return PlaceholderDescription
}

// keywords returns the entry's keywords, tags or keyword metadata: a list,
// or a comma-separated string.
func (e *Entry) keywords() []string {
	var out []string
	for _, k := range []string{"keywords", "keyword", "tags"} {
		switch v := e.Metadata[k].(type) {
		case string:
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
		case []any:
			for _, s := range v {
				if s, ok := s.(string); ok && strings.TrimSpace(s) != "" {
					out = append(out, strings.TrimSpace(s))
				}
			}
		}
	}
	return out
}

// dateLayouts are the date forms read from modified/created metadata.
var dateLayouts = []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "20060102T150405Z", "2006-01-02"}

// modified returns the entry's modified, updated or created date in ISO
// 8601, and whether the entry gave it.
func (e *Entry) modified() (string, bool) {
	for _, k := range []string{"modified", "updated", "last_modified", "date", "created"} {
		s := strings.TrimSpace(e.Text(k))
		for _, layout := range dateLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				if layout == "2006-01-02" {
					return t.Format("2006-01-02"), true
				}
				return t.UTC().Format(time.RFC3339), true
			}
		}
	}
	return "", false
}

func (e *Entry) modifiedOr(now time.Time) string {
	if s, ok := e.modified(); ok {
		return s
	}
	return now.Format("2006-01-02")
}

// license returns the entry's license metadata and whether it is a URL.
func (e *Entry) license() (string, bool) {
	s := strings.TrimSpace(e.Text("license"))
	if s == "" {
		return "", false
	}
	u, err := url.Parse(s)
	return s, err == nil && u.IsAbs() && u.Host != ""
}

// identifier returns the entry's first absolute URL, else its name, else
// its first path.
func (e *Entry) identifier() string {
	for _, u := range e.URLs {
		if p, err := url.Parse(u); err == nil && p.IsAbs() {
			return u
		}
	}
	if e.Name != "" {
		return e.Name
	}
	return e.Paths[0]
}

// mediaTypes maps file extensions to IANA media types. A path whose type
// is not known is application/octet-stream, the generic type.
var mediaTypes = map[string]string{
	".csv": "text/csv", ".tsv": "text/tab-separated-values", ".txt": "text/plain",
	".json": "application/json", ".geojson": "application/geo+json", ".jsonl": "application/jsonl",
	".ndjson": "application/x-ndjson", ".xml": "application/xml", ".html": "text/html",
	".xls": "application/vnd.ms-excel", ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".ods": "application/vnd.oasis.opendocument.spreadsheet", ".zip": "application/zip", ".gz": "application/gzip",
	".parquet": "application/vnd.apache.parquet", ".arrow": "application/vnd.apache.arrow.file",
	".feather": "application/vnd.apache.arrow.file", ".pdf": "application/pdf", ".yaml": "application/yaml",
	".yml": "application/yaml", ".rds": "application/octet-stream", ".sqlite": "application/vnd.sqlite3",
}

// format returns the lower-case extension of a path or URL without its
// dot, or "".
func format(p string) string {
	if u, err := url.Parse(p); err == nil {
		p = u.Path
	}
	return strings.TrimPrefix(strings.ToLower(path.Ext(p)), ".")
}

func mediaType(p string) string {
	if mt, ok := mediaTypes["."+format(p)]; ok {
		return mt
	}
	return "application/octet-stream"
}

// downloads returns the URL of each path that has one, else the path.
func (e *Entry) downloads() []string {
	urls := e.urlByPath()
	out := make([]string, 0, len(urls))
	for i, u := range urls {
		if u == "" {
			u = e.Paths[i]
		}
		out = append(out, u)
	}
	return out
}

// SchemaOrg returns the catalog as a schema.org DataCatalog in JSON-LD:
// one Dataset per entry, one DataDownload per path.
func SchemaOrg(c *Catalog, opts ExportOptions) map[string]any {
	datasets := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		var dist []any
		for _, u := range e.downloads() {
			dist = append(dist, map[string]any{
				"@type":          "DataDownload",
				"contentUrl":     u,
				"encodingFormat": mediaType(u),
			})
		}
		d := map[string]any{
			"@type":        "Dataset",
			"name":         e.Title(),
			"description":  e.description(),
			"identifier":   e.identifier(),
			"distribution": dist,
		}
		if e.Name != "" && e.Name != e.Title() {
			d["alternateName"] = e.Name
		}
		if l, _ := e.license(); l != "" {
			d["license"] = l
		}
		if kw := e.keywords(); len(kw) > 0 {
			d["keywords"] = kw
		}
		if m, ok := e.modified(); ok {
			d["dateModified"] = m
		}
		if s := e.Text("source"); s != "" {
			d["isBasedOn"] = s
		}
		datasets = append(datasets, d)
	}
	cat := map[string]any{
		"@context":  "https://schema.org/",
		"@type":     "DataCatalog",
		"name":      opts.title(c),
		"publisher": map[string]any{"@type": "Organization", "name": opts.publisher(c)},
		"dataset":   datasets,
	}
	if c.Base != "" {
		cat["url"] = c.Base
	}
	return cat
}

// dcatContext is the JSON-LD context of the DCAT export.
var dcatContext = map[string]any{
	"dcat":  "http://www.w3.org/ns/dcat#",
	"dct":   "http://purl.org/dc/terms/",
	"foaf":  "http://xmlns.com/foaf/0.1/",
	"vcard": "http://www.w3.org/2006/vcard/ns#",
	"xsd":   "http://www.w3.org/2001/XMLSchema#",
}

// DCAT returns the catalog as a W3C DCAT (version 2) dcat:Catalog in
// JSON-LD: one dcat:Dataset per entry, one dcat:Distribution per path.
func DCAT(c *Catalog, opts ExportOptions) map[string]any {
	name, email := opts.contact()
	datasets := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		var dist []any
		for _, u := range e.downloads() {
			dist = append(dist, map[string]any{
				"@type":            "dcat:Distribution",
				"dcat:accessURL":   map[string]any{"@id": u},
				"dcat:downloadURL": map[string]any{"@id": u},
				"dcat:mediaType":   map[string]any{"@id": "https://www.iana.org/assignments/media-types/" + mediaType(u)},
				"dct:format":       format(u),
			})
		}
		d := map[string]any{
			"@type":             "dcat:Dataset",
			"dct:title":         e.Title(),
			"dct:description":   e.description(),
			"dct:identifier":    e.identifier(),
			"dcat:distribution": dist,
			"dcat:contactPoint": map[string]any{"@type": "vcard:Kind", "vcard:fn": name, "vcard:hasEmail": map[string]any{"@id": email}},
		}
		if l, isURL := e.license(); isURL {
			d["dct:license"] = map[string]any{"@id": l}
		} else if l != "" {
			d["dct:license"] = map[string]any{"@type": "dct:LicenseDocument", "dct:title": l}
		}
		if kw := e.keywords(); len(kw) > 0 {
			d["dcat:keyword"] = kw
		}
		if m, ok := e.modified(); ok {
			d["dct:modified"] = m
		}
		datasets = append(datasets, d)
	}
	cat := map[string]any{
		"@context":        dcatContext,
		"@type":           "dcat:Catalog",
		"dct:title":       opts.title(c),
		"dct:description": "datasets listed in the data.txt " + catalogSource(c),
		"dct:publisher":   map[string]any{"@type": "foaf:Agent", "foaf:name": opts.publisher(c)},
		"dcat:dataset":    datasets,
	}
	if c.Base != "" {
		cat["@id"] = c.Base
	}
	return cat
}

func catalogSource(c *Catalog) string {
	if c.Base != "" {
		return c.Base
	}
	return c.Name
}

// The Project Open Data v1.1 schema addresses.
const (
	PODConformsTo  = "https://project-open-data.cio.gov/v1.1/schema"
	PODContext     = "https://project-open-data.cio.gov/v1.1/schema/catalog.jsonld"
	PODDescribedBy = "https://project-open-data.cio.gov/v1.1/schema/catalog.json"
)

// DataJSON returns the catalog as a Project Open Data v1.1 data.json
// catalog. Every dataset has the schema's required keys (title,
// description, keyword, modified, publisher, contactPoint, identifier,
// accessLevel); bureauCode and programCode, required only of US federal
// agencies, are carried when the entry's metadata gives them.
func DataJSON(c *Catalog, opts ExportOptions) map[string]any {
	name, email := opts.contact()
	now := opts.now()
	datasets := make([]any, 0, len(c.Entries))
	for _, e := range c.Entries {
		var dist []any
		for _, u := range e.downloads() {
			dist = append(dist, map[string]any{
				"@type":       "dcat:Distribution",
				"downloadURL": u,
				"mediaType":   mediaType(u),
				"format":      format(u),
			})
		}
		kw := e.keywords()
		if len(kw) == 0 {
			kw = []string{PlaceholderKeyword}
		}
		access := "public"
		if s := e.Text("accesslevel"); s == "public" || s == "restricted public" || s == "non-public" {
			access = s
		}
		d := map[string]any{
			"@type":        "dcat:Dataset",
			"title":        e.Title(),
			"description":  e.description(),
			"keyword":      kw,
			"modified":     e.modifiedOr(now),
			"publisher":    map[string]any{"@type": "org:Organization", "name": opts.publisher(c)},
			"contactPoint": map[string]any{"@type": "vcard:Contact", "fn": name, "hasEmail": email},
			"identifier":   e.identifier(),
			"accessLevel":  access,
			"distribution": dist,
		}
		if l, isURL := e.license(); isURL {
			d["license"] = l
		}
		for _, k := range []string{"bureauCode", "programCode"} {
			switch v := e.Metadata[strings.ToLower(k)].(type) {
			case string:
				d[k] = []string{v}
			case []any:
				d[k] = v
			}
		}
		datasets = append(datasets, d)
	}
	return map[string]any{
		"@context":    PODContext,
		"@type":       "dcat:Catalog",
		"conformsTo":  PODConformsTo,
		"describedBy": PODDescribedBy,
		"dataset":     datasets,
	}
}

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
// relative to the datapackage.json).
func DataPackage(c *Catalog, opts ExportOptions) map[string]any {
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
		base := slug(e.Name)
		if base == "" {
			base = slug(strings.TrimSuffix(path.Base(e.Paths[0]), path.Ext(e.Paths[0])))
		}
		urls := e.urlByPath()
		for i, p := range e.Paths {
			loc := urls[i]
			if u, err := url.Parse(loc); loc == "" || err != nil || !u.IsAbs() {
				// Host-less: relative to the data.txt (taken to be at the
				// site root), with dot segments resolved; Frictionless
				// forbids absolute paths and "..".
				if loc == "" {
					loc = path.Clean("/" + p)
				}
				loc = strings.TrimLeft(loc, "/")
			}
			name := base
			if len(e.Paths) > 1 {
				if f := format(p); f != "" {
					name = base + "." + slug(f)
				}
			}
			r := map[string]any{
				"name":        unique(name),
				"path":        loc,
				"title":       e.Title(),
				"description": e.description(),
				"mediatype":   mediaType(p),
			}
			if f := format(p); f != "" {
				r["format"] = f
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
	return pkg
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

// schemaFields returns Frictionless schema fields from a "columns" metadata
// value: a mapping of column name to R class, or a list of mappings with
// name, type and description. It returns nil when there is none.
func (e *Entry) schemaFields() []any {
	field := func(name string, typ, desc any) map[string]any {
		f := map[string]any{"name": name}
		if t, ok := typ.(string); ok {
			if ft, ok := rTypes[t]; ok {
				f["type"] = ft
			} else {
				f["type"] = "any"
			}
		}
		if d, ok := desc.(string); ok && d != "" {
			f["description"] = d
		}
		return f
	}
	switch cols := e.Metadata["columns"].(type) {
	case map[string]any:
		keys := e.colOrder
		if len(keys) != len(cols) {
			keys = sortedKeys(cols)
		}
		var out []any
		for _, k := range keys {
			if v, ok := cols[k]; ok {
				out = append(out, field(k, v, nil))
			}
		}
		return out
	case []any:
		var out []any
		for _, c := range cols {
			m, ok := c.(map[string]any)
			if !ok {
				return nil
			}
			n, ok := m["name"].(string)
			if !ok {
				return nil
			}
			out = append(out, field(n, m["type"], m["description"]))
		}
		return out
	}
	return nil
}
