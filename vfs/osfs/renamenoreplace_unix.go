//go:build linux || darwin

package osfs

// renameNoReplace opens both parents through the root, so that they are
// inside it, and renames between them with the system's rename that never
// replaces (renameatNoReplace: renameat2 on Linux, renameatx_np on macOS).
func (f *FS) renameNoReplace(oldname, newname string) error {
	oldDir, oldBase, err := splitName(oldname)
	if err != nil {
		return renameError(oldname, newname, err)
	}
	newDir, newBase, err := splitName(newname)
	if err != nil {
		return renameError(oldname, newname, err)
	}
	od, err := f.root.OpenFile(oldDir, dirFlags, 0)
	if err != nil {
		return renameError(oldname, newname, unwrapPath(err))
	}
	defer od.Close()
	nd := od // one open when both names are in one directory (the lock's case)
	if newDir != oldDir {
		if nd, err = f.root.OpenFile(newDir, dirFlags, 0); err != nil {
			return renameError(oldname, newname, unwrapPath(err))
		}
		defer nd.Close()
	}
	// Both files stay open (and so their descriptors valid) until the
	// deferred Close calls, after the system call.
	if err := renameatNoReplace(int(od.Fd()), oldBase, int(nd.Fd()), newBase); err != nil {
		return renameError(oldname, newname, err)
	}
	return nil
}
