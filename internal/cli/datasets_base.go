package cli

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/internal/input"
)

// sourceBases returns the base URL of each SOURCE from the --base flags:
// none (every base empty: a fetched source's is its own URL); one for one
// SOURCE; one per SOURCE, in order; or, for several SOURCEs, one ending in
// "/" under which each SOURCE on disk lies at the path it was named by
// ("--base https://example.org/ a/data.txt b/" gives
// https://example.org/a/data.txt and https://example.org/b/), a fetched
// SOURCE keeping its own URL.
func sourceBases(bases, sources []string) ([]string, error) {
	for _, b := range bases {
		if err := input.Base(b); err != nil {
			return nil, usageError("--base: %v", err)
		}
	}
	out := make([]string, len(sources))
	switch {
	case len(bases) == 0:
		return out, nil
	case len(bases) == len(sources):
		copy(out, bases)
		return out, nil
	case len(bases) > 1 || !strings.HasSuffix(bases[0], "/"):
		return nil, usageError("--base: give one per SOURCE (%d for %s), or one ending in \"/\" that the SOURCE files are under",
			len(bases), plural(len(sources), "SOURCE"))
	}
	dir, _ := url.Parse(bases[0])
	for i, s := range sources {
		if fetchedSource(s) != "" {
			continue
		}
		rel := filepath.ToSlash(filepath.Clean(s))
		if s == "-" || filepath.IsAbs(s) || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, usageError("--base %s: %s is not a path under the current directory, so it has no URL under the base; give one --base per SOURCE", bases[0], s)
		}
		if isDir(s) {
			rel += "/"
		}
		out[i] = dir.ResolveReference(&url.URL{Path: strings.TrimPrefix(rel, "./")}).String()
	}
	return out, nil
}

// fetchedSource returns the URL a SOURCE is fetched from, as every
// command reads a SOURCE (sourceArg), "" for a file or standard input.
func fetchedSource(typed string) string {
	s, _ := sourceArg(typed)
	return s.URL
}

// isDir reports whether name is a directory.
func isDir(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.IsDir()
}

// robotsSiteOf returns the site the --robots file speaks for: the URL it
// was fetched from, which it judges alone. A robots.txt read from a file
// has no URL: it is taken for the SOURCEs' own site, and so SOURCEs on
// several sites (by their URLs and bases) are a usage error.
func robotsSiteOf(arg string, rsrc *source, sources, bases []string) (string, error) {
	if rsrc.fetched != nil {
		return rsrc.fetched.URL, nil
	}
	sites := map[string]bool{}
	var names []string
	for i, s := range sources {
		at := bases[i]
		if u := fetchedSource(s); u != "" {
			at = u
		}
		site := ""
		if u, err := url.Parse(at); err == nil && u.Host != "" {
			site = strings.ToLower(u.Scheme + "://" + u.Host)
		}
		if !sites[site] {
			sites[site] = true
			if site == "" {
				site = "files without --base"
			}
			names = append(names, site)
		}
	}
	if len(sites) > 1 {
		return "", usageError("--robots %s is a file, which speaks for one site, and the SOURCEs are on %d (%s): give the robots.txt's URL instead",
			arg, len(sites), strings.Join(names, ", "))
	}
	return "", nil
}

// accessDecided reports whether any entry's access was decided (by the
// data.txt's own records or --robots): the text then names the agent.
func accessDecided(c *datatxt.Catalog) bool {
	for _, e := range c.Entries {
		if e.Access != datatxt.Unknown {
			return true
		}
	}
	return false
}
