package vfstest

import (
	"io/fs"
	"path"
	"strings"

	"github.com/pa-toolkit/pa/vfs"
)

// FoldCase returns fsys as a volume that ignores case and keeps it, as
// exFAT, NTFS and APFS do by default: each segment of a name is the entry
// of its folder spelled so, or else the first entry equal to it under
// case folding (strings.EqualFold), or else the segment as given (a create
// keeps the case it is given). It hides every optional interface. Errors are
// fsys's, naming the caller's names.
func FoldCase(fsys vfs.FS) vfs.FS { return foldCase{fsys} }

type foldCase struct{ fsys vfs.FS }

// resolve is name as fsys spells it.
func (f foldCase) resolve(name string) string {
	if name == "." || name == "" {
		return name
	}
	dir := "."
	for _, seg := range strings.Split(name, "/") {
		dir = path.Join(dir, f.segment(dir, seg))
	}
	return dir
}

func (f foldCase) segment(dir, seg string) string {
	entries, err := f.fsys.ReadDir(dir)
	if err != nil {
		return seg
	}
	folded := ""
	for _, e := range entries {
		switch {
		case e.Name() == seg:
			return seg
		case folded == "" && strings.EqualFold(e.Name(), seg):
			folded = e.Name()
		}
	}
	if folded != "" {
		return folded
	}
	return seg
}

// named puts the caller's name back in a *fs.PathError.
func named(err error, name string) error {
	if pe, ok := err.(*fs.PathError); ok {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return err
}

func (f foldCase) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	file, err := f.fsys.OpenFile(f.resolve(name), flag, perm)
	return file, named(err, name)
}

func (f foldCase) Stat(name string) (fs.FileInfo, error) {
	fi, err := f.fsys.Stat(f.resolve(name))
	return fi, named(err, name)
}

func (f foldCase) Lstat(name string) (fs.FileInfo, error) {
	fi, err := f.fsys.Lstat(f.resolve(name))
	return fi, named(err, name)
}

func (f foldCase) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := f.fsys.ReadDir(f.resolve(name))
	return entries, named(err, name)
}

func (f foldCase) Mkdir(name string, perm fs.FileMode) error {
	return named(f.fsys.Mkdir(f.resolve(name), perm), name)
}

func (f foldCase) Link(oldname, newname string) error {
	return f.fsys.Link(f.resolve(oldname), f.resolve(newname))
}

func (f foldCase) Rename(oldname, newname string) error {
	return f.fsys.Rename(f.resolve(oldname), f.resolve(newname))
}

func (f foldCase) Remove(name string) error {
	return named(f.fsys.Remove(f.resolve(name)), name)
}
