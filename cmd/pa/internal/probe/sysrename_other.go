//go:build !unix

package probe

import (
	"os"
	"path/filepath"
)

// sysRename renames old to new, two names in the OS folder folder, with
// the system's rename: os.Rename with absolute paths, which on Windows is
// MoveFileEx (MOVEFILE_REPLACE_EXISTING) with no check of Go's first.
// Errors are *os.LinkError naming oldName and newName (the names in the FS
// probed).
func sysRename(folder, old, new, oldName, newName string) error {
	if err := os.Rename(filepath.Join(folder, old), filepath.Join(folder, new)); err != nil {
		if le, ok := err.(*os.LinkError); ok {
			return &os.LinkError{Op: le.Op, Old: oldName, New: newName, Err: le.Err}
		}
		return err
	}
	return nil
}
