//go:build unix

package osfs

import (
	"io/fs"
	"path"
)

// dirEntry is an entry of a listing of an [FS]: its type is the one the
// listing gave (or one lstat, where the volume gives none), and its Info
// stats through the root, so that nothing outside the root is ever
// stat'ed.
type dirEntry struct {
	fsys *FS
	dir  string // the listed directory, in the FS
	name string
	typ  fs.FileMode
}

func (d *dirEntry) Name() string               { return d.name }
func (d *dirEntry) IsDir() bool                { return d.typ.IsDir() }
func (d *dirEntry) Type() fs.FileMode          { return d.typ }
func (d *dirEntry) Info() (fs.FileInfo, error) { return d.fsys.root.Lstat(path.Join(d.dir, d.name)) }
func (d *dirEntry) String() string             { return fs.FormatDirEntry(d) }

// entries returns the entries as fs.DirEntry, nil when there are none.
func entries(vals []dirEntry) []fs.DirEntry {
	if len(vals) == 0 {
		return nil
	}
	out := make([]fs.DirEntry, len(vals))
	for i := range vals {
		out[i] = &vals[i]
	}
	return out
}
