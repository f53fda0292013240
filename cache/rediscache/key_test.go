package rediscache_test

import (
	"log/slog"
	"testing"

	"github.com/sitetxt/sitetxt/cache/rediscache"
)

// TestKeys: a value, its failure record and its lease are keys of one
// hash tag, the origin of their URL; a "{" of a stranger's URL names no
// tag; a key without a URL has none.
func TestKeys(t *testing.T) {
	c, err := rediscache.Open("redis://127.0.0.1:1/0", rediscache.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct{ key, want string }{
		{"https://example.org/robots.txt", "sitetxt:{https://example.org}/robots.txt"},
		{"failure:https://example.org/robots.txt", "sitetxt:failure:{https://example.org}/robots.txt"},
		{"lease:http://[::1]:8080/data.txt", "sitetxt:lease:{http://[::1]:8080}/data.txt"},
		{"https://a.example/s.xml?q={x}", "sitetxt:{https://a.example}/s.xml?q=%7Bx}"},
		{"https://a.example", "sitetxt:{https://a.example}"},
		{"plain{key}", "sitetxt:plain%7Bkey}"},
		{"://nothing", "sitetxt:://nothing"},
	} {
		if got := rediscache.Key(c, tc.key); got != tc.want {
			t.Errorf("key(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
}
