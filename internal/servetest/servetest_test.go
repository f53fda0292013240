package servetest

import "testing"

// TestServingLine: the address is read from the "serving" line of either
// log format, however the output is cut into writes, and only from it.
func TestServingLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []string
		want   string // "" for none
	}{
		{"text", []string{"time=x level=INFO msg=serving addr=127.0.0.1:41005 profile=rfc9309 redis=false\n"}, "127.0.0.1:41005"},
		{"json", []string{`{"time":"x","level":"INFO","msg":"serving","addr":"[::1]:8080","profile":"rfc9309"}` + "\n"}, "[::1]:8080"},
		{"cut mid-line", []string{"level=WARN msg=other addr=1.2.3.4:5\nlevel=INFO msg=serv", "ing addr=127.0.0.1:7", "7 profile=x\n"}, "127.0.0.1:77"},
		{"unfinished line", []string{"level=INFO msg=serving addr=127.0.0.1:9"}, ""},
		{"another message", []string{"level=INFO msg=stopped addr=127.0.0.1:9\n"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &stderr{addr: make(chan string, 1)}
			for _, w := range tc.writes {
				s.Write([]byte(w))
			}
			got := ""
			select {
			case got = <-s.addr:
			default:
			}
			if got != tc.want {
				t.Errorf("address from %q = %q, want %q", tc.writes, got, tc.want)
			}
		})
	}
}
