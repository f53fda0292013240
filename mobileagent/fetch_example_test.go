package mobileagent_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/sitetxt/sitetxt/mobileagent"
)

func ExampleFetcher_Fetch() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "Mobile-agent-server: / atp://www.fict.org:8001\nMobile-agent-server: /home/ none\n")
	}))
	defer site.Close()

	var f mobileagent.Fetcher
	table, err := f.Fetch(context.Background(), site.URL+"/")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, path := range []string{"/index.html", "/home/user3/"} {
		if r := table.Lookup(path); r.Server != nil {
			fmt.Println(path, r.Server.URL)
		} else {
			fmt.Println(path, "no server")
		}
	}
	// Output:
	// /index.html atp://www.fict.org:8001
	// /home/user3/ no server
}
