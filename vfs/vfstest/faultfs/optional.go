package faultfs

import (
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// RenameNoReplace renames oldname to newname unless newname exists, through
// the wrapped FS's [vfs.RenameNoReplaceFS]; when the wrapped FS lacks it,
// the call fails with the *os.LinkError wrapping errors.ErrUnsupported of
// [vfs.RenameNoReplace]. For rules and hooks it is operation [OpRename];
// injected errors are *os.LinkError with Op "renamenoreplace".
func (f *FS) RenameNoReplace(oldname, newname string) error {
	return f.do(Event{Op: OpRename, Name: f.full(oldname), NewName: f.full(newname)}, "renamenoreplace", func() error {
		return vfs.RenameNoReplace(f.inner, oldname, newname)
	})
}

// Chtimes sets the times of name through the wrapped FS's [vfs.ChtimesFS]
// (operation [OpChtimes]); when the wrapped FS lacks it, the call fails with
// the *fs.PathError wrapping errors.ErrUnsupported of [vfs.Chtimes].
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	return f.do(Event{Op: OpChtimes, Name: f.full(name)}, "chtimes", func() error {
		return vfs.Chtimes(f.inner, name, atime, mtime)
	})
}

// Lstat stats name in the wrapped FS without following a final symbolic
// link. For rules and hooks it is operation [OpStat].
func (f *FS) Lstat(name string) (fi fs.FileInfo, err error) {
	err = f.do(Event{Op: OpStat, Name: f.full(name)}, "lstat", func() (err error) {
		fi, err = f.inner.Lstat(name)
		return err
	})
	if err != nil {
		return nil, err
	}
	return fi, nil
}
