package vfs

import (
	"errors"
	"io/fs"
	"math"
	"runtime/debug"
	"unsafe"
)

// Mapper is a [File] whose content can be mapped into memory read-only
// (the files of vfs/osfs on Unix). A mapping costs no copy and none of the
// page faults of a fresh buffer: it is how a large file is read once
// cheaply (bench: Growth).
type Mapper interface {
	// Map maps the first size bytes of the open file (size > 0) read-only
	// and returns them, with the function that unmaps them (after which
	// data must not be touched). The mapping outlives the file's Close.
	// It fails with an error matching errors.ErrUnsupported where the
	// system or the file cannot be mapped.
	Map(size int) (data []byte, unmap func() error, err error)
}

// ErrChanged is wrapped by [GuardMapped] when a mapped file was cut short
// while it was read: another process wrote it in place.
var ErrChanged = errors.New("file cut short while it was read")

// MapFile reads the whole file name as [ReadFile] does with no limit (a
// *fs.PathError wrapping [ErrNotRegular] for anything but a regular file),
// but by mapping it when its handle is a [Mapper] and it is not empty, and
// its size is the same after the mapping as before; otherwise it reads it
// into a buffer. release is never nil: call it once when done with data,
// which must not be used after it (nor any slice of it); until then a
// fault touching data is only caught by [GuardMapped].
func MapFile(fsys FS, name string) (data []byte, release func(), fi fs.FileInfo, err error) {
	release = func() {}
	f, err := fsys.OpenFile(name, ReadFlags, 0)
	if err != nil {
		return nil, release, nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, release, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, release, nil, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	if m, ok := f.(Mapper); ok && fi.Size() > 0 && fi.Size() < math.MaxInt {
		if d, unmap, err := m.Map(int(fi.Size())); err == nil {
			if again, err := f.Stat(); err == nil && again.Size() == fi.Size() {
				return d, func() { _ = unmap() }, fi, nil
			}
			_ = unmap() // it changed size meanwhile: read what it holds now
		}
	}
	data, err = readAll(f, fi.Size(), 0)
	if err != nil {
		return nil, release, nil, err
	}
	return data, release, fi, nil
}

// GuardMapped runs f, and returns its error, with a fault touching data (a
// file [MapFile] mapped, which another process cut short meanwhile: the
// pages past its new end are gone) turned into a *fs.PathError (Op "read",
// Path name) wrapping [ErrChanged] instead of a crash. Only f's own
// goroutine is guarded; any other panic goes on as it was.
func GuardMapped(name string, data []byte, f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if fault, ok := r.(interface{ Addr() uintptr }); ok && inside(fault.Addr(), data) {
			err = &fs.PathError{Op: "read", Path: name, Err: ErrChanged}
			return
		}
		panic(r)
	}()
	return f()
}

// inside reports whether addr is in data's bytes.
func inside(addr uintptr, data []byte) bool {
	if len(data) == 0 {
		return false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return base <= addr && addr-base < uintptr(len(data))
}
