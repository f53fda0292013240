package cli

import "io"

// style colours text for people, as --color says: always, never, or
// (auto, the default) only when the stream is a terminal, NO_COLOR is
// unset (https://no-color.org) and TERM is not "dumb".
type style struct{ on bool }

func newStyle(ios *IOStreams, w io.Writer) style {
	switch ios.Color {
	case "always":
		return style{on: true}
	case "never":
		return style{}
	}
	env := func(k string) string {
		if ios.Getenv == nil {
			return ""
		}
		return ios.Getenv(k)
	}
	return style{on: ios.IsTerminal != nil && ios.IsTerminal(w) && env("NO_COLOR") == "" && env("TERM") != "dumb"}
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
