package probe

import (
	"path/filepath"

	"github.com/pa-toolkit/pa/vfs"
)

// osRooted is an FS whose names are paths under a folder of the real OS
// (*osfs.FS: Dir is the folder given to osfs.New).
type osRooted interface {
	Dir() string
}

// unwrapper is a wrapper FS that gives the FS it wraps (nolinkfs, faultfs
// and fusemodel do).
type unwrapper interface {
	Unwrap() vfs.FS
}

// osDir returns the folder of the real OS under which fsys's names lie,
// when fsys is an FS of the real OS (it has Dir() string, as *osfs.FS) or
// wraps one (through Unwrap() vfs.FS, any number of times); ok is false
// for any other FS.
func osDir(fsys vfs.FS) (dir string, ok bool) {
	for fsys != nil {
		if r, is := fsys.(osRooted); is {
			return r.Dir(), true
		}
		u, is := fsys.(unwrapper)
		if !is {
			break
		}
		fsys = u.Unwrap()
	}
	return "", false
}

// systemRenamer returns the rename the directory checks use: the system's
// own rename(2) in the probe's folder when that folder is on the real OS,
// so that a check reports the volume's answer. Go's os.Rename and
// os.Root.Rename refuse an existing directory as the new name with EEXIST
// before any system call, on every Unix, which would report Go instead of
// the volume. For any other FS it is nil: the checks go through the FS.
func (p *prober) systemRenamer() func(old, new string) error {
	root, ok := osDir(p.fsys)
	if !ok {
		return nil
	}
	folder := filepath.Join(root, filepath.FromSlash(p.dir))
	return func(old, new string) error { return sysRename(folder, old, new, p.path(old), p.path(new)) }
}
