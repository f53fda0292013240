package manifest

import (
	"strings"

	"github.com/sitetxt/sitetxt/webbotauth"
)

// detectDataTxt says a source is a data.txt when its name is data.txt or
// has a .yaml or .yml part, or its first line that is not blank or a
// comment starts a YAML list or document ("-", "---"), or a line of its
// first 64 KiB is a "Path:" field (the record form of data.txt; robots.txt
// has no such field).
func detectDataTxt(name, data string) bool {
	base := strings.ToLower(name)
	if i := strings.LastIndexAny(base, "/\\"); i >= 0 {
		base = base[i+1:]
	}
	if base == "data.txt" || strings.Contains(base, ".yaml") || strings.Contains(base, ".yml") {
		return true
	}
	for rest := data; rest != ""; {
		var line string
		line, rest = cutLine(rest)
		line = strings.TrimLeft(line, " \t\ufeff")
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '-' {
			return true
		}
		break
	}
	for head := data[:min(len(data), 64<<10)]; head != ""; {
		var line string
		line, head = cutLine(head)
		if len(line) >= 5 && strings.EqualFold(line[:4], "path") && strings.TrimLeft(line[4:], " \t") != "" && strings.TrimLeft(line[4:], " \t")[0] == ':' {
			return true
		}
	}
	return false
}

// cutLine returns s's first line, without its line end (CR or LF; a CRLF
// leaves an empty line after it, which the callers skip), and the rest.
func cutLine(s string) (line, rest string) {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// detectSignatures says a source is a Web Bot Auth key directory when its
// name ends in the well-known path's last segment
// (".../.well-known/http-message-signatures-directory", or a file of that
// name).
func detectSignatures(name, _ string) bool {
	base := strings.TrimSuffix(strings.ToLower(name), "/")
	return strings.HasSuffix(base, webbotauth.WellKnownPath[strings.LastIndex(webbotauth.WellKnownPath, "/"):]) ||
		base == webbotauth.WellKnownPath[strings.LastIndex(webbotauth.WellKnownPath, "/")+1:]
}
