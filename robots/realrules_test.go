package robots

import (
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/slowtest"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// TestRealRulesIndex checks the rule index of a file of many real rules
// (BenchmarkRealRules' files: the root's keyScan holds thousands of keys
// and makes the dense pass) against a scan of the rules in decision
// order, on corpus paths spread over the corpus: a sample of them, all
// 100,000 rules in the slow tier.
func TestRealRulesIndex(t *testing.T) {
	t.Parallel()
	loadRealRules(t)
	n, every := 20000, 211
	if slowtest.On {
		n, every = 100000, 37
	}
	a := Compile(grammar.ParseString("rules.txt", realRuleFile(n), parseOptions), RFC9309).Agent("Googlebot")
	a.Decide("/")
	if !a.index().Dense() {
		t.Fatalf("%d rules: no keyScan makes the dense pass", n)
	}
	for i := 0; i < len(realRules.paths); i += every {
		url := "https://example.com" + realRules.paths[i]
		raw, slash := match.PathOf(url)
		path := string(a.appendPath(nil, raw, slash))
		if got, want := a.Decide(url).Rule, firstMatch(a.rules, path); got != want {
			t.Fatalf("%d rules: Decide(%q).Rule = %v, want %v (first match in decision order)", n, url, got, want)
		}
	}
}
