//go:build unix

package cache

import (
	"fmt"
	"os"
	"syscall"
)

// openNoFollow opens name for reading without following a symbolic link in
// its last element and without blocking on a FIFO (O_NONBLOCK makes no
// difference to reading a regular file).
func openNoFollow(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// unsafeDir says why a directory is not safe to cache in, or "": another
// user owns it, or its group or others may write to it.
func unsafeDir(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return "owned by another user"
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return "mode " + fmt.Sprintf("%#o", perm)
	}
	return ""
}
