//go:build !unix

package osfs

import (
	"io/fs"
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

// dirAt has no descriptor to work from here: every call goes through the
// root.
type dirAt struct{}

func openDirAt(root *os.Root) dirAt { return dirAt{} }

func (dirAt) close() {}

func (f *FS) openAt(name string, flag int, perm fs.FileMode) (vfs.File, bool, error) {
	return nil, false, nil
}

// readDir lists the directory name through the root: the entries whose
// names begin with one of prefixes (every entry when prefixes is nil).
func (f *FS) readDir(name string, prefixes []string) ([]fs.DirEntry, error) {
	dir, err := f.root.Open(name)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	ents, err := dir.ReadDir(-1)
	if err != nil {
		// The open file's name is the absolute OS path; report the FS's.
		if pe, ok := err.(*fs.PathError); ok {
			return nil, &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	if prefixes != nil {
		ents = vfs.FilterPrefix(ents, prefixes)
	}
	return ents, nil
}

// openFolder opens the folder dir through the root.
func (f *FS) openFolder(dir string) (*os.File, error) { return f.root.Open(dir) }
