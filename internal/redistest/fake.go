package redistest

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// Fake starts a loopback TCP server that speaks RESP as answer says, for
// the tests of a Redis that answers wrongly (too much, the wrong type, a
// reply that never ends): answer gets each command the client sends (its
// words) and writes the reply; HELLO is refused with an error reply, so
// that the client speaks RESP2. It returns the server's redis:// URL;
// the server stops when the test ends.
func Fake(t testing.TB, answer func(cmd []string, w io.Writer)) string {
	t.Helper()
	addr := sitetest.Raw(t, func(c net.Conn) { serveFake(c, answer) })
	return "redis://" + addr + "/0"
}

func serveFake(c net.Conn, answer func([]string, io.Writer)) {
	defer c.Close()
	br := bufio.NewReader(c)
	for {
		cmd, err := readCommand(br)
		if err != nil {
			return
		}
		if strings.EqualFold(cmd[0], "HELLO") {
			io.WriteString(c, "-ERR unknown command 'HELLO'\r\n")
			continue
		}
		answer(cmd, c)
	}
}

// readCommand reads one command: an array of bulk strings.
func readCommand(br *bufio.Reader) ([]string, error) {
	line, err := br.ReadString('\n')
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "*")))
	if err != nil || n < 1 || n > 1024 {
		return nil, io.ErrUnexpectedEOF
	}
	cmd := make([]string, n)
	for i := range cmd {
		h, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		size, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(h, "$")))
		if err != nil || size < 0 || size > 64<<20 {
			return nil, io.ErrUnexpectedEOF
		}
		b := make([]byte, size+2)
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, err
		}
		cmd[i] = string(b[:size])
	}
	return cmd, nil
}
