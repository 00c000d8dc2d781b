package vfs_test

import (
	"errors"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func TestSyncDirToleratesRefusal(t *testing.T) {
	o, _ := newOS(t)
	if err := vfs.SyncDir(o, "."); err != nil {
		t.Fatal(err)
	}
	f := faultfs.New(o)
	f.Fail(faultfs.Rule{Op: faultfs.OpSync, Err: syscall.EINVAL})
	if err := vfs.SyncDir(f, "."); err != nil {
		t.Fatalf("EINVAL from a directory fsync is the volume refusing it: %v", err)
	}
	f.Clear()
	f.Fail(faultfs.Rule{Op: faultfs.OpSync, Err: syscall.EIO})
	if err := vfs.SyncDir(f, "."); !errors.Is(err, syscall.EIO) {
		t.Fatalf("EIO from a directory fsync: %v, want it returned", err)
	}
}
