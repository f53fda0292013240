package cli

import (
	"fmt"
	"html/template"
	"io"

	"github.com/sitetxt/sitetxt/internal/audit"
)

// The HTML report of audit: one self-contained page (styles and script
// inline, nothing fetched), one section per source with a crawler-by-path
// matrix grouped by category. Each cell shows the verdict word; hovering
// shows the deciding line (title), clicking shows it with the usage
// preference and each profile's answer in the panel above the matrix; a
// link to "#show=TOKEN@PATH" opens on one cell. html/template escapes
// everything a site wrote.
var auditHTML = template.Must(template.New("audit").Funcs(template.FuncMap{
	"title": audit.CategoryTitle,
	"word":  verdictWord,
	"why":   htmlWhy,
	"usage": htmlUsage,
	"byCategory": func(rep *audit.Report, cat string) []*audit.CrawlerReport {
		var out []*audit.CrawlerReport
		for _, c := range rep.Crawlers {
			if c.Category == cat {
				out = append(out, c)
			}
		}
		return out
	},
	"add": func(a, b int) int { return a + b },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sitetxt audit</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; }
table.matrix { border-collapse: collapse; margin: .5em 0 1em; }
.matrix th, .matrix td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
.matrix th.cat { background: #eef; }
td.cell { cursor: pointer; font-weight: 600; }
td.allowed { background: #dfd; color: #050; }
td.disallowed { background: #fdd; color: #800; }
td.disagree { outline: 2px dashed #c80; outline-offset: -3px; }
td.selected { box-shadow: inset 0 0 0 2px #228; }
.pref { font-size: .85em; }
.pref .allow { color: #050; } .pref .disallow { color: #800; font-weight: 600; } .pref .unknown { color: #888; }
.verdicts li { margin: .15em 0; }
.detail { border: 1px solid #99a; background: #f7f7fb; padding: .5em .8em; min-height: 1.5em; white-space: pre-wrap; font-family: ui-monospace, monospace; }
.badtoken { color: #a60; }
</style>
</head>
<body>
<h1>sitetxt audit</h1>
<p id="totals">{{len .}} {{if eq (len .) 1}}source{{else}}sources{{end}}.</p>
{{range $i, $rep := .}}
<section class="source" id="source-{{$i}}" data-source="{{$rep.Source}}">
<h2>{{$rep.Source}} <small>(profile {{$rep.Profile}})</small></h2>
<ul class="verdicts">{{range $rep.Categories}}<li data-category="{{.Category}}" data-blocked="{{.Blocked}}" data-crawlers="{{.Crawlers}}">{{.Verdict}}</li>{{end}}</ul>
{{with $rep.Licenses}}<p>License (RSL): {{range .}}<a href="{{.Value}}">{{.Value}}</a> (line {{.Line}}) {{end}}</p>{{end}}
{{with $rep.Unknown}}<p>Crawlers the registry does not know: {{range .}}{{.Value}} (line {{.Line}}) {{end}}</p>{{end}}
<p class="muted">Registry: {{$rep.Registry.Crawlers}} crawlers from {{$rep.Registry.Source}}, read {{$rep.Registry.Date}}.</p>
{{if $rep.Disagree}}<p class="disagree-note">The profiles disagree about {{$rep.Disagree}} {{if eq $rep.Disagree 1}}crawler{{else}}crawlers{{end}} (dashed cells).</p>{{end}}
<div class="detail" aria-live="polite">Click a cell to see the line that decides it.</div>
<table class="matrix">
<thead><tr><th>crawler</th><th>operator</th>{{range $rep.Paths}}<th>{{.}}</th>{{end}}<th>usage preference at /</th></tr></thead>
<tbody>
{{range $cat := $rep.Categories}}<tr><th class="cat" colspan="{{add (len $rep.Paths) 3}}">{{title $cat.Category}}</th></tr>
{{range $c := byCategory $rep $cat.Category}}<tr data-token="{{.Token}}">
<td>{{.Token}}{{if not .ValidToken}} <span class="badtoken" title="this token breaks RFC 9309's product-token grammar">&#9888;</span>{{end}}</td><td>{{.Operator}}</td>
{{range .Paths}}<td data-path="{{.Path}}" class="cell {{word .Allowed}}{{if .Disagree}} disagree{{end}}" tabindex="0" title="{{why $rep.Source .Verdict}}" data-detail="{{$c.Token}} {{.Path}}: {{word .Allowed}} &#8212; {{why $rep.Source .Verdict}}&#10;{{usage .Verdict}}{{range .Profiles}}&#10;  {{.Profile}}: {{word .Allowed}}{{if .Usage}} ({{.Usage}}){{end}}{{end}}">{{word .Allowed}}</td>{{end}}
<td class="pref">{{with .Usage}}{{with .Derived}}<span class="{{.TrainAI}}">train-ai {{.TrainAI}}</span>, <span class="{{.AIUse}}">ai-use {{.AIUse}}</span>, <span class="{{.Search}}">search {{.Search}}</span>{{if .Overridden}} <span title="draft-ietf-aipref-vocab-08 section 4.3">(search governs this crawler's use)</span>{{end}}{{end}}{{else}}&#8212;{{end}}</td>
</tr>
{{end}}{{end}}</tbody>
</table>
</section>
{{end}}
<script>
(function () {
  var blocked = 0, cells = document.querySelectorAll("td.cell");
  cells.forEach(function (td) {
    if (td.classList.contains("disallowed")) blocked++;
    var show = function () {
      var sec = td.closest("section");
      sec.querySelectorAll("td.selected").forEach(function (x) { x.classList.remove("selected"); });
      td.classList.add("selected");
      sec.querySelector(".detail").textContent = td.getAttribute("data-detail");
    };
    td.addEventListener("click", show);
    td.addEventListener("keydown", function (e) { if (e.key === "Enter") show(); });
  });
  // A link to "#show=TOKEN@PATH" opens on that cell's line.
  var m = /^#show=([^@]*)@(.*)$/.exec(decodeURIComponent(location.hash));
  if (m) {
    document.querySelectorAll("tr[data-token]").forEach(function (tr) {
      if (tr.getAttribute("data-token") !== m[1]) return;
      tr.querySelectorAll("td.cell").forEach(function (td) {
        if (td.getAttribute("data-path") === m[2]) td.click();
      });
    });
  }
  document.getElementById("totals").textContent =
    (function (n) { return n + (n === 1 ? " source, " : " sources, "); })(document.querySelectorAll("section.source").length) + cells.length + " answers, " + blocked + " disallowed.";
})();
</script>
</body>
</html>
`))

func writeAuditHTML(w io.Writer, reps []*audit.Report) error {
	return auditHTML.Execute(w, reps)
}

// htmlWhy names the deciding line of a verdict ("robots.txt:3: Disallow:
// /"), or its reason.
func htmlWhy(file string, v audit.Verdict) string {
	if v.Rule != nil {
		return fmt.Sprintf("%s:%d: %s: %s", file, v.Rule.Line, v.Rule.Directive, v.Rule.Pattern)
	}
	return v.Reason
}

// htmlUsage describes a verdict's usage preference and its lines.
func htmlUsage(v audit.Verdict) string {
	u := v.Usage
	if u == nil {
		return "usage preference: none (the path may not be fetched)"
	}
	s := usageText(u)
	return s
}
