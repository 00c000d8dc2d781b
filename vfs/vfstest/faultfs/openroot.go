package faultfs

import "github.com/pa-toolkit/pa/vfs"

// OpenRoot opens dir through the wrapped FS's [vfs.OpenRootFS] (operation
// [OpOpenRoot]) and returns it wrapped: the returned FS shares this FS's
// rules, hooks and counts, and names every call by its name in this FS
// (dir/name), so a rule or a hook sees a call made through it as it would
// see the same call made here. Its Close closes the wrapped root. When the
// wrapped FS lacks OpenRootFS the call fails with the *fs.PathError wrapping
// errors.ErrUnsupported of [vfs.OpenRoot].
func (f *FS) OpenRoot(dir string) (vfs.RootFS, error) {
	var root vfs.RootFS
	err := f.do(Event{Op: OpOpenRoot, Name: f.full(dir)}, "openroot", func() (err error) {
		root, err = vfs.OpenRoot(f.inner, dir)
		return err
	})
	if err != nil {
		if root != nil { // opened, then failed by an After hook
			root.Close()
		}
		return nil, err
	}
	return &rootFS{FS: &FS{inner: root, prefix: f.full(dir), shared: f.shared}, root: root}, nil
}

// rootFS is an FS returned by OpenRoot.
type rootFS struct {
	*FS
	root vfs.RootFS
}

// Close closes the wrapped root.
func (r *rootFS) Close() error { return r.root.Close() }
