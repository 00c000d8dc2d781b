package vfstest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"sync"
	"syscall"

	"github.com/pa-toolkit/pa/vfs"
)

// race runs fn(0..n-1) on n goroutines released together, and returns
// their results by index.
func race(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	return errs
}

// exclusiveCreate: an exclusive create of an existing name fails with
// EEXIST and leaves it whole; of many goroutines that create one name at
// once, exactly one wins, in every round, and the file holds its bytes.
func exclusiveCreate(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := fsys.Mkdir("d", 0o755); err != nil {
		return fmt.Errorf("Mkdir(d): %v", err)
	}
	f, err := fsys.OpenFile("d/x", createExcl, 0o644)
	if err != nil {
		return fmt.Errorf("the first exclusive create of d/x: %v", err)
	}
	_, err = io.WriteString(f, "first")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing d/x: %v", err)
	}
	_, err = fsys.OpenFile("d/x", createExcl, 0o644)
	if err := first(pathErr("an exclusive create of the existing d/x", err, "d/x", fs.ErrExist),
		wantContent(fsys, "d/x", "first", "after a second exclusive create")); err != nil {
		return err
	}
	n := e.opts.goroutines()
	for r := range e.opts.rounds() {
		name := fmt.Sprintf("d/race-%d", r)
		errs := race(n, func(i int) error {
			f, err := fsys.OpenFile(name, createExcl, 0o644)
			if err != nil {
				return err
			}
			_, err = io.WriteString(f, strconv.Itoa(i))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("the winner writing %s: %w", name, err)
			}
			return nil
		})
		won := -1
		wins := 0
		for i, err := range errs {
			if err == nil {
				won, wins = i, wins+1
				continue
			}
			if perr := pathErr("a losing exclusive create of "+name, err, name, fs.ErrExist); perr != nil {
				return fmt.Errorf("round %d: %v", r, perr)
			}
		}
		if wins != 1 {
			return fmt.Errorf("round %d: %d of %d goroutines created %s exclusively at once; want exactly 1", r, wins, n, name)
		}
		if err := wantContent(fsys, name, strconv.Itoa(won), fmt.Sprintf("round %d", r)); err != nil {
			return err
		}
	}
	return nil
}

// missingParent: a create, Mkdir, Rename or Link under a folder that does
// not exist fails with ENOENT (Link may instead be refused as no hard
// links) and makes nothing, the folder included; a create under a file
// fails too.
func missingParent(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := put(fsys, "f", "F"); err != nil {
		return err
	}
	_, cerr := fsys.OpenFile("missing/f", createExcl, 0o644)
	lerr := fsys.Link("f", "missing/g")
	if lerr != nil && vfs.NoHardLinks(lerr) {
		lerr = linkErr("Link(f, missing/g)", lerr, "f", "missing/g", nil)
	} else {
		lerr = linkErr("Link(f, missing/g)", lerr, "f", "missing/g", fs.ErrNotExist)
	}
	var underFile error
	if _, err := fsys.OpenFile("f/x", createExcl, 0o644); err == nil {
		underFile = errors.New("an exclusive create of f/x, under the file f, succeeded; want it to fail")
	}
	return first(
		pathErr("an exclusive create of missing/f", cerr, "missing/f", fs.ErrNotExist),
		pathErr("Mkdir(missing/d)", fsys.Mkdir("missing/d", 0o755), "missing/d", fs.ErrNotExist),
		linkErr("Rename(f, missing/f)", fsys.Rename("f", "missing/f"), "f", "missing/f", fs.ErrNotExist),
		lerr,
		wantMissing(fsys, "missing", "after a create, a Mkdir, a Rename and a Link under it"),
		wantContent(fsys, "f", "F", "after a Rename and a Link of it under a missing folder"),
		underFile,
	)
}

// link: with hard links, Link onto an existing name fails with EEXIST and
// leaves it whole, Link of a missing name fails with ENOENT (never read as
// no hard links), and of many Links onto one name at once exactly one wins.
// Without, every Link is refused with an error vfs.NoHardLinks reports,
// naming both names, and makes nothing.
func link(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := first(put(fsys, "a", "A"), put(fsys, "c", "C")); err != nil {
		return err
	}
	err = fsys.Link("a", "b")
	if err != nil {
		if !vfs.NoHardLinks(err) {
			return fmt.Errorf("Link(a, b) = %v; a refusal must be one vfs.NoHardLinks reports (anything but ENOENT or EEXIST)", err)
		}
		return first(
			linkErr("Link(a, b)", err, "a", "b", nil),
			wantMissing(fsys, "b", "after a refused Link(a, b)"),
			linkErrRefused(fsys.Link("a", "c"), "a", "c"),
			wantContent(fsys, "c", "C", "after Link(a, c) onto it"),
		)
	}
	if err := first(
		wantContent(fsys, "b", "A", "after Link(a, b)"),
		linkErr("Link(a, b) again", fsys.Link("a", "b"), "a", "b", fs.ErrExist),
		linkErr("Link(a, c) onto an existing file", fsys.Link("a", "c"), "a", "c", fs.ErrExist),
		wantContent(fsys, "c", "C", "after Link(a, c) onto it"),
		linkErr("Link(missing, z)", fsys.Link("missing", "z"), "missing", "z", fs.ErrNotExist),
	); err != nil {
		return err
	}
	n := e.opts.goroutines()
	for r := range e.opts.rounds() {
		name := fmt.Sprintf("race-%d", r)
		errs := race(n, func(int) error { return fsys.Link("a", name) })
		wins := 0
		for _, err := range errs {
			if err == nil {
				wins++
			} else if lerr := linkErr("a losing Link(a, "+name+")", err, "a", name, fs.ErrExist); lerr != nil {
				return fmt.Errorf("round %d: %v", r, lerr)
			}
		}
		if wins != 1 {
			return fmt.Errorf("round %d: %d of %d Links onto %s at once succeeded; want exactly 1", r, wins, n, name)
		}
	}
	return nil
}

// linkErrRefused checks a Link onto an existing name on a file system
// without hard links: refused like any other, or EEXIST.
func linkErrRefused(err error, oldname, newname string) error {
	if err != nil && !errors.Is(err, fs.ErrExist) && !vfs.NoHardLinks(err) {
		return fmt.Errorf("Link(%s, %s) = %v; want EEXIST or a refusal", oldname, newname, err)
	}
	return linkErr("Link("+oldname+", "+newname+") onto an existing file", err, oldname, newname, nil)
}

// listingAfterCreate: a listing taken right after a create has returned
// shows it, on many goroutines at once; listings are sorted; a removed or
// renamed name leaves the listing.
func listingAfterCreate(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := fsys.Mkdir("d", 0o755); err != nil {
		return fmt.Errorf("Mkdir(d): %v", err)
	}
	n := e.opts.goroutines()
	errs := race(n, func(i int) error {
		name := fmt.Sprintf("n-%02d", i)
		if err := vfs.WriteFileExclusive(fsys, "d/"+name, nil, 0o644, false); err != nil {
			return err
		}
		got, err := names(fsys, "d")
		if err != nil {
			return fmt.Errorf("ReadDir(d): %w", err)
		}
		for _, g := range got {
			if g == name {
				return nil
			}
		}
		return fmt.Errorf("the listing of d taken right after d/%s was created is %q: it misses it", name, got)
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	got, err := names(fsys, "d")
	if err != nil {
		return fmt.Errorf("ReadDir(d): %v", err)
	}
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("n-%02d", i))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("ReadDir(d) = %q; want %q, sorted", got, want)
	}
	if err := first(fsys.Remove("d/n-00"), fsys.Rename("d/n-01", "d/z-01")); err != nil {
		return err
	}
	got, err = names(fsys, "d")
	if err != nil {
		return fmt.Errorf("ReadDir(d): %v", err)
	}
	want = append(want[2:], "z-01")
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("ReadDir(d) after removing n-00 and renaming n-01 to z-01 = %q; want %q", got, want)
	}
	return nil
}

// syncs: File.Sync on a written file and vfs.SyncDir on a folder succeed.
func syncs(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := vfs.WriteFileExclusive(fsys, "f", []byte("x"), 0o644, true); err != nil {
		return fmt.Errorf("writing and syncing f: %v", err)
	}
	if err := vfs.SyncDir(fsys, "."); err != nil {
		return fmt.Errorf("SyncDir(.): %v", err)
	}
	return nil
}

// errorTypes: the failures no other check makes are *fs.PathError (or
// *os.LinkError) naming the caller's names and matching the sentinel.
func errorTypes(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := first(put(fsys, "f", "F"), fsys.Mkdir("d", 0o755)); err != nil {
		return err
	}
	_, serr := fsys.Stat("missing")
	_, oerr := fsys.OpenFile("missing", os.O_RDONLY, 0)
	_, rerr := fsys.ReadDir("missing")
	_, derr := fsys.OpenFile("d", os.O_WRONLY, 0)
	return first(
		pathErr("Stat(missing)", serr, "missing", fs.ErrNotExist),
		pathErr("OpenFile(missing)", oerr, "missing", fs.ErrNotExist),
		pathErr("ReadDir(missing)", rerr, "missing", fs.ErrNotExist),
		pathErr("Remove(missing)", fsys.Remove("missing"), "missing", fs.ErrNotExist),
		pathErr("Mkdir(d) of an existing directory", fsys.Mkdir("d", 0o755), "d", fs.ErrExist),
		pathErr("Mkdir(f) of an existing file", fsys.Mkdir("f", 0o755), "f", fs.ErrExist),
		linkErr("Rename(missing, x)", fsys.Rename("missing", "x"), "missing", "x", fs.ErrNotExist),
		pathErr("OpenFile(d) for writing, a directory", derr, "d", nil),
	)
}

// isNotEmpty reports whether err is the errno of Remove of a directory that
// holds something: ENOTEMPTY, or EEXIST, which POSIX allows too.
func isNotEmpty(err error) bool {
	return errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST) || isWindowsNotEmpty(err)
}
