package crashfs

import (
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/pa-toolkit/pa/vfs"
)

// Doubled returns the two next boots of an exFAT volume on which the file
// name (its folders made and synced) held older, synced, and a rename of
// a synced temp file holding newer over it was cut after its new entry
// landed and before the replaced entry's removal: name's folder lists it
// twice, a whole copy under each entry. On olderFirst a lookup of name
// finds older, on newerFirst newer. older and newer must differ. An error
// says which step of the run failed, or that the cut gave no such state.
func Doubled(name string, older, newer []byte) (olderFirst, newerFirst *FS, err error) {
	if slices.Equal(older, newer) {
		return nil, nil, fmt.Errorf("crashfs: Doubled: the two copies of %s are the same", name)
	}
	fsys := New(Options{ExFAT: true, BlockSize: -1})
	dir, base := path.Split(name)
	made := ""
	for _, part := range strings.Split(strings.Trim(dir, "/"), "/") {
		if part == "" {
			continue
		}
		made = path.Join(made, part)
		if err := fsys.Mkdir(made, 0o755); err != nil {
			return nil, nil, err
		}
		if err := syncDir(fsys, path.Dir(made)); err != nil {
			return nil, nil, err
		}
	}
	steps := []func() error{
		func() error { return writeSynced(fsys, name, older) },
		func() error { return syncDir(fsys, path.Dir(name)) },
		func() error { return writeSynced(fsys, name+".tmp", newer) },
		func() error { return fsys.Rename(name+".tmp", name) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, nil, err
		}
	}
	cut, err := fsys.CutAt(fsys.Ops())
	if err != nil {
		return nil, nil, err
	}
	for _, st := range cut.States(nil, 0) {
		v := st.FS()
		entries, err := v.ReadDir(path.Dir(name))
		if err != nil {
			return nil, nil, err
		}
		if vfs.CountNamed(entries, base) != 2 {
			continue
		}
		f, err := v.OpenFile(name, os.O_RDONLY, 0)
		if err != nil {
			return nil, nil, err
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		if slices.Equal(data, older) {
			olderFirst = v
		} else {
			newerFirst = v
		}
	}
	if olderFirst == nil || newerFirst == nil {
		return nil, nil, fmt.Errorf("crashfs: Doubled: the cut inside the rename over %s gave no state listing it twice in each order", name)
	}
	return olderFirst, newerFirst, nil
}

// writeSynced makes the file name hold data, synced (not its folder).
func writeSynced(fsys *FS, name string, data []byte) error {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir syncs the folder dir, as vfs.SyncDir does.
func syncDir(fsys *FS, dir string) error {
	f, err := fsys.OpenFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
