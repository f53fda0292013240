package cli

import (
	"fmt"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaBase is the $id prefix of docs/schema/*.json.
const schemaBase = "https://github.com/sitetxt/sitetxt/docs/schema/"

// loadSchemas compiles every schema of docs/schema, by file name.
func loadSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	dir := filepath.Join("..", "..", "docs", "schema")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schema in %s: %v", dir, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := c.AddResource(schemaBase+filepath.Base(f), doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	out := map[string]*jsonschema.Schema{}
	for _, f := range files {
		s, err := c.Compile(schemaBase + filepath.Base(f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = s
	}
	return out
}

// schemaServers start a site with a robots.txt (usage lines, a Host line)
// and a data.txt, and a site that answers 503 to everything.
func schemaServers(t *testing.T) (up, down string) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private/\nCrawl-delay: 2\nContent-Usage: train-ai=n\nHost: example.org\nSitemap: https://example.org/s.xml\n"))
		case r.URL.Path == "/sitemap.xml":
			base := "http://" + r.Host
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>%[1]s/a</loc><lastmod>2024-03-01T10:00:00+01:00</lastmod><changefreq>daily</changefreq><priority>0.8</priority>
<image:image><image:loc>%[1]s/a.jpg</image:loc></image:image></url>
<url><loc>%[1]s/private/x</loc></url>
</urlset>`, base)
		case r.URL.Path == "/data.txt":
			w.Write([]byte("- path: a.csv\n  name: a\n"))
		case r.URL.Path == "/page": // the preferences a response carries (prefs)
			w.Header().Set("Content-Usage", "ai-use=n, search=y")
			w.Header().Set("Content-Signal", "search=yes,ai-train=no,use=reference")
			w.Header().Set("X-Robots-Tag", "noai")
			w.Header().Set("Link", `</license.xml>; rel="license"; type="application/rsl+xml"`)
			w.Write([]byte("page"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	t.Cleanup(bad.Close)
	return srv.URL + "/", bad.URL + "/"
}

// TestJSONSchemas runs every command that prints JSON, on files, standard
// input and a server, and checks each line against its schema in
// docs/schema (issue 24, item 9). It also checks that a key means one
// type everywhere: "status" once was an HTTP code in check and a word in
// fetch, "host" a string in summary and an object in explain.
func TestJSONSchemas(t *testing.T) {
	schemas := loadSchemas(t)
	chdirRoot(t)
	up, down := schemaServers(t)
	discovered := sitetest.FromDir(t, "testdata/discover/site", map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\nSitemap: $SITE/sitemap.xml\n"}).URL
	const usage = "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Signal: search=yes, ai-train=no\nLicense: https://x.example/l\nRequest-rate: 1/5\nVisit-time: 0600-0845\n"
	cases := []struct {
		schema string
		stdin  string
		args   []string
	}{
		{"check", "", []string{"check", "testdata/robots/fict.org.txt", "/org/plans.html", "/", ""}},
		{"check", usage, []string{"check", "-", "/a"}},
		{"check", "", []string{"check", "--no-cache", up, "/private/x", "/a"}},
		{"check", "", []string{"check", "--no-cache", down, "/x"}},
		{"check", "", []string{"check", "testdata/robots/fict.org.txt", "/a", "http:///no-host", "/b"}},
		{"diff", "", []string{"diff", "testdata/robots/fict.org.txt", "http:///no-host", "/b"}},
		{"matrix", "", []string{"matrix", "testdata/robots/fict.org.txt", "http:///no-host", "/b"}},
		{"agents", "", []string{"agents", "testdata/mobileagent/fict.org.txt", "http:///no-host", "/b"}},
		{"diff", "", []string{"diff", "testdata/robots/fict.org.txt", "/org/plans.html", "/%7Ejim/jim.html"}},
		{"diff", "", []string{"diff", "--no-cache", down, "/x"}},
		{"matrix", "", []string{"matrix", "--agent", "unhipbot", "--agent", "*", "testdata/robots/fict.org.txt", "/", "/org/plans.html"}},
		{"matrix", "", []string{"matrix", "--no-cache", up, "/private/x"}},
		{"agents", "", []string{"agents", "testdata/mobileagent/fict.org.txt", "/", "/home/", "http://www.fict.org/home/user1/"}},
		{"lint", "", []string{"lint", "testdata/robots/messy.txt", "testdata/datatxt/invalid-records.txt"}},
		{"parse", "", []string{"parse", "testdata/robots/aipref.txt"}},
		{"parse", "", []string{"parse", "testdata/mobileagent/robots-mixed.txt"}},
		{"explain", "", []string{"explain", "--agent", "webcrawler", "testdata/robots/fict.org.txt"}},
		{"explain", usage, []string{"explain", "-"}},
		{"explain", "", []string{"explain", "--no-cache", up}},
		{"explain", "", []string{"explain", "--no-cache", down}},
		{"summary", "", []string{"summary", "testdata/robots/messy.txt", "testdata/robots/fict.org.txt"}},
		{"summary", "", []string{"summary", "--no-cache", up}},
		{"audit", "", []string{"audit", "--path", "/ai-ok/page", "testdata/robots/aipref.txt"}},
		{"audit", "", []string{"audit", "--no-cache", down}},
		{"audit-summary", "", []string{"audit", "--summary", "testdata/robots"}},
		{"fetch", "", []string{"fetch", "--no-cache", up, down}},
		{"datasets", "", []string{"datasets", "testdata/datatxt/list.yaml.txt", "testdata/datatxt/records.txt", "testdata/datatxt/invalid.yaml.txt"}},
		{"datasets", "", []string{"datasets", "--base", "https://example.org/data.txt", "--robots", "testdata/datatxt/site/robots.txt", "testdata/datatxt/records.txt"}},
		{"datasets", "", []string{"datasets", "--no-cache", up}},
		{"datasets", "", []string{"datasets", "--no-cache", "--delay", "0", "--discover", "all", discovered}},
		{"sitemaps", "", []string{"sitemaps", "testdata/sitemap/extensions.xml"}},
		{"prefs", "", []string{"prefs", "--no-cache", up + "page", up + "private/x", up + "missing"}},
		{"prefs", "", []string{"prefs", "--no-cache", down + "x"}},
		{"sitemaps", "", []string{"sitemaps", "--no-cache", "--agent", "Googlebot", up + "sitemap.xml"}},
	}
	types := map[string]map[string][]string{} // key -> JSON type -> where
	covered := map[string]bool{}
	for _, tt := range cases {
		args := append([]string{tt.args[0], "-o", "json"}, tt.args[1:]...)
		name := strings.Join(args, " ")
		covered[tt.args[0]] = true
		out, errOut, code := runCLI(t, tt.stdin, args...)
		if out == "" {
			t.Errorf("sitetxt %s printed nothing (exit %d): %s", name, code, errOut)
			continue
		}
		for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
			if err != nil {
				t.Errorf("sitetxt %s: line %d is not JSON: %v\n%s", name, i+1, err, line)
				continue
			}
			if err := schemas[tt.schema].Validate(v); err != nil {
				t.Errorf("sitetxt %s: line %d does not follow docs/schema/%s.json: %v\n%.300s", name, i+1, tt.schema, err, line)
			}
			keyTypes(v, tt.args[0], types)
		}
	}
	var conflicts []string
	for k, ts := range types {
		if len(ts) > 1 {
			var ws []string
			for typ, where := range ts {
				ws = append(ws, typ+" in "+strings.Join(where, ", "))
			}
			sort.Strings(ws)
			conflicts = append(conflicts, k+": "+strings.Join(ws, "; "))
		}
	}
	sort.Strings(conflicts)
	for _, c := range conflicts {
		t.Errorf("the key %s", c)
	}
	// Every command that offers -o json is covered here.
	for _, c := range NewRootCmd(System()).Commands() {
		if strings.Contains(c.Annotations["output"], "json") && !covered[c.Name()] {
			t.Errorf("sitetxt %s prints JSON but TestJSONSchemas does not check it against docs/schema", c.Name())
		}
	}
}

// keyTypes records the JSON type of every key in v (arrays by their
// elements' type), except under "metadata": what a data.txt says of a
// dataset is the site's, not sitetxt's shape.
func keyTypes(v any, cmd string, types map[string]map[string][]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "metadata" {
				continue
			}
			if typ := jsonType(e); typ != "null" {
				if types[k] == nil {
					types[k] = map[string][]string{}
				}
				if w := types[k][typ]; len(w) == 0 || w[len(w)-1] != cmd {
					types[k][typ] = append(w, cmd)
				}
			}
			keyTypes(e, cmd, types)
		}
	case []any:
		for _, e := range x {
			keyTypes(e, cmd, types)
		}
	}
}

// jsonType names a JSON value's type; an array is named by its elements'
// ("array of string"), an empty one "array".
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		if len(x) == 0 {
			return "null" // says nothing of the elements' type
		}
		return "array of " + jsonType(x[0])
	}
	return "number"
}

// TestJSONSchemasRefuse: the schemas refuse what the old shapes were, so
// TestJSONSchemas can fail.
func TestJSONSchemasRefuse(t *testing.T) {
	schemas := loadSchemas(t)
	for _, tt := range []struct{ schema, line string }{
		{"check", `{"url":"/","agent":"*","profile":"rfc9309","allowed":true,"reason":"r","rule":null,"group":null,"fetch":{"url":"u","status":200,"meaning":"parse","error":""}}`},
		{"check", `{"url":"/","agent":"*","profile":"rfc9309","allowed":"yes","reason":"r","rule":null,"group":null}`},
		{"check", `{"url":"/","agent":"*","profile":"rfc9309","allowed":true,"reason":"r","rule":null,"group":null,"extra":1}`},
		// A usage block where no line applies (before issue 50).
		{"check", `{"url":"/","agent":"a","profile":"rfc9309","allowed":true,"reason":"r","rule":null,"group":null,"usage":{"content_usage":{"train_ai":"unknown","ai_use":"unknown","search":"unknown","lines":[]},"content_signal":{"search":"unknown","ai_input":"unknown","ai_train":"unknown","use":"unknown","lines":[]},"derived":{"by":"sitetxt","train_ai":"unknown","ai_use":"unknown","search":"unknown","train_ai_from":"none","ai_use_from":"none","search_from":"none"}}}`},
		{"summary", `{"file":"f","profile":"rfc9309","bytes":1,"limit_bytes":1,"ignored_bytes":0,"line_count":1,"group_count":0,"agents":[],"allow_rules":0,"disallow_rules":0,"wildcard_rules":0,"sitemap_count":0,"host":"","errors":0,"warnings":0}`},
		{"datasets", `{"name":"a","paths":"a.csv","urls":[],"line":1,"column":1,"allowed":null,"metadata":{},"file":"f"}`},
		{"fetch", `{"site":"s","manifest":"robots.txt","url":"u","mode":"rfc9309","status":"parse","reason":"r","http_status":200,"redirects":0,"size":0,"truncated":false,"from_cache":false,"revalidated":false,"stale":false,"error":"","errors":0,"warnings":0}`},
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.line))
		if err != nil {
			t.Fatal(err)
		}
		if schemas[tt.schema].Validate(v) == nil {
			t.Errorf("docs/schema/%s.json accepts %s", tt.schema, tt.line)
		}
	}
}
