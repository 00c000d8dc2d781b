package osfs

import "os"

// RenameNoReplace renames oldname to newname unless newname exists, in one
// atomic step: renameat2(RENAME_NOREPLACE) on Linux, renameatx_np(RENAME_EXCL)
// on macOS, MoveFileEx without MOVEFILE_REPLACE_EXISTING on Windows (not
// run there: built and vetted only). It fails with an *os.LinkError (Op
// "renamenoreplace"): matching fs.ErrExist when newname exists (on Windows
// also for a directory renamed onto one, which Windows refuses with access
// denied); matching errors.ErrUnsupported when the system or the volume
// cannot rename without replacing (every other system; on Linux a kernel
// or file system that refuses RENAME_NOREPLACE with EINVAL or ENOSYS, on
// macOS a volume that refuses RENAME_EXCL with ENOTSUP or EINVAL). Both
// also report EINVAL for a rename of a directory into itself, and that too
// comes back as errors.ErrUnsupported. A name whose last element is empty,
// "." or ".." matches fs.ErrInvalid, and names are refused as the other
// methods refuse them when they leave the root.
func (f *FS) RenameNoReplace(oldname, newname string) error {
	return f.renameNoReplace(oldname, newname)
}

func renameError(oldname, newname string, err error) error {
	return &os.LinkError{Op: "renamenoreplace", Old: oldname, New: newname, Err: err}
}
