package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/prefs"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/spf13/cobra"
)

// prefsOptions are the options of "sitetxt prefs".
type prefsOptions struct {
	IO      *IOStreams
	Agent   string
	Profile string
	Output  format
	URLs    []string
	Fetch   fetchFlags
}

func newPrefsCmd(ios *IOStreams) *cobra.Command {
	opts := &prefsOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "prefs [--agent A] [--profile P] [-o text|json] URL...",
		Short: "Say what AI-usage preferences a URL's robots.txt and its own response state",
		Long: `For each URL (absolute, http or https), decide it with its site's
robots.txt for the crawler and, when it may be fetched, ask the URL itself
for its response header fields (HEAD, or a one-byte GET when HEAD is
refused; the body is not read), then say what each source states:

  robots.txt    the Content-Usage and Content-Signal lines for that path
                and crawler (as check reports them)
  Content-Usage the header (draft-ietf-aipref-attach-05 section 2), in the
                vocabulary of draft-ietf-aipref-vocab-08
  Content-Signal the header form of Cloudflare's Content Signals
  X-Robots-Tag, Robots-Tag  the lines that apply to the crawler
  Link          targets with rel="license" (RSL 1.0's license document)

and the Content-Usage statements combined most restrictively
(draft-ietf-aipref-vocab-08 section 5.1), the Content-Signal ones combined
apart, under their own names. A URL its robots.txt disallows is not
fetched, and its answer says so (a disallowed URL has no usage
preference).

-o json prints one object per URL per line: the decision object of check
-o json plus "fetched", "not_fetched", "response", "robots_txt",
"headers", "content_usage" and "content_signal" (docs/schema/prefs.json).

Exit codes: 0 when every URL may be fetched, 1 when any is disallowed, 2 on
usage errors and when a robots.txt or a URL could not be fetched.`,
		Example: `  sitetxt prefs --agent ExampleBot https://example.org/article
  sitetxt prefs --agent GPTBot -o json https://example.org/a https://example.com/b`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.URLs = args
			return prefsRun(opts)
		},
	}
	agentFlag(cmd, &opts.Agent, `crawler name or User-Agent header ("*": only the "*" group)`)
	profileFlag(cmd, &opts.Profile)
	opts.Fetch.AddFlags(cmd)
	outputFlag(cmd, &opts.Output, recordFormats)
	return cmd
}

func prefsRun(opts *prefsOptions) error {
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	if len(opts.URLs) == 0 {
		return usageError("prefs: no URL given")
	}
	for _, typed := range opts.URLs {
		if u, err := input.ReadURL(typed); err != nil || !u.Absolute() {
			// As a batch reads a URL to decide; prefs names the site's.
			return usageError("prefs: %q is not an absolute http or https URL", typed)
		}
	}
	opts.Fetch.Profile = prof.String()
	if err := opts.Fetch.prepare(opts.IO); err != nil {
		return err
	}
	agentNote(opts.IO, prof, opts.Agent)
	f := opts.Fetch.Fetcher()
	a := &prefs.Asker{Robots: opts.Fetch.robotsClient(prof), Fetcher: f}
	out := newStream(opts.IO.Out, false)
	jl := newJSONLines(out)
	disallowed, failed := false, false
	for _, u := range opts.URLs {
		r := a.Ask(context.Background(), opts.Agent, u)
		disallowed = disallowed || !r.Allowed
		for _, cause := range []string{robotsError(r), r.Error} {
			if cause != "" {
				fmt.Fprintf(opts.IO.ErrOut, "sitetxt: %s: %s\n", visible(u), visible(cause))
				failed = true
			}
		}
		if opts.Output == fJSON {
			err = jl.write(r)
		} else {
			_, err = io.WriteString(out.w, visibleLines(prefs.Text(r)))
		}
		if err != nil {
			return err
		}
	}
	if err := out.done(); err != nil {
		return err
	}
	if failed {
		return &exitError{code: ExitError}
	}
	if disallowed {
		return findings
	}
	return nil
}

// robotsError says why a URL's robots.txt could not be fetched, "" when
// it was (or when no fetch was tried).
func robotsError(r prefs.Result) string {
	if r.Fetch == nil || r.Fetch.Error == "" {
		return ""
	}
	return "cannot fetch " + r.Fetch.URL + ": " + r.Fetch.Error
}
