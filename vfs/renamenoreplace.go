package vfs

import (
	"errors"
	"os"
)

// RenameNoReplaceFS is an [FS] that can rename without replacing: the rename
// fails with an error matching fs.ErrExist when newname exists, atomically
// (renameat2 RENAME_NOREPLACE on Linux).
type RenameNoReplaceFS interface {
	FS
	// RenameNoReplace renames oldname to newname, atomically, unless
	// newname exists: then it fails with an *os.LinkError matching
	// fs.ErrExist and nothing moves. A volume that refuses the flag gives
	// an error matching errors.ErrUnsupported.
	RenameNoReplace(oldname, newname string) error
}

// RenameNoReplace renames oldname to newname unless newname exists, through
// fsys's [RenameNoReplaceFS]. When fsys lacks the capability (or the volume
// refuses the flag) it returns an *os.LinkError wrapping
// errors.ErrUnsupported.
func RenameNoReplace(fsys FS, oldname, newname string) error {
	if r, ok := fsys.(RenameNoReplaceFS); ok {
		return r.RenameNoReplace(oldname, newname)
	}
	return &os.LinkError{Op: "renamenoreplace", Old: oldname, New: newname, Err: errors.ErrUnsupported}
}
