//go:build unix

// Command burstanchor is the anchor of the harness's burst measure: the
// plain program a Go user would write to append to a log from many
// processes. Run as `burstanchor DIR ID`, it opens DIR/log.lock, takes a
// blocking flock(2) LOCK_EX on it (waiting in the kernel, with no
// timeout), then does a small read-modify-write of DIR/log.txt: reads it,
// appends the line ID, writes a temp file beside it, fsyncs it, renames it
// over the log and fsyncs the folder; it releases the lock, prints ID on
// stdout and exits 0 (1 with the error on stderr). The harness builds it at
// run time (go build), so its start-up is that of a small Go program.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: burstanchor DIR ID")
		os.Exit(1)
	}
	if err := appendLine(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "burstanchor: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(os.Args[2])
}

// appendLine appends the line id to dir/log.txt under the lock dir/log.lock.
func appendLine(dir, id string) error {
	lock, err := os.OpenFile(filepath.Join(dir, "log.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	fd := int(lock.Fd())
	if err := flock(fd, syscall.LOCK_EX); err != nil {
		return fmt.Errorf("flock: %w", err)
	}
	defer flock(fd, syscall.LOCK_UN)

	name := filepath.Join(dir, "log.txt")
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	data = append(data, id+"\n"...)
	tmp := name + ".tmp-" + strconv.Itoa(os.Getpid()) // only the holder writes it
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
		err = os.Rename(tmp, name)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// flock is flock(2), tried again when a signal interrupts the wait (the Go
// runtime's own signals do).
func flock(fd, how int) error {
	for {
		if err := syscall.Flock(fd, how); !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
