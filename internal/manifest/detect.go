package manifest

import "strings"

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
	whole := data
	for len(data) > 0 {
		line := data
		if i := strings.IndexAny(data, "\r\n"); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = ""
		}
		line = strings.TrimLeft(line, " \t\ufeff")
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '-' {
			return true
		}
		break
	}
	head := whole[:min(len(whole), 64<<10)]
	for len(head) > 0 {
		line := head
		if i := strings.IndexAny(head, "\r\n"); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = ""
		}
		if len(line) >= 5 && strings.EqualFold(line[:4], "path") && strings.TrimLeft(line[4:], " \t") != "" && strings.TrimLeft(line[4:], " \t")[0] == ':' {
			return true
		}
	}
	return false
}
