//go:build unix && !linux

package osfs

import (
	"io/fs"
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

// readDir lists the directory name through an *os.File of its own
// descriptor (not a file of the root, which would lstat every entry): the
// entries whose names begin with one of prefixes (every entry when
// prefixes is nil), with the types the listing gives.
func (f *FS) readDir(name string, prefixes []string) ([]fs.DirEntry, error) {
	fd, err := f.openDirFD(name)
	if err != nil {
		return nil, err
	}
	d := os.NewFile(uintptr(fd), f.osName(name))
	defer d.Close()
	ents, err := d.ReadDir(-1)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			return nil, &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
		}
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	var vals []dirEntry
	for _, de := range ents {
		if prefixes != nil && !vfs.HasPrefix(de.Name(), prefixes) {
			continue
		}
		vals = append(vals, dirEntry{fsys: f, dir: name, name: de.Name(), typ: de.Type()})
	}
	return entries(vals), nil
}
