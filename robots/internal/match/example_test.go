package match_test

import (
	"fmt"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

func ExampleReference() {
	rfc := match.Reading{Percent: match.RFC, Wildcards: true}
	rules := []match.RefRule{{Pattern: "/shop/"}, {Pattern: "/shop/*.html$", Allow: true}}
	fmt.Println(match.Reference(rfc, rules, "https://example.com/shop/a.html"))
	fmt.Println(match.Reference(rfc, rules, "https://example.com/shop/a.php"))
	fmt.Println(match.Reference(rfc, rules, "https://example.com/"))
	// Output:
	// 1
	// 0
	// -1
}

func ExampleBuild() {
	ix := match.Build([]match.Pattern{{Lit: "/shop/*.html", Anchored: true, Wild: true}, {Lit: "/shop/"}})
	fmt.Println(ix.Lookup("/shop/a.html"), ix.Lookup("/shop/a.php"), ix.Lookup("/") == match.NoRule)
	// Output: 0 1 true
}
