package discover

import (
	"fmt"
	"net/url"
	"strings"
)

// link is one link of a Link header field (RFC 8288) or <link> element:
// its target, its relation types (lower case) and its media type.
type link struct {
	href      string
	rels      []string
	mediaType string
	off       int // a <link> element's offset in its page; -1 for a Link header's
}

// has reports whether the link has relation type rel.
func (l link) has(rel string) bool {
	for _, r := range l.rels {
		if r == rel {
			return true
		}
	}
	return false
}

// parseLinkHeader reads Link header field values (RFC 8288 section 3):
// comma-separated link-values "<target>; rel="a b"; type=...", targets
// resolved against base. A link-value that does not parse is skipped and
// reported with its byte offset in its field value; the others are kept.
// Commas and semicolons inside quoted strings and inside <...> do not
// split (a naive split on "," breaks on URLs that hold one).
func parseLinkHeader(values []string, base *url.URL) ([]link, []error) {
	var out []link
	var errs []error
	for _, v := range values {
		i := 0
		for i < len(v) {
			l, next, err := linkValue(v, i, base)
			if err != nil {
				errs = append(errs, fmt.Errorf("byte %d: %v", err.off+1, err.msg))
			} else if len(l.rels) > 0 {
				out = append(out, l)
			}
			i = next
		}
	}
	return out, errs
}

type linkErr struct {
	off int
	msg string
}

// linkValue reads the link-value starting at or after i; next is past the
// comma that ends it (or the end).
func linkValue(v string, i int, base *url.URL) (l link, next int, err *linkErr) {
	skip := func() {
		for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
			i++
		}
	}
	toComma := func() int { // past the next comma outside quotes and <>
		quoted, angle := false, false
		for j := i; j < len(v); j++ {
			switch c := v[j]; {
			case quoted && c == '\\':
				j++
			case c == '"' && !angle:
				quoted = !quoted
			case c == '<' && !quoted:
				angle = true
			case c == '>' && !quoted:
				angle = false
			case c == ',' && !quoted && !angle:
				return j + 1
			}
		}
		return len(v)
	}
	skip()
	if i >= len(v) {
		return l, len(v), nil
	}
	if v[i] == ',' {
		return l, i + 1, nil
	}
	if v[i] != '<' {
		start := i
		return l, toComma(), &linkErr{start, "a link must start with <target>"}
	}
	end := strings.IndexByte(v[i:], '>')
	if end < 0 {
		return l, len(v), &linkErr{i, "no > closes the link's target"}
	}
	target := v[i+1 : i+end]
	u, perr := url.Parse(strings.TrimSpace(target))
	if perr != nil {
		start := i
		i += end + 1
		return l, toComma(), &linkErr{start, fmt.Sprintf("target %q is not a URL reference", target)}
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	l.href, l.off = u.String(), -1
	i += end + 1
	seen := map[string]bool{}
	for {
		skip()
		if i >= len(v) || v[i] == ',' {
			return l, min(i+1, len(v)), nil
		}
		if v[i] != ';' {
			start := i
			return link{}, toComma(), &linkErr{start, "expected ; before a link parameter"}
		}
		i++
		skip()
		start := i
		for i < len(v) && v[i] != '=' && v[i] != ';' && v[i] != ',' && v[i] != ' ' && v[i] != '\t' {
			i++
		}
		name := strings.ToLower(v[start:i])
		skip()
		val := ""
		if i < len(v) && v[i] == '=' {
			i++
			skip()
			if i < len(v) && v[i] == '"' {
				var b strings.Builder
				i++
				for i < len(v) && v[i] != '"' {
					if v[i] == '\\' && i+1 < len(v) {
						i++
					}
					b.WriteByte(v[i])
					i++
				}
				if i >= len(v) {
					return link{}, len(v), &linkErr{start, "a quoted parameter value is not closed"}
				}
				i++
				val = b.String()
			} else {
				vs := i
				for i < len(v) && v[i] != ';' && v[i] != ',' && v[i] != ' ' && v[i] != '\t' {
					i++
				}
				val = v[vs:i]
			}
		}
		if seen[name] {
			continue // RFC 8288 3.3: only the first rel (and type) counts
		}
		seen[name] = true
		switch name {
		case "rel":
			l.rels = strings.Fields(strings.ToLower(val))
		case "type":
			l.mediaType = strings.ToLower(strings.TrimSpace(val))
		}
	}
}
