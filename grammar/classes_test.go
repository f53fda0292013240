package grammar

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// lineClasses is each class of line, the grammar's terminals, with the
// BNF line productions it implements as the 1997 draft writes them
// (datatxt-draft.txt section 3.3; none for a lenient class) and lines of
// it.
var lineClasses = []struct {
	class  lexer.TokenType
	symbol string
	bnf    []string
	lines  []string
}{
	{tBlank, "Blank", []string{"blank = *space CRLF"}, []string{"", " \t"}},
	{tComment, "Commentline", []string{"commentline = comment CRLF"}, []string{"# c", "  # c: d"}},
	{tAgent, "Agentline", []string{`agentline = "User-agent:" *space agent [comment] CRLF`},
		[]string{"User-agent: bot", "user-agent:*", "User-Agent: a # c"}},
	{tRule, "Ruleline", []string{`disallowline = "Disallow" ":" *space path [comment] CRLF`, `allowline = "Allow" ":" *space rpath [comment] CRLF`},
		[]string{"Disallow: /x", "disallow:", "Allow: / # c", "ALLOW : /a"}},
	{tExtension, "Extension", []string{"extension = token : *space value [comment] CRLF"},
		[]string{"Crawl-delay: 5", "Sitemap: https://x.org/s.xml", "Content-Usage: / train-ai=n", "Mobile-agent-server: / atp://h:1", "X-Robots_1: a"}},
	{tAgentlike, "Agentlike", nil, []string{"useragent: bot", "User agent: bot", "User-agent bot", "user-agents: a"}},
	{tInvalid, "Invalid", nil, []string{"junk here now", ": x", "disalow: /", "Disallow /", "<a href=x>more: here", "Site map: /s", "Mobile-agent-server /"}},
}

// TestLineClasses holds each class of line to the BNF production it
// implements: the production is the draft's, the class is the grammar's
// terminal of that name, and its lines are of it. Every terminal of the
// grammar has a row.
func TestLineClasses(t *testing.T) {
	draft := ""
	if b, err := os.ReadFile(shareddata.Path("seeds/datatxt-draft.txt")); err == nil {
		draft = strings.Join(strings.Fields(string(b)), " ")
	}
	seen := map[lexer.TokenType]bool{}
	for _, c := range lineClasses {
		t.Run(c.symbol, func(t *testing.T) {
			seen[c.class] = true
			if symbols[c.symbol] != c.class {
				t.Errorf("symbols[%q] = %d, want the class %d", c.symbol, symbols[c.symbol], c.class)
			}
			for _, p := range c.bnf {
				// The draft aligns its productions in columns.
				name, rhs, _ := strings.Cut(p, " = ")
				if re := regexp.MustCompile(regexp.QuoteMeta(name) + ` += ` + regexp.QuoteMeta(rhs) + ` `); draft != "" && !re.MatchString(draft) {
					t.Errorf("the draft has no production %q", p)
				}
			}
			for _, in := range c.lines {
				f := ParseString("c", in+"\n", Options{})
				if got := lexer.TokenType(f.Lines[0].class); got != c.class {
					t.Errorf("class of %q = %d, want %s (%d)", in, got, c.symbol, c.class)
				}
			}
		})
	}
	for name, tt := range symbols {
		if tt != lexer.EOF && !seen[tt] {
			t.Errorf("terminal %s has no row", name)
		}
	}
	if draft == "" {
		t.Skip("../shared/seeds/datatxt-draft.txt is absent: the productions are not compared with the draft")
	}
}
