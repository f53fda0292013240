//go:build unix

package cache

import (
	"os"
	"syscall"
)

// openNoFollow opens name for reading without following a symbolic link in
// its last element and without blocking on a FIFO (O_NONBLOCK makes no
// difference to reading a regular file).
func openNoFollow(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
