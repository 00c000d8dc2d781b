package nolinkfs

import (
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// RenameNoReplace renames oldname to newname unless newname exists, through
// the wrapped FS's [vfs.RenameNoReplaceFS]. When the wrapped FS lacks it, it
// returns the *os.LinkError wrapping errors.ErrUnsupported of
// [vfs.RenameNoReplace].
func (f *FS) RenameNoReplace(oldname, newname string) error {
	return vfs.RenameNoReplace(f.inner, oldname, newname)
}

// Chtimes sets the times of name through the wrapped FS's [vfs.ChtimesFS].
// When the wrapped FS lacks it, it returns the *fs.PathError wrapping
// errors.ErrUnsupported of [vfs.Chtimes].
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	return vfs.Chtimes(f.inner, name, atime, mtime)
}
