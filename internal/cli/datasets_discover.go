package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/discover"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/robots"
)

// discoverFlags adds --discover and the flags that bound it.
func discoverFlags(cmd *cobra.Command, opts *datasetsOptions) {
	f := cmd.Flags()
	f.StringSliceVar(&opts.Discover, "discover", nil, `read sites through these sources: all, or data.txt, data.json, dcat, schema.org, croissant, signposting (comma-separated or repeated)`)
	f.IntVar(&opts.MaxPages, "max-pages", discover.DefaultMaxPages, "with --discover: how many pages and linked documents one site may have read")
	f.DurationVar(&opts.Delay, "delay", pace.DefaultInterval, "with --discover: the least time between two requests to a site whose robots.txt asks for none (0: none)")
}

// discoverRun is "datasets --discover": each SOURCE is a site, read
// through the sources asked for, and the catalogs are written as one.
func discoverRun(opts *datasetsOptions, form datatxt.Form, prof robots.Profile) error {
	kinds, err := discover.ParseKinds(opts.Discover)
	if err != nil {
		return usageError("--discover: %v", err)
	}
	switch {
	case opts.Robots != "":
		return usageError("--robots with --discover: discovery reads each site's own robots.txt")
	case len(opts.Base) > 0:
		return usageError("--base with --discover: a discovered document's base is its own URL")
	case opts.MaxPages < 1 || opts.Delay < 0:
		return usageError("--max-pages must be 1 or more, --delay 0 or more")
	}
	sources, _, err := datasetsSources(opts)
	if err != nil {
		return err
	}
	opts.Fetch.Profile = prof.String()
	if err := opts.Fetch.prepare(opts.IO); err != nil {
		return err
	}
	delay := opts.Delay
	if delay == 0 {
		delay = -1 // discover.Options reads 0 as the default
	}
	dopts := discover.Options{Kinds: kinds, Fetcher: opts.Fetch.Fetcher(), Profile: prof, Agent: opts.Agent, Robots: opts.Fetch.robotsClient(prof),
		MaxPages: opts.MaxPages, Pace: pace.Reading{Default: delay}, Board: boardLimits(opts),
		DataTxt: datatxt.Options{Form: form, Rules: datatxt.CompileRules(robots.Compile, prof)}}
	if opts.NoFollow {
		dopts.Board.MaxDepth = -1
	}
	var cats []*datatxt.Catalog
	failed := false
	for _, src := range sources {
		in, err := sourceArg(src)
		if err != nil {
			return err
		}
		if !in.Fetched() {
			printErr(opts.IO, fmt.Errorf("--discover: %s is not a site (an http or https URL, or a host name)", src))
			failed = true
			continue
		}
		hostNote(opts.IO, in)
		res, err := discover.Site(context.Background(), in.URL, dopts)
		if err != nil {
			printErr(opts.IO, err)
			failed = true
			continue
		}
		discoverNotes(opts, res)
		cats = append(cats, res.Catalog)
	}
	if len(cats) == 0 {
		return &exitError{code: ExitError}
	}
	c := datatxt.Join(cats[0].Name, cats...)
	if len(cats) > 1 {
		c.Name = "catalog"
	}
	return datasetsOutput(opts, prof, c, failed)
}

// discoverNotes says, on standard error, what a discovery read: how many
// documents, which robots.txt kept out, and the bound that stopped it.
func discoverNotes(opts *datasetsOptions, res *discover.Result) {
	count := map[string]int{}
	for _, d := range res.Documents {
		count[d.Status]++
		if d.Status == "disallowed" {
			note(opts.IO, "%s: not fetched: %s", d.URL, d.Reason)
		}
	}
	var parts []string
	for _, st := range []string{"read", "not-found", "failed", "disallowed", "off-site"} {
		if count[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[st], st))
		}
	}
	note(opts.IO, "%s: %s asked for (%s); %s", res.Site, plural(len(res.Documents), "document"), strings.Join(parts, ", "),
		plural(len(res.Catalog.Entries), "dataset"))
	if res.Stopped != "" {
		warn(opts.IO, "%s: stopped: %s", res.Site, res.Stopped)
	}
}

// discoveredCatalog reports whether a catalog's entries were discovered
// (they name their sources).
func discoveredCatalog(c *datatxt.Catalog) bool {
	for _, e := range c.Entries {
		if len(e.Sources) > 0 {
			return true
		}
	}
	return false
}

// sourceKinds lists the kinds of an entry's sources, each once.
func sourceKinds(e *datatxt.Entry) string {
	var kinds []string
	for _, s := range e.Sources {
		if len(kinds) == 0 || kinds[len(kinds)-1] != s.Kind {
			kinds = append(kinds, s.Kind)
		}
	}
	return strings.Join(kinds, ",")
}
