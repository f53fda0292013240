package cli

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sitetxt/sitetxt/datatxt"
)

// boardLimits are the limits --max-depth, --max-fetches and --board-timeout
// set on following one SOURCE's board, fetched or on disk.
func boardLimits(opts *datasetsOptions) datatxt.BoardLimits {
	lim := datatxt.BoardLimits{MaxDepth: opts.MaxDepth, MaxFetches: opts.MaxFetches, Timeout: opts.BoardTimeout}
	if lim.MaxDepth == 0 {
		lim.MaxDepth = -1 // BoardLimits reads 0 as the default
	}
	return lim
}

// localBoard reads a SOURCE on disk as a board, exactly as a fetched one is
// followed (datatxt.DiscoverDir, the same limits): a data.txt's pins
// directories, a _pins.yaml's pins, a board directory's data.txt or
// _pins.yaml. ok is false for a SOURCE that is read as a plain file: "-",
// and with --no-follow a file that is not a _pins.yaml (a directory or a
// _pins.yaml is then read without going below it).
func localBoard(opts *datasetsOptions, arg string, popts datatxt.Options) (c *datatxt.Catalog, ok bool, err error) {
	if arg == "-" {
		return nil, false, nil
	}
	st, err := os.Stat(arg)
	if err != nil {
		return nil, true, cannotRead(arg, unwrapPath(err))
	}
	lim := boardLimits(opts)
	if opts.NoFollow {
		if st.Mode().IsRegular() && filepath.Base(arg) != "_pins.yaml" {
			return nil, false, nil
		}
		lim.MaxDepth = -1
	}
	c, err = datatxt.DiscoverDir(context.Background(), arg, popts, lim)
	if err != nil {
		if pe, isPath := err.(*fs.PathError); isPath {
			err = fmt.Errorf("cannot read %s: %w", pe.Path, pe.Err)
		}
		return nil, true, &exitError{code: ExitError, err: err}
	}
	return c, true, nil
}
