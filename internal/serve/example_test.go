package serve_test

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"

	"github.com/sitetxt/sitetxt/internal/serve"
)

// A Server's handler answers a batch of URLs with one decision each.
func ExampleServer_Handler() {
	h := serve.New(serve.Config{Logger: slog.New(slog.DiscardHandler)}).Handler()
	req := httptest.NewRequest("POST", "/v1/check", strings.NewReader(`{"agent":"ExampleBot","urls":["ftp://example.org/x"]}`))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	fmt.Print(w.Code, " ", w.Body.String())
	// Output:
	// 200 {"results":[{"url":"ftp://example.org/x","agent":"ExampleBot","profile":"rfc9309","allowed":false,"reason":"not an http or https URL","rule":null,"group":null,"error":"\"ftp://example.org/x\" is not an http(s) URL (its scheme is ftp): no robots.txt read over http or https governs it"}]}
}
