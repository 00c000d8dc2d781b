//go:build unix

package probe

import (
	"os"

	"golang.org/x/sys/unix"
)

// sysRename renames old to new, two names in the OS folder folder, with
// renameat(2) on that folder's descriptor: no check of Go's comes first.
// Errors are *os.LinkError naming oldName and newName (the names in the
// FS probed) and wrapping the errno.
func sysRename(folder, old, new, oldName, newName string) error {
	fd, err := unix.Open(folder, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.LinkError{Op: "open", Old: oldName, New: newName, Err: err}
	}
	defer unix.Close(fd)
	if err := unix.Renameat(fd, old, fd, new); err != nil {
		return &os.LinkError{Op: "renameat", Old: oldName, New: newName, Err: err}
	}
	return nil
}
