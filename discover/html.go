package discover

import (
	"bytes"
	"cmp"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// page is what discovery reads of an HTML page: its JSON-LD blocks, its
// <link> elements, and its title and description (the name and
// description of a dataset only its Signposting links describe), nothing
// else.
type page struct {
	scripts []script
	links   []link
	// title is the page's og:title, else its <title>; description its
	// <meta name="description">, else its og:description; spaces
	// collapsed, "" when it has none.
	title, description string
}

// script is one <script type="application/ld+json"> block: its text and
// the offset of that text in the page.
type script struct {
	text []byte
	off  int
}

// readHTML reads a page with the HTML tokenizer (so that a "<script" in a
// comment or an attribute is no script): its JSON-LD blocks and its
// <link> elements, resolved against the page's URL (or its <base href>).
func readHTML(body []byte, pageURL string) *page {
	base, _ := url.Parse(pageURL)
	p := &page{}
	z := html.NewTokenizer(bytes.NewReader(body))
	z.SetMaxBuf(len(body) + 1)
	off := 0
	inLD, inTitle, svg := false, false, 0
	var title, ogTitle, desc, ogDesc string
	for {
		tt := z.Next()
		raw := len(z.Raw())
		switch tt {
		case html.ErrorToken:
			p.title, p.description = cmp.Or(ogTitle, title), cmp.Or(desc, ogDesc)
			return p
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if _, dup := attrs[string(k)]; !dup {
					attrs[string(k)] = string(v)
				}
			}
			switch atom.Lookup(name) {
			case atom.Svg, atom.Math:
				if tt == html.StartTagToken {
					svg++ // a <title> inside names the drawing, not the page
				}
			case atom.Title:
				inTitle = tt == html.StartTagToken && svg == 0 && title == ""
			case atom.Meta:
				content := spaces(attrs["content"])
				switch strings.ToLower(cmp.Or(attrs["property"], attrs["name"])) {
				case "og:title":
					ogTitle = cmp.Or(ogTitle, content)
				case "description":
					desc = cmp.Or(desc, content)
				case "og:description":
					ogDesc = cmp.Or(ogDesc, content)
				}
			case atom.Script:
				t, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(attrs["type"])), ";")
				inLD = tt == html.StartTagToken && strings.TrimSpace(t) == "application/ld+json"
			case atom.Base:
				if h, err := url.Parse(strings.TrimSpace(attrs["href"])); err == nil && attrs["href"] != "" && base != nil {
					base = base.ResolveReference(h)
				}
			case atom.Link:
				if l, ok := linkOf(attrs, base); ok {
					l.off = off
					p.links = append(p.links, l)
				}
			}
		case html.TextToken:
			if inTitle {
				title = spaces(string(z.Text()))
			}
			if !inLD {
				break
			}
			if n := len(p.scripts); n > 0 && p.scripts[n-1].off+len(p.scripts[n-1].text) == off {
				p.scripts[n-1].text = append(p.scripts[n-1].text, z.Raw()...) // one block in two tokens
			} else {
				p.scripts = append(p.scripts, script{text: bytes.Clone(z.Raw()), off: off})
			}
		case html.EndTagToken:
			inLD, inTitle = false, false
			if name, _ := z.TagName(); (atom.Lookup(name) == atom.Svg || atom.Lookup(name) == atom.Math) && svg > 0 {
				svg--
			}
		}
		off += raw
	}
}

// spaces collapses runs of white space to one space, and trims them.
func spaces(s string) string { return strings.Join(strings.Fields(s), " ") }

// linkOf reads a <link>: its relations, target (resolved) and media type.
func linkOf(attrs map[string]string, base *url.URL) (link, bool) {
	rels := strings.Fields(strings.ToLower(attrs["rel"]))
	href := strings.TrimSpace(attrs["href"])
	if len(rels) == 0 || href == "" {
		return link{}, false
	}
	u, err := url.Parse(href)
	if err != nil {
		return link{}, false
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	return link{href: u.String(), rels: rels, mediaType: strings.ToLower(strings.TrimSpace(attrs["type"]))}, true
}
