//go:build !windows

package osfs

// rename is os.Root.Rename: only Windows refuses a rename for another
// process's open handle.
func (f *FS) rename(oldname, newname string) error { return f.root.Rename(oldname, newname) }

func isSharingViolation(err error) bool { return false }
