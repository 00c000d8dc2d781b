package faultfs

import (
	"io/fs"
	"os"
	"sync"

	"github.com/pa-toolkit/pa/vfs"
)

// FS is a [vfs.FS] that passes every call to the FS it wraps, unless a rule
// or a hook fails it. Its methods, rules and hooks are safe for concurrent
// use.
type FS struct {
	inner  vfs.FS
	prefix string // for an FS from OpenRoot: its directory's name in the first
	*shared
}

// shared are the rules, hooks and counts of an FS and of every FS its
// OpenRoot returns.
type shared struct {
	mu     sync.Mutex
	rules  []*rule
	before []Hook
	after  []Hook
	calls  map[call]int
}

var (
	_ vfs.FS                = (*FS)(nil)
	_ vfs.ChtimesFS         = (*FS)(nil)
	_ vfs.RenameNoReplaceFS = (*FS)(nil)
	_ vfs.WatchFS           = (*FS)(nil)
	_ vfs.QueueFS           = (*FS)(nil)
	_ vfs.OpenRootFS        = (*FS)(nil)
)

// New wraps inner, with no rules and no hooks.
func New(inner vfs.FS) *FS {
	return &FS{inner: inner, shared: &shared{calls: make(map[call]int)}}
}

// Unwrap returns the wrapped FS.
func (f *FS) Unwrap() vfs.FS { return f.inner }

// OpenFile opens name in the wrapped FS (operation [OpOpenFile]). The file
// it returns is wrapped: its Read, Write, Sync and Close are operations too.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	var file vfs.File
	err := f.do(Event{Op: OpOpenFile, Name: f.full(name), Flag: flag}, "open", func() (err error) {
		file, err = f.inner.OpenFile(name, flag, perm)
		return err
	})
	if err != nil {
		if file != nil { // opened, then failed by an After hook
			file.Close()
		}
		return nil, err
	}
	return &File{fs: f, name: f.full(name), inner: file}, nil
}

// Stat returns the file information of name in the wrapped FS (operation
// [OpStat]).
func (f *FS) Stat(name string) (fi fs.FileInfo, err error) {
	err = f.do(Event{Op: OpStat, Name: f.full(name)}, "stat", func() (err error) {
		fi, err = f.inner.Stat(name)
		return err
	})
	if err != nil {
		return nil, err
	}
	return fi, nil
}

// ReadDir lists the directory name of the wrapped FS (operation
// [OpReadDir]).
func (f *FS) ReadDir(name string) (entries []fs.DirEntry, err error) {
	err = f.do(Event{Op: OpReadDir, Name: f.full(name)}, "readdir", func() (err error) {
		entries, err = f.inner.ReadDir(name)
		return err
	})
	if err != nil {
		return nil, err
	}
	return entries, nil
}

// Mkdir creates the directory name in the wrapped FS (operation [OpMkdir]).
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	return f.do(Event{Op: OpMkdir, Name: f.full(name)}, "mkdir", func() error {
		return f.inner.Mkdir(name, perm)
	})
}

// Link links newname to oldname in the wrapped FS (operation [OpLink]).
// Injected errors are *os.LinkError.
func (f *FS) Link(oldname, newname string) error {
	return f.do(Event{Op: OpLink, Name: f.full(oldname), NewName: f.full(newname)}, "link", func() error {
		return f.inner.Link(oldname, newname)
	})
}

// Rename renames oldname to newname in the wrapped FS (operation
// [OpRename]). Injected errors are *os.LinkError.
func (f *FS) Rename(oldname, newname string) error {
	return f.do(Event{Op: OpRename, Name: f.full(oldname), NewName: f.full(newname)}, "rename", func() error {
		return f.inner.Rename(oldname, newname)
	})
}

// Remove removes name from the wrapped FS (operation [OpRemove]).
func (f *FS) Remove(name string) error {
	return f.do(Event{Op: OpRemove, Name: f.full(name)}, "remove", func() error {
		return f.inner.Remove(name)
	})
}

// full is name as the first FS names it: with the directory of an FS from
// OpenRoot before it.
func (f *FS) full(name string) string {
	switch {
	case f.prefix == "":
		return name
	case name == ".":
		return f.prefix
	}
	return f.prefix + "/" + name
}

// do makes one call: begin, then run unless begin failed it, then end.
func (f *FS) do(ev Event, opName string, run func() error) error {
	err := f.begin(ev, opName)
	switch {
	case err == errDropped:
		err = nil // a Drop rule: success, the call not run
	case err == nil:
		err = run()
	}
	return f.end(ev, opName, err)
}

// begin counts the call, runs the Before hooks, then the rules. It returns
// the injected error, wrapped, errDropped when a Drop rule matched, or nil
// when the operation is to run.
func (f *FS) begin(ev Event, opName string) error {
	f.count(ev.Op, ev.Name, ev.NewName)
	before, _ := f.hooks()
	for _, h := range before {
		if err := h(ev); err != nil {
			return wrap(ev, opName, err)
		}
	}
	if err := f.fault(ev.Op, ev.Name, ev.NewName); err != nil {
		if err == errDropped {
			return err
		}
		return wrap(ev, opName, err)
	}
	return nil
}

// end runs the After hooks on the result err and returns the final result.
func (f *FS) end(ev Event, opName string, err error) error {
	_, after := f.hooks()
	for _, h := range after {
		ev.Err = err
		if herr := h(ev); herr != nil {
			err = wrap(ev, opName, herr)
		}
	}
	return err
}

// wrap returns err as it is when it is already a *fs.PathError or
// *os.LinkError, and otherwise wrapped in the one the operation returns.
func wrap(ev Event, opName string, err error) error {
	switch err.(type) {
	case *fs.PathError, *os.LinkError:
		return err
	}
	if ev.Op.twoNames() {
		return &os.LinkError{Op: opName, Old: ev.Name, New: ev.NewName, Err: err}
	}
	return &fs.PathError{Op: opName, Path: ev.Name, Err: err}
}
