package crashfs

import (
	"os"
	"strings"
	"syscall"
)

// Rename moves oldname to newname, replacing a file or an empty folder
// there as Linux does. Errors are *os.LinkError: ENOENT when oldname or
// newname's parent is missing, EISDIR for a file onto a folder, ENOTDIR for
// a folder onto a file, ENOTEMPTY onto a folder that holds anything, EINVAL
// for a folder into itself.
func (f *FS) Rename(oldname, newname string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rename("rename", oldname, newname, true)
}

// RenameNoReplace moves oldname to newname unless newname exists: then it
// fails with an *os.LinkError matching fs.ErrExist (EEXIST) and nothing
// moves. Its other errors are Rename's.
func (f *FS) RenameNoReplace(oldname, newname string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rename("renamenoreplace", oldname, newname, false)
}

// rename is Rename and RenameNoReplace. Called with f.mu held.
func (f *FS) rename(opname, oldname, newname string, replace bool) error {
	fail := func(err error) error { return &os.LinkError{Op: opname, Old: oldname, New: newname, Err: err} }
	odir, ino, obase, err := f.lookup(oldname)
	if err != nil {
		return fail(err)
	}
	if oldname == "." {
		return fail(syscall.EBUSY)
	}
	ndir, nbase, err := f.parent(newname)
	if err != nil {
		return fail(err)
	}
	src := f.live.inodes[ino]
	if src.dir && (newname == oldname || strings.HasPrefix(newname, oldname+"/")) {
		if newname == oldname && replace {
			return nil
		}
		return fail(syscall.EINVAL)
	}
	rep, exists := f.live.inodes[ndir].entry(nbase)
	if exists {
		if !replace {
			return fail(syscall.EEXIST)
		}
		if rep == ino {
			return nil // the same file: POSIX does nothing
		}
		target := f.live.inodes[rep]
		switch {
		case target.dir && !src.dir:
			return fail(syscall.EISDIR)
		case !target.dir && src.dir:
			return fail(syscall.ENOTDIR)
		case target.dir && len(target.ents) > 0:
			return fail(syscall.ENOTEMPTY)
		}
	}
	f.record(&op{kind: opRename, label: opname + " " + oldname + " " + newname,
		dir: odir, name: obase, ino: ino, dir2: ndir, name2: nbase, rep: rep})
	return nil
}
