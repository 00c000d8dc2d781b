package vfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// Windows' file index is a key only on a volume that opens files by id
// (NTFS, ReFS; not FAT or exFAT, whose index is a directory entry's place),
// and unless it names no file: 0 (no file ids on the volume) or 2^64-1 (no
// unique 64-bit id, MS-FSCC 2.1.9).
func TestKeyOfFileIndex(t *testing.T) {
	const (
		byID = 0x01000000 // FILE_SUPPORTS_OPEN_BY_FILE_ID
		ntfs = byID | 0x00000008 | 0x00000002 | 0x00000001
		fat  = 0x00000002 | 0x00000004 // case preserved, Unicode names
	)
	for _, c := range []struct {
		flags, serial, high, low uint32
		want                     vfs.FileKey
		ok                       bool
	}{
		{ntfs, 0x1234abcd, 0x00010000, 0x0000002a, vfs.FileKey{Dev: 0x1234abcd, Ino: 0x000100000000002a}, true},
		{byID, 0, 0, 1, vfs.FileKey{Dev: 0, Ino: 1}, true},
		{ntfs, 0xffffffff, 0xffffffff, 0xfffffffe, vfs.FileKey{Dev: 0xffffffff, Ino: 0xfffffffffffffffe}, true},
		{ntfs, 0x1234abcd, 0, 0, vfs.FileKey{}, false},
		{ntfs, 0x1234abcd, 0xffffffff, 0xffffffff, vfs.FileKey{}, false},
		{fat, 0x1234abcd, 0x00010000, 0x0000002a, vfs.FileKey{}, false},
		{0, 0x1234abcd, 0, 7, vfs.FileKey{}, false},
	} {
		key, ok := vfs.KeyOfFileIndex(c.flags, c.serial, c.high, c.low)
		if key != c.want || ok != c.ok {
			t.Errorf("KeyOfFileIndex(%#x, %#x, %#x, %#x) = %+v, %v; want %+v, %v", c.flags, c.serial, c.high, c.low, key, ok, c.want, c.ok)
		}
	}
}

// keyedFile is a file whose handle says key (or fails with err).
type keyedFile struct {
	vfs.File
	key vfs.FileKey
	err error
}

func (f keyedFile) FileKey() (vfs.FileKey, error) { return f.key, f.err }

// sysInfo is a FileInfo whose stat data is sys.
type sysInfo struct {
	fs.FileInfo
	sys any
}

func (i sysInfo) Sys() any { return i.sys }

// KeyOfFile takes the handle's key first, and the stat data's where the
// handle says none (no FileKeyer, an error, an inode of 0).
func TestKeyOfFile(t *testing.T) {
	o, dir := newOS(t)
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	f, err := o.OpenFile("f", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	statKey, statOK := vfs.KeyOf(fi)
	handle := vfs.FileKey{Dev: 7, Ino: 42}
	for _, c := range []struct {
		what string
		f    vfs.File
		fi   fs.FileInfo
		want vfs.FileKey
		ok   bool
	}{
		{"the handle's key", keyedFile{File: f, key: handle}, fi, handle, true},
		{"the handle's key, no stat data", keyedFile{File: f, key: handle}, nil, handle, true},
		{"the handle fails: the stat data's", keyedFile{File: f, err: errors.ErrUnsupported}, fi, statKey, statOK},
		{"the handle says inode 0: the stat data's", keyedFile{File: f}, fi, statKey, statOK},
		{"the handle fails, no stat data", keyedFile{File: f, err: errors.ErrUnsupported}, sysInfo{fi, nil}, vfs.FileKey{}, false},
		{"no FileKeyer: the stat data's", struct{ vfs.File }{f}, fi, statKey, statOK},
	} {
		key, ok := vfs.KeyOfFile(c.f, c.fi)
		if key != c.want || ok != c.ok {
			t.Errorf("%s: KeyOfFile = %+v, %v; want %+v, %v", c.what, key, ok, c.want, c.ok)
		}
	}
	// osfs's own file: on Unix the stat data's key (no FileKeyer), on
	// Windows the handle's; a key either way.
	if key, ok := vfs.KeyOfFile(f, fi); !ok || key.Ino == 0 {
		t.Errorf("KeyOfFile of an osfs file = %+v, %v; want a key", key, ok)
	} else if runtime.GOOS != "windows" && key != statKey {
		t.Errorf("KeyOfFile of an osfs file = %+v; want the stat data's %+v", key, statKey)
	}
	if _, isKeyer := f.(vfs.FileKeyer); isKeyer != (runtime.GOOS == "windows") {
		t.Errorf("osfs's file is a FileKeyer: %v; want %v (only on Windows)", isKeyer, runtime.GOOS == "windows")
	}
}

// KeyOfName is the key of the file the name leads to, the one its open
// handle has; a name gone is fs.ErrNotExist.
func TestKeyOfName(t *testing.T) {
	o, dir := newOS(t)
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	f, err := o.OpenFile("f", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	want, _ := vfs.KeyOfFile(f, fi)
	key, ok, err := vfs.KeyOfName(o, "f")
	if err != nil || !ok || key != want {
		t.Errorf("KeyOfName(f) = %+v, %v, %v; want %+v, true, nil", key, ok, err, want)
	}
	if _, ok, err := vfs.KeyOfName(o, "gone"); ok || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("KeyOfName(gone) = %v, %v; want not ok, fs.ErrNotExist", ok, err)
	}
}

// windowsLike is an FS whose stat data carries no key and whose files say
// key from their handle, as osfs does on Windows; it counts the handles
// still open.
type windowsLike struct {
	vfs.FS
	key  vfs.FileKey
	open *int
}

func (w windowsLike) Stat(name string) (fs.FileInfo, error) {
	fi, err := w.FS.Stat(name)
	if err != nil {
		return nil, err
	}
	return sysInfo{fi, nil}, nil
}

func (w windowsLike) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := w.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	*w.open++
	return countedFile{keyedFile{File: f, key: w.key}, w.open}, nil
}

type countedFile struct {
	keyedFile
	open *int
}

func (f countedFile) Close() error { *f.open--; return f.keyedFile.Close() }

// Where the stat data carries no key, KeyOfName opens the name and asks
// the handle, then closes it.
func TestKeyOfNameFromTheHandle(t *testing.T) {
	o, dir := newOS(t)
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	open := 0
	w := windowsLike{FS: o, key: vfs.FileKey{Dev: 3, Ino: 99}, open: &open}
	key, ok, err := vfs.KeyOfName(w, "f")
	if err != nil || !ok || key != w.key {
		t.Errorf("KeyOfName = %+v, %v, %v; want %+v, true, nil", key, ok, err, w.key)
	}
	if open != 0 {
		t.Errorf("%d handles left open by KeyOfName; want 0", open)
	}
}
