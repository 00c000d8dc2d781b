package osfs

import "time"

// Chtimes sets the access and modification times of name, following
// symbolic links that stay inside the root. A zero time.Time leaves that
// time unchanged. Errors are *fs.PathError.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	return f.root.Chtimes(name, atime, mtime)
}
