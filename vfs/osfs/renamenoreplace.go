package osfs

import "os"

// RenameNoReplace renames oldname to newname unless newname exists, in one
// atomic step. It fails with an *os.LinkError (Op "renamenoreplace"):
// matching fs.ErrExist when newname exists; matching errors.ErrUnsupported
// when the system or the volume cannot rename without replacing (every
// system but Linux and macOS; on Linux a kernel or file system that refuses
// RENAME_NOREPLACE with EINVAL or ENOSYS, on macOS a volume that refuses
// RENAME_EXCL with ENOTSUP or EINVAL). Both also report EINVAL for a
// rename of a directory into itself, and that too comes back as
// errors.ErrUnsupported. On Linux and macOS a name whose last element is empty, "."
// or ".." matches fs.ErrInvalid, and names are refused as the other methods
// refuse them when they leave the root.
func (f *FS) RenameNoReplace(oldname, newname string) error {
	return f.renameNoReplace(oldname, newname)
}

func renameError(oldname, newname string, err error) error {
	return &os.LinkError{Op: "renamenoreplace", Old: oldname, New: newname, Err: err}
}
