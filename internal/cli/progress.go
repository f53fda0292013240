package cli

import (
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows how far a stream of --urls has got, on standard error and
// only when standard error is a terminal. Its methods do nothing on a nil
// progress, so callers need not check.
type progress struct {
	bar     *progressbar.ProgressBar
	pending int
}

// newProgress returns a bar for reading the --urls file (sized by the file,
// in bytes) or standard input (a spinner with a count), or nil.
func newProgress(ios *IOStreams, file string) *progress {
	if file == "" || ios.IsTerminal == nil || !ios.IsTerminal(ios.ErrOut) {
		return nil
	}
	total := int64(-1)
	if file != "-" {
		if st, err := os.Stat(file); err == nil && st.Mode().IsRegular() {
			total = st.Size()
		}
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(ios.ErrOut),
		progressbar.OptionSetDescription("checking URLs"),
		progressbar.OptionShowBytes(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	)
	return &progress{bar: bar}
}

// add counts n bytes of URLs read; the bar is told in batches, which keeps
// its lock off the per-URL path.
func (p *progress) add(n int) {
	if p == nil {
		return
	}
	p.pending += n
	if p.pending >= 64<<10 {
		_ = p.bar.Add(p.pending)
		p.pending = 0
	}
}

// finish clears the bar.
func (p *progress) finish() {
	if p == nil {
		return
	}
	_ = p.bar.Add(p.pending)
	_ = p.bar.Finish()
}
