package datatxt

import (
	"fmt"
	"strings"
)

// The parties a catalog export names: a dataset's publisher, its creator
// (schema.org, Croissant) and its contact point, and the catalog's
// publisher. The flags (ExportOptions) give them; without a flag, a
// discovered entry's sources give them where they state them (data.json's
// publisher and contactPoint, DCAT's dct:publisher and dcat:contactPoint,
// schema.org's and Croissant's publisher and creator: package discover
// reads them into the entry's metadata, with their provenance). A
// data.txt's own keys give none, as they never did.

// stated returns the metadata value key as a discovered entry's sources
// state it: "" when none does, or the entry was not discovered (its
// Provenance does not name the key's source).
func (e *Entry) stated(key string) string {
	if _, ok := e.Provenance["/metadata/"+key]; !ok {
		return ""
	}
	return strings.TrimSpace(e.Text(key))
}

// discovered reports whether the entry was read by package discover.
func (e *Entry) discovered() bool { return len(e.Sources) > 0 }

// publisher returns the dataset's publisher: --publisher, else its
// sources'.
func (x *exporter) publisher(e *Entry) string {
	if x.opts.Publisher != "" {
		return x.opts.Publisher
	}
	return e.stated("publisher")
}

// creator returns the dataset's creator and its schema.org type:
// --publisher (which has always stood for it), else the creator its
// sources state, else the publisher they state; a Person when the source
// says so (creator_type, publisher_type), else an Organization.
func (x *exporter) creator(e *Entry) (name, typ string) {
	if x.opts.Publisher != "" {
		return x.opts.Publisher, "Organization"
	}
	for _, key := range []string{"creator", "publisher"} {
		if s := e.stated(key); s != "" {
			if e.stated(key+"_type") == "Person" {
				return s, "Person"
			}
			return s, "Organization"
		}
	}
	return "", ""
}

// contact returns the dataset's contact point, its name and its email
// as a mailto: URI: the flags' when --contact or --contact-email is given
// (one contact point: a flag's name is never paired with a source's
// address), else its sources'.
func (x *exporter) contact(e *Entry) (name, email string) {
	if x.opts.ContactName != "" || x.opts.ContactEmail != "" {
		return x.opts.ContactName, x.opts.email()
	}
	return e.stated("contact"), mailto(e.stated("contact_email"))
}

func mailto(s string) string {
	if s == "" || strings.HasPrefix(s, "mailto:") {
		return s
	}
	return "mailto:" + s
}

// noParty says why a dataset has no party that flag gives.
func noParty(e *Entry, flag string) string {
	if e.discovered() {
		return "its sources name none: give " + flag
	}
	return "a data.txt cannot name one: give " + flag
}

// catalogPublisher returns the catalog's publisher: --publisher, else the
// one publisher its discovered datasets' sources state (the site's, when
// they all name the same); "" and why not when there is none or several.
func (x *exporter) catalogPublisher() (string, string) {
	if x.opts.Publisher != "" {
		return x.opts.Publisher, ""
	}
	var names, quoted []string
	seen := map[string]bool{}
	discovered := false
	for _, e := range x.c.Entries {
		discovered = discovered || e.discovered()
		p := e.stated("publisher")
		if k := strings.Join(strings.Fields(p), " "); p != "" && !seen[k] {
			seen[k] = true
			names, quoted = append(names, p), append(quoted, fmt.Sprintf("%q", p))
		}
	}
	switch {
	case len(names) == 1:
		return names[0], ""
	case len(names) > 1:
		return "", fmt.Sprintf("its datasets' sources name %d (%s): give --publisher", len(names), strings.Join(quoted, ", "))
	case discovered:
		return "", "its datasets' sources name none: give --publisher"
	}
	return "", "a data.txt cannot name one: give --publisher"
}
