package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
)

// UpdateFunc computes a file's new content from its current content
// (exists is false when there is none), as [locking.UpdateFunc] does.
type UpdateFunc = func(current []byte, exists bool) ([]byte, error)

// tempSeq makes the temp names of this process distinct.
var tempSeq atomic.Int64

// readModifyWrite is the write path of every contender but this project's
// (whose locking.Update has its own): read dir/name, compute fn, and commit
// the result by writeAtomic. The caller holds the lock, or none (the floor).
func readModifyWrite(dir string, fn UpdateFunc) error {
	current, err := os.ReadFile(filepath.Join(dir, dataName))
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	next, err := fn(current, exists)
	if err != nil {
		return err
	}
	return writeAtomic(dir, dataName, next)
}

// writeAtomic writes data to dir/name the way a careful program does it by
// hand: a temp file beside it (name.tmp-<pid>-<n>, created exclusively),
// written and fsynced, renamed over name, then the folder fsynced so that
// the rename is durable too. The temp file is removed when a step before the
// rename fails.
func writeAtomic(dir, name string, data []byte) error {
	tmp := filepath.Join(dir, name+".tmp-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatInt(tempSeq.Add(1), 10))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}

// syncDir fsyncs the folder dir, so that a rename in it is on disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("syncing the folder %s: %w", dir, err)
	}
	return nil
}
