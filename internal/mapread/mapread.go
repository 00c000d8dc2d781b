// Package mapread reads a large file by mapping it into memory, the one
// place pa maps a file: the spawn-log's and the board's reads (jsondoc.Read,
// lockspec.UpdateMapped). The plain path beside it, which every FS that
// cannot map takes, reads the file into a buffer as [vfs.ReadFile] does.
//
// Why it is kept (bench: Growth, `pa dispatch open` at 100k records, time
// at most 3x writing that file once): on 2 cores, five runs interleaved,
// 1.81x-3.33x (median 2.41x) with the mapping against 4.56x-5.70x (median
// 5.18x) with both read into a buffer; peak memory 2.11x against
// 2.14x the file. Without it the goal fails.
//
// A mapping is read without a copy and without the page faults of a fresh
// buffer; its price is that a file cut short by another process while it is
// mapped faults on the lost pages. [Guard] turns that fault into an error
// wrapping [vfs.ErrChanged], and [Detach] copies out the bytes a result
// keeps before the mapping goes.
package mapread

import (
	"bytes"
	"io/fs"
	"math"
	"runtime/debug"
	"unsafe"

	"github.com/pa-toolkit/pa/vfs"
)

// Mapper is a [vfs.File] whose content can be mapped into memory read-only
// (the files of vfs/osfs on Unix).
type Mapper interface {
	// Map maps the first size bytes of the open file (size > 0) read-only
	// and returns them, with the function that unmaps them (after which
	// data must not be touched). The mapping outlives the file's Close.
	// It fails with an error matching errors.ErrUnsupported where the
	// system or the file cannot be mapped.
	Map(size int) (data []byte, unmap func() error, err error)
}

// File reads the whole file name as [vfs.ReadFile] does with no limit (a
// *fs.PathError wrapping [vfs.ErrNotRegular] for anything but a regular
// file), but by mapping it when its handle is a [Mapper], it is not empty,
// and its size is the same after the mapping as before; otherwise it reads
// it into a buffer, through the same handle. release is never nil: call it once when done with
// data, which must not be used after it (nor any slice of it); until then a
// fault touching data is only caught by [Guard].
func File(fsys vfs.FS, name string) (data []byte, release func(), fi fs.FileInfo, err error) {
	release = func() {}
	f, err := fsys.OpenFile(name, vfs.ReadFlags, 0)
	if err != nil {
		return nil, release, nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, release, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, release, nil, &fs.PathError{Op: "read", Path: name, Err: vfs.ErrNotRegular}
	}
	if m, ok := f.(Mapper); ok && fi.Size() > 0 && fi.Size() < math.MaxInt {
		if d, unmap, err := m.Map(int(fi.Size())); err == nil {
			if again, err := f.Stat(); err == nil && again.Size() == fi.Size() {
				return d, func() { _ = unmap() }, fi, nil
			}
			_ = unmap() // it changed size meanwhile: read what it holds now
		}
	}
	var b bytes.Buffer // the plain read, from the handle open already
	if fi.Size() >= 0 && fi.Size() < math.MaxInt32 {
		b.Grow(int(fi.Size()) + 1) // one allocation when the size holds
	}
	if _, err := b.ReadFrom(f); err != nil {
		return nil, release, nil, err
	}
	return b.Bytes(), release, fi, nil
}

// Guard runs f, and returns its error, with a fault touching data (a file
// [File] mapped, which another process cut short meanwhile: the pages past
// its new end are gone) turned into a *fs.PathError (Op "read", Path name)
// wrapping [vfs.ErrChanged] instead of a crash. Only f's own goroutine is
// guarded; any other panic goes on as it was.
func Guard(name string, data []byte, f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if faultIn(r, data) {
			err = &fs.PathError{Op: "read", Path: name, Err: vfs.ErrChanged}
			return
		}
		panic(r)
	}()
	return f()
}

// Go runs f in a goroutine of its own, where [Guard] does not reach, and
// returns the function that waits for f and gives its result: false, "not
// sure", when a fault touching data (a mapping cut short meanwhile) ended
// it, instead of a crash. The caller then reads data again in its own,
// guarded goroutine, which meets the same fault and reports it. Any other
// panic goes on.
func Go(data []byte, f func() bool) (wait func() bool) {
	done := make(chan bool, 1)
	go func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		ok := false
		defer func() {
			if r := recover(); r != nil && !faultIn(r, data) {
				// Not data's fault: the process crashes on it, and the
				// waiter is never told (it must not go on, as with "not
				// sure", while the crash is under way).
				panic(r)
			}
			done <- ok
		}()
		ok = f()
	}()
	return func() bool { return <-done }
}

// faultIn reports whether r, a value recovered from a panic, is a fault at
// an address in data's bytes.
func faultIn(r any, data []byte) bool {
	fault, ok := r.(interface{ Addr() uintptr })
	return ok && inside(fault.Addr(), data)
}

// inside reports whether addr is in data's bytes.
func inside(addr uintptr, data []byte) bool {
	if len(data) == 0 {
		return false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return base <= addr && addr-base < uintptr(len(data))
}
