package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCheckURLSource(t *testing.T) {
	var code int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(code)
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()
	tests := []struct {
		code    int
		profile string
		path    string
		exit    int
		want    string
	}{
		{200, "rfc9309", "/private/x", ExitFindings, "disallowed"},
		{200, "rfc9309", "/public", ExitOK, "allowed"},
		{404, "rfc9309", "/private/x", ExitOK, "allowed"},
		{503, "rfc9309", "/public", ExitError, "unreachable"},
		{403, "draft", "/public", ExitFindings, "access restricted"},
		{503, "draft", "/public", ExitError, "defer"},
	}
	for _, tt := range tests {
		code = tt.code
		exit, out, errOut := runFetchCLI(t, "check", "--no-cache", "--profile", tt.profile, srv.URL+"/", tt.path)
		if exit != tt.exit || !strings.Contains(out, tt.want) {
			t.Errorf("check %s (HTTP %d, %s): exit %d, %q (stderr %q), want exit %d and %q", tt.path, tt.code, tt.profile, exit, out, errOut, tt.exit, tt.want)
		}
	}
}
