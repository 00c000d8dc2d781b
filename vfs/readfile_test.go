package vfs_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func newOS(t *testing.T) (*osfs.FS, string) {
	t.Helper()
	dir := t.TempDir()
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return o, dir
}

// ReadFile allocates its buffer once, from the file's size: one byte more
// than the file, never grown (bench: Growth; nothing read grows faster
// than the file).
func TestReadFileAllocatesOnceFromTheSize(t *testing.T) {
	o, dir := newOS(t)
	for _, n := range []int{0, 1, 511, 512, 513, 1 << 20, 3<<20 + 7} {
		want := bytes.Repeat([]byte("x"), n)
		if err := os.WriteFile(filepath.Join(dir, "f"), want, 0o644); err != nil {
			t.Fatal(err)
		}
		b, fi, err := vfs.ReadFile(o, "f", 0)
		if err != nil || !bytes.Equal(b, want) || fi.Size() != int64(n) {
			t.Fatalf("%d bytes: ReadFile = %d bytes, %v", n, len(b), err)
		}
		if wantCap := max(n+1, 512); cap(b) != wantCap {
			t.Errorf("%d bytes: the buffer has room for %d; want %d (the size and one byte, allocated once)", n, cap(b), wantCap)
		}
	}
}

// staleSize is an FS whose files report the size size, whatever they
// hold: a file that grew (or shrank) after its size was read.
type staleSize struct {
	vfs.FS
	size  int64
	chunk int  // the most one Read returns (0: as much as asked)
	read  *int // bytes read through it
}

func (s staleSize) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := s.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return staleFile{f, s}, nil
}

type staleFile struct {
	vfs.File
	s staleSize
}

func (f staleFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	return sizedInfo{fi, f.s.size}, err
}

func (f staleFile) Read(p []byte) (int, error) {
	if f.s.chunk > 0 {
		p = p[:min(len(p), f.s.chunk)] // a reader may return less than asked
	}
	n, err := f.File.Read(p)
	*f.s.read += n
	return n, err
}

type sizedInfo struct {
	fs.FileInfo
	size int64
}

func (i sizedInfo) Size() int64 { return i.size }

// A file that grew after the handle's size was read is still read whole,
// and the limit still holds: a file over it fails with ErrTooLarge after at
// most limit+1 bytes were read.
func TestReadFileOfAFileThatGrew(t *testing.T) {
	o, dir := newOS(t)
	want := bytes.Repeat([]byte("0123456789"), 300)
	if err := os.WriteFile(filepath.Join(dir, "f"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		size  int64
		chunk int
	}{{0, 0}, {0, 1}, {10, 0}, {10, 7}, {600, 0}, {2999, 0}, {3000, 0}, {5000, 0}, {5000, 1}} {
		size := tc.size
		read := 0
		fsys := staleSize{o, size, tc.chunk, &read}
		if b, _, err := vfs.ReadFile(fsys, "f", 0); err != nil || !bytes.Equal(b, want) {
			t.Errorf("size %d reported: ReadFile = %d bytes, %v; want all 3000", size, len(b), err)
		}
		if b, _, err := vfs.ReadFile(fsys, "f", 3000); err != nil || !bytes.Equal(b, want) {
			t.Errorf("size %d reported, limit 3000: ReadFile = %d bytes, %v; want all 3000", size, len(b), err)
		}
		for _, limit := range []int{100, 2000} {
			read = 0
			if _, _, err := vfs.ReadFile(fsys, "f", int64(limit)); !errors.Is(err, vfs.ErrTooLarge) || read > limit+1 {
				t.Errorf("size %d reported, limit %d: ReadFile = %v after %d bytes read; want ErrTooLarge after at most %d", size, limit, err, read, limit+1)
			}
		}
	}
}

// WritePartsExclusive writes its parts one after the other, exclusively; a
// part whose write fails ends it with the error, the file left in place
// for the caller to remove.
func TestWritePartsExclusive(t *testing.T) {
	o, dir := newOS(t)
	for name, parts := range map[string][][]byte{
		"none": nil, "one": {[]byte("a")}, "three": {[]byte("ab"), nil, []byte("c"), []byte(""), []byte("def")},
	} {
		if err := vfs.WritePartsExclusive(o, name, 0o644, true, parts...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != string(bytes.Join(parts, nil)) {
			t.Errorf("%s: the file holds %q; want %q", name, b, bytes.Join(parts, nil))
		}
		if err := vfs.WritePartsExclusive(o, name, 0o644, false, []byte("x")); !errors.Is(err, fs.ErrExist) {
			t.Errorf("%s: a second create = %v; want fs.ErrExist", name, err)
		}
	}
	ffs := faultfs.New(o)
	writes := 0
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpWrite {
			if writes++; writes == 2 {
				return syscall.ENOSPC
			}
		}
		return nil
	})
	err := vfs.WritePartsExclusive(ffs, "failed", 0o644, true, []byte("one"), []byte("two"), []byte("three"))
	if !errors.Is(err, syscall.ENOSPC) || writes != 2 {
		t.Errorf("the second part's write fails: %v after %d writes; want ENOSPC, and no write after it", err, writes)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "failed")); err != nil || string(b) != "one" {
		t.Errorf("after the failed write the file holds %q, %v; want it left with the first part", b, err)
	}
}

func TestReadFileLimit(t *testing.T) {
	o, dir := newOS(t)
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, fi, err := vfs.ReadFile(o, "f", 10); err != nil || string(b) != "0123456789" || fi.Size() != 10 {
		t.Fatalf("ReadFile at the limit = %q, %v", b, err)
	}
	if _, _, err := vfs.ReadFile(o, "f", 9); !errors.Is(err, vfs.ErrTooLarge) {
		t.Fatalf("ReadFile over the limit: %v, want ErrTooLarge", err)
	}
	if _, _, err := vfs.ReadFile(o, "missing", 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

func TestWriteFileExclusive(t *testing.T) {
	o, dir := newOS(t)
	if err := vfs.WriteFileExclusive(o, "f", []byte("x"), 0o644, true); err != nil {
		t.Fatal(err)
	}
	if err := vfs.WriteFileExclusive(o, "f", []byte("y"), 0o644, false); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second create: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "x" {
		t.Fatalf("content %q", b)
	}
}
