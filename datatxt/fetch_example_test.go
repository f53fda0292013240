package datatxt_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/sitetxt/sitetxt/datatxt"
)

func ExampleFetcher_Fetch() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/data.txt" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "- path: census/2020.csv\n  name: census-2020\n  license: CC-BY-4.0\n")
	}))
	defer site.Close()

	var f datatxt.Fetcher
	c, err := f.Fetch(context.Background(), site.URL+"/", datatxt.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range c.Entries {
		fmt.Println(e.Name, strings.TrimPrefix(e.URLs[0], site.URL), e.Metadata["license"])
	}
	// Output:
	// census-2020 /census/2020.csv CC-BY-4.0
}
