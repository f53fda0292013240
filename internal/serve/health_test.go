package serve

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestHealthzPublicWords: /healthz says whether Redis is up, down or
// failing and the class of the cause, in our words, to anyone; what the
// server said (its error reply, whatever a stranger at its address sends)
// and its address only to a request with the bearer token. Before, it
// repeated a server's error reply word for word to anyone.
func TestHealthzPublicWords(t *testing.T) {
	const secret = "WRONGPASS <script>alert(1)</script> banner of 10.1.2.3"
	reply := func(text string) string {
		return redistest.Fake(t, func(cmd []string, w io.Writer) { io.WriteString(w, "-"+text+"\r\n") })
	}
	for _, tc := range []struct {
		name, url, state, cause, detail string
	}{
		{"password refused", reply(secret), "failing", "auth", "WRONGPASS"},
		{"an error reply", reply("ERR " + secret), "failing", "error-reply", "banner"},
		{"a closed port", fmt.Sprintf("redis://127.0.0.1:%d/0", sitetest.RefusedPort(t)), "down", "unreachable", "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// 5 s: a loaded machine can miss the 250 ms default, a timeout.
			rc, err := rediscache.Open(tc.url, rediscache.Options{Logger: quiet(), Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			addr := strings.TrimSuffix(strings.TrimPrefix(tc.url, "redis://"), "/0")
			for _, token := range []string{"", "s3cret"} {
				h := New(Config{Logger: quiet(), Redis: rc, Cache: rc, Token: token}).Handler()
				public := fmt.Sprintf(`{"status":"ok","redis":%q,"redis_cause":%q}`, tc.state, tc.cause)
				for _, bearer := range []string{"", "wrong"} {
					req := httptest.NewRequest("GET", "/healthz", nil)
					if bearer != "" {
						req.Header.Set("Authorization", "Bearer "+bearer)
					}
					w := httptest.NewRecorder()
					h.ServeHTTP(w, req)
					if body := strings.TrimSpace(w.Body.String()); w.Code != 200 || body != public {
						t.Errorf("GET /healthz (token %q, bearer %q) = %d %s; want 200 %s", token, bearer, w.Code, body, public)
					}
				}
				if token == "" {
					continue
				}
				req := httptest.NewRequest("GET", "/healthz", nil)
				req.Header.Set("Authorization", "Bearer "+token)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				body := w.Body.String()
				if !strings.HasPrefix(body, strings.TrimSuffix(public, "}")+`,"redis_error":`) || !strings.Contains(body, tc.detail) ||
					!strings.Contains(body, `"shards":[{"addr":"`+addr+`","state":"`+tc.state+`"`) {
					t.Errorf("GET /healthz with the token = %s; want the public answer, with %q in redis_error, and the shard %s", body, tc.detail, addr)
				}
			}
		})
	}
}
