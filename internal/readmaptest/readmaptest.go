//go:build unix

// Package readmaptest tests a Read that maps its file (mapread.File), as
// spawnlog.Read and board.Read do, in one way for both: the result
// outlives the mapping, a huge file that does not parse is refused without
// being read into memory, and a file cut short while it is parsed, or once
// it is parsed while the kept bytes are copied out, is an error wrapping
// vfs.ErrChanged, never a crash. It runs on osfs (which maps on Unix).
package readmaptest

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/pa-toolkit/pa/internal/mapread"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// Case is one Read under test.
type Case struct {
	// What names the file in messages: "spawn-log", "board".
	What string
	// Path is the file's name in the estate (slash-separated).
	Path string
	// File is a file of N elements in pa's own shape (the one the fast
	// scan keeps slices of).
	File []byte
	// N is how many elements (records, items) File holds.
	N int
	// Read reads the file through fsys and returns how many elements it
	// holds and its encoding as the package would write it again
	// (encode is called after Read has returned and unmapped the file).
	Read func(fsys vfs.FS) (n int, encode func() []byte, err error)
	// Corrupt is the error a file that does not parse matches.
	Corrupt error
	// AfterParse is the package's hook, run by Read between the parse and
	// the copy out of the mapping.
	AfterParse *func()
}

// Run runs every test of c, each a subtest.
func Run(t *testing.T, c Case) {
	t.Run("keeps-nothing-of-the-mapping", func(t *testing.T) { keepsNothing(t, c) })
	t.Run("huge-garbage-refused-unread", func(t *testing.T) { hugeGarbage(t, c, 0, 256<<20) })
	t.Run("huge-white-space-refused-uncopied", func(t *testing.T) { hugeGarbage(t, c, ' ', 32<<20) })
	t.Run("cut-while-parsed", func(t *testing.T) { cutWhileParsed(t, c) })
	t.Run("cut-after-the-parse", func(t *testing.T) { cutAfterParse(t, c) })
}

// The result outlives the mapping: the bytes it keeps for a rewrite were
// copied out before the unmap, so encoding it after Read returns reads
// them whole (a slice left in the mapping would fault here).
func keepsNothing(t *testing.T, c Case) {
	fsys, _ := write(t, c, c.File)
	n, encode, err := c.Read(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if n != c.N {
		t.Fatalf("Read: %d elements; want %d", n, c.N)
	}
	if got := encode(); string(got) != string(c.File) {
		t.Errorf("the %s read, encoded again after Read returned, differs from the file (%d bytes vs %d)", c.What, len(got), len(c.File))
	}
}

// A huge file that is not JSON is refused without being read into memory
// whole: 256 MiB of zeros (fill 0: a truncate, as a broken disk leaves)
// from its first bytes; 32 MiB of white space (fill ' ') once it is
// scanned, with no copy of it taken by encoding/json's decoder.
func hugeGarbage(t *testing.T, c Case, fill byte, size int64) {
	var data []byte
	if fill != 0 {
		data = bytes.Repeat([]byte{fill}, int(size))
	}
	fsys, name := write(t, c, data)
	if err := os.Truncate(name, size); err != nil {
		t.Fatal(err)
	}
	data = nil
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := c.Read(fsys)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, c.Corrupt) {
		t.Fatalf("Read of a huge file of %q: %v; want a corrupt %s", fill, err, c.What)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("Read of a huge file of %q allocated %d MiB; want it refused without a copy", fill, alloc>>20)
	}
}

// A file cut short while it is parsed is an error wrapping vfs.ErrChanged,
// not a crash (mapread.Guard around the parse).
func cutWhileParsed(t *testing.T, c Case) {
	fsys, name := write(t, c, c.File)
	if _, ok := any(&cutFile{}).(mapread.Mapper); !ok {
		t.Fatal("cutFile is no Mapper")
	}
	_, _, err := c.Read(cutAfterMap{FS: fsys, path: name})
	if !errors.Is(err, vfs.ErrChanged) {
		t.Fatalf("Read of a mapping cut short: %v; want an error wrapping vfs.ErrChanged", err)
	}
}

// A file cut short once it is parsed, while the bytes the result keeps are
// copied out of the mapping, is an error wrapping vfs.ErrChanged too, not a
// crash: the copy is guarded as the parse is.
func cutAfterParse(t *testing.T, c Case) {
	fsys, name := write(t, c, c.File)
	*c.AfterParse = func() {
		if err := os.Truncate(name, 0); err != nil {
			t.Error(err)
		}
	}
	defer func() { *c.AfterParse = func() {} }()
	_, _, err := c.Read(fsys)
	if !errors.Is(err, vfs.ErrChanged) {
		t.Fatalf("Read of a mapping cut short after the parse: %v; want an error wrapping vfs.ErrChanged", err)
	}
}

// write makes an osfs estate in a temp dir holding data at c.Path, and
// returns it and the file's real path.
func write(t *testing.T, c Case, data []byte) (vfs.FS, string) {
	t.Helper()
	dir := t.TempDir()
	fsys, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, filepath.FromSlash(c.Path))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return fsys, name
}

// cutAfterMap is an FS whose files are mapped as osfs maps them, but cut
// to nothing by another "process" just after mapread.File has checked the
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
	return f.File.(mapread.Mapper).Map(size)
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
