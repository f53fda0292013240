package aipref

import (
	"net/url"
	"strings"
)

// A response can state preferences about its own content in header
// fields: Content-Usage (draft-ietf-aipref-attach-05 section 2: ParseField),
// Content-Signal (Cloudflare's header form: ParseSignals over the joined
// field lines), X-Robots-Tag (and the Robots-Tag some servers send) and a
// Link to an RSL license. The two readers below are for the last two.

// RobotsTag is one X-Robots-Tag (or Robots-Tag) field line as it applies
// to a crawler: the directives of the line, which either name no crawler
// (every crawler) or name this one ("googlebot: noindex").
type RobotsTag struct {
	Field string `json:"field"` // the field's name as sent
	Value string `json:"value"` // the field line as sent
	// Agent is the crawler the line names, "" when it names none.
	Agent string `json:"agent"`
	// Directives are the line's directives in lower case, in order
	// ("noindex", "max-snippet: 20", "noai").
	Directives []string `json:"directives"`
}

// robotsTagDirectives are the directives whose value follows a colon
// (Google's and Bing's documentation), so that "max-snippet: 20" is not
// read as a crawler named max-snippet.
var robotsTagDirectives = map[string]bool{
	"unavailable_after": true, "max-snippet": true, "max-image-preview": true, "max-video-preview": true,
}

// RobotsTags reads the field lines of X-Robots-Tag and Robots-Tag as
// Google and Bing document them: each line is a comma-separated list of
// directives, optionally after a crawler's name and a colon; names are
// compared ignoring case. It returns the lines that apply to agent (a
// product token or User-Agent value; "" or "*" takes only the lines that
// name no crawler). Which directives mean what is the reader's: sitetxt
// reports them as sent.
func RobotsTags(field string, lines []string, agent string) []RobotsTag {
	var out []RobotsTag
	for _, v := range lines {
		t := RobotsTag{Field: field, Value: v}
		rest := strings.TrimSpace(v)
		if name, after, ok := strings.Cut(rest, ":"); ok && !strings.ContainsAny(name, ", ") && !robotsTagDirectives[strings.ToLower(strings.TrimSpace(name))] {
			t.Agent, rest = strings.TrimSpace(name), after
		}
		if t.Agent != "" && !namesAgent(t.Agent, agent) {
			continue
		}
		for _, d := range strings.Split(rest, ",") {
			if d = strings.ToLower(strings.TrimSpace(d)); d != "" {
				t.Directives = append(t.Directives, d)
			}
		}
		out = append(out, t)
	}
	return out
}

// namesAgent reports whether name, from a header, names agent: equal
// ignoring case to agent or to the product token agent starts with.
func namesAgent(name, agent string) bool {
	if agent == "" || agent == "*" {
		return false
	}
	tok := agent
	if i := strings.IndexAny(tok, "/ ;("); i >= 0 {
		tok = tok[:i]
	}
	return strings.EqualFold(name, agent) || strings.EqualFold(name, tok)
}

// LinkLicense is a Link header's target with the relation "license" (RSL
// 1.0 points to its license document so, with the type
// application/rsl+xml).
type LinkLicense struct {
	URL  string `json:"url"`  // the target, resolved against the response's URL
	Type string `json:"type"` // the type parameter, "" when absent
}

// LinkLicenses reads the field lines of a Link header (RFC 8288 section
// 3) and returns the targets whose rel parameter includes "license",
// resolved against base (the response's URL; nil leaves them as sent).
// Parameters are read as RFC 8288 writes them (quoted or token values,
// names ignoring case); a link that is not "<" URI-Reference ">" is
// skipped.
func LinkLicenses(lines []string, base *url.URL) []LinkLicense {
	var out []LinkLicense
	for _, v := range lines {
		for _, link := range splitUnquoted(v, ',') {
			target, params, ok := strings.Cut(link, ">")
			target = strings.TrimSpace(target)
			if !ok || !strings.HasPrefix(target, "<") {
				continue
			}
			target = target[1:]
			var rel, typ string
			for _, p := range splitUnquoted(params, ';') {
				k, val, _ := strings.Cut(p, "=")
				val = unquote(strings.TrimSpace(val))
				switch strings.ToLower(strings.TrimSpace(k)) {
				case "rel":
					if rel == "" { // RFC 8288 3.3: only the first rel counts
						rel = val
					}
				case "type":
					typ = val
				}
			}
			if !hasRel(rel, "license") {
				continue
			}
			if base != nil {
				if ref, err := url.Parse(target); err == nil {
					target = base.ResolveReference(ref).String()
				}
			}
			out = append(out, LinkLicense{URL: target, Type: typ})
		}
	}
	return out
}

// hasRel reports whether a rel value, a space-separated list of relation
// types compared ignoring case, includes want.
func hasRel(rel, want string) bool {
	for _, r := range strings.Fields(rel) {
		if strings.EqualFold(r, want) {
			return true
		}
	}
	return false
}

// splitUnquoted splits v at each sep that stands outside a quoted string
// (RFC 9110 section 5.6.4, a backslash escaping the byte after it) and
// outside a "<" URI-Reference ">": the links of a Link field line at ','
// and a link's parameters at ';' ("title=\"a; b\"" is one parameter).
func splitUnquoted(v string, sep byte) []string {
	var out []string
	start, inURI, inQuote := 0, false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case inQuote:
			if c == '\\' {
				i++
			} else if c == '"' {
				inQuote = false
			}
		case c == '"':
			inQuote = true
		case c == '<':
			inURI = true
		case c == '>':
			inURI = false
		case c == sep && !inURI:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

// unquote returns a parameter's value: a quoted string without its quotes
// and with its quoted pairs undone (RFC 9110 section 5.6.4), a token as it
// stands.
func unquote(v string) string {
	if len(v) < 2 || v[0] != '"' {
		return v
	}
	var b strings.Builder
	for i := 1; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case c == '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String() // no closing quote: what stands after the opening one
}
