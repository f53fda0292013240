package cli

import "io"

// style colours text for people: only when the stream is a terminal and
// NO_COLOR is unset (https://no-color.org).
type style struct{ on bool }

func newStyle(ios *IOStreams, w io.Writer) style {
	return style{on: ios.IsTerminal != nil && ios.IsTerminal(w) && (ios.Getenv == nil || ios.Getenv("NO_COLOR") == "")}
}

func (s style) wrap(code, text string) string {
	if !s.on {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s style) green(t string) string  { return s.wrap("32", t) }
func (s style) red(t string) string    { return s.wrap("31", t) }
func (s style) yellow(t string) string { return s.wrap("33", t) }
func (s style) bold(t string) string   { return s.wrap("1", t) }

// verdict colours an allowed/disallowed word.
func (s style) verdict(allowed bool, yes, no string) string {
	if allowed {
		return s.green(yes)
	}
	return s.red(no)
}
