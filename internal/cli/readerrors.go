package cli

import "errors"

// reportReadErrors prints the errors of the sources a command could not
// read, one line each on standard error, and returns the exit error they
// call for (exit 2), or nil when there are none. A command that reads
// several sources reports on those it read first; one that read none
// prints nothing on standard output before calling it (no header, no
// totals of zeros, no empty page).
func reportReadErrors(ios *IOStreams, errs []error) error {
	for _, err := range errs {
		var ee *exitError
		if errors.As(err, &ee) && ee.err != nil {
			err = ee.err
		}
		printErr(ios, err)
	}
	if len(errs) > 0 {
		return &exitError{code: ExitError}
	}
	return nil
}
