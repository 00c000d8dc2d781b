//go:build unix

package board

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// cutAfterMap is an FS whose files are mapped as osfs maps them, but cut
// to nothing by another "process" just after vfs.MapFile has checked the
// size (its second Stat): the mapping's pages are gone when it is read.
type cutAfterMap struct {
	vfs.FS
	path string // the file's real path, for os.Truncate
}

func (c cutAfterMap) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := c.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &cutFile{File: f, path: c.path}, nil
}

type cutFile struct {
	vfs.File
	path  string
	stats int
	first fs.FileInfo
}

func (f *cutFile) Map(size int) ([]byte, func() error, error) {
	return f.File.(vfs.Mapper).Map(size)
}

func (f *cutFile) Stat() (fs.FileInfo, error) {
	f.stats++
	if f.stats == 1 {
		fi, err := f.File.Stat()
		f.first = fi
		return fi, err
	}
	if err := os.Truncate(f.path, 0); err != nil {
		return nil, err
	}
	return f.first, nil // the size checked before the cut
}

// Read of a mapped board cut short while it is parsed is an error
// wrapping vfs.ErrChanged, not a crash (vfs.GuardMapped around the parse).
func TestReadOfAMappingCutShortIsAnError(t *testing.T) {
	dir := t.TempDir()
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := writeBoard(t, dir, benchBoard(2000))
	if _, ok := any(&cutFile{}).(vfs.Mapper); !ok {
		t.Fatal("cutFile is no Mapper")
	}
	_, err = Read(cutAfterMap{FS: o, path: name}, "demo")
	if !errors.Is(err, vfs.ErrChanged) {
		t.Fatalf("Read of a mapping cut short: %v; want an error wrapping vfs.ErrChanged", err)
	}
}

// Read of a mapped board cut short once it is parsed, while the bytes the
// result keeps are copied out of the mapping, is an error wrapping
// vfs.ErrChanged too, not a crash: the copy is guarded as the parse is.
func TestReadOfAMappingCutAfterTheParseIsAnError(t *testing.T) {
	dir := t.TempDir()
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := writeBoard(t, dir, benchBoard(2000))
	afterParse = func() {
		if err := os.Truncate(name, 0); err != nil {
			t.Error(err)
		}
	}
	defer func() { afterParse = func() {} }()
	_, err = Read(o, "demo")
	if !errors.Is(err, vfs.ErrChanged) {
		t.Fatalf("Read of a mapping cut short after the parse: %v; want an error wrapping vfs.ErrChanged", err)
	}
}
