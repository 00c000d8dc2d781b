//go:build unix

package main

import (
	"fmt"
	"os"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sharedPage is a small file mapped into both processes of a handoff
// (mmap MAP_SHARED): the holder stores t0 there just before its release, and
// the process that acquires next loads it, and takes the next handoff
// number, without a system call between the two clock readings.
type sharedPage struct {
	mem []byte
}

// sharedSize is the size of the shared file: one page.
const sharedSize = 4096

// createShared makes the shared file at path, zeroed, for openShared.
func createShared(path string) error {
	return os.WriteFile(path, make([]byte, sharedSize), 0o600)
}

// openShared maps the shared file at path.
func openShared(path string) (*sharedPage, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mem, err := unix.Mmap(int(f.Fd()), 0, sharedSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mmap %s: %w", path, err)
	}
	return &sharedPage{mem: mem}, nil
}

// word is the 8-byte word at offset off (the mapping is page-aligned, so
// every multiple of 8 is aligned for atomics).
func (s *sharedPage) word(off int) *atomic.Int64 {
	return (*atomic.Int64)(unsafe.Pointer(&s.mem[off]))
}

// setT0 stores the holder's t0 (CLOCK_MONOTONIC ns).
func (s *sharedPage) setT0(t int64) { s.word(0).Store(t) }

// t0 loads the last holder's t0.
func (s *sharedPage) t0() int64 { return s.word(0).Load() }

// nextSeq takes the next handoff number: 1, 2, ...
func (s *sharedPage) nextSeq() int64 { return s.word(8).Add(1) }

// close unmaps the file.
func (s *sharedPage) close() error { return unix.Munmap(s.mem) }
