package vfstest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// renameOverFile: a file renamed over another replaces it whole, and the
// old name is gone.
func renameOverFile(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := first(put(fsys, "a", "the new bytes"), put(fsys, "b", "old")); err != nil {
		return err
	}
	if err := fsys.Rename("a", "b"); err != nil {
		return fmt.Errorf("Rename(a, b) over a file: %v", err)
	}
	return first(
		wantContent(fsys, "b", "the new bytes", "after Rename(a, b)"),
		wantMissing(fsys, "a", "after Rename(a, b)"),
	)
}

// renameRace: of many renames of one name to several names at once, in
// every round exactly one succeeds and the others fail with ENOENT; the
// file is whole under the winner's name.
func renameRace(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	n := e.opts.goroutines()
	for r := range e.opts.rounds() {
		src := fmt.Sprintf("src-%d", r)
		if err := put(fsys, src, src); err != nil {
			return err
		}
		dst := func(i int) string { return fmt.Sprintf("dst-%d-%d", r, i) }
		errs := race(n, func(i int) error { return fsys.Rename(src, dst(i)) })
		won := -1
		wins := 0
		for i, err := range errs {
			if err == nil {
				won, wins = i, wins+1
				continue
			}
			if lerr := linkErr("a losing Rename("+src+", "+dst(i)+")", err, src, dst(i), fs.ErrNotExist); lerr != nil {
				return fmt.Errorf("round %d: %v", r, lerr)
			}
		}
		if wins != 1 {
			return fmt.Errorf("round %d: %d of %d renames of %s at once succeeded; want exactly 1", r, wins, n, src)
		}
		if err := first(
			wantContent(fsys, dst(won), src, fmt.Sprintf("round %d", r)),
			wantMissing(fsys, src, fmt.Sprintf("round %d", r)),
		); err != nil {
			return err
		}
	}
	return nil
}

// renameOntoDirectory: a file renamed onto a directory, empty or not,
// fails, and both stay as they were.
func renameOntoDirectory(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := first(put(fsys, "f", "F"), fsys.Mkdir("empty", 0o755), fsys.Mkdir("full", 0o755), put(fsys, "full/g", "G")); err != nil {
		return err
	}
	return first(
		linkErr("Rename(f, empty), a file onto a directory", fsys.Rename("f", "empty"), "f", "empty", nil),
		linkErr("Rename(f, full), a file onto a directory that holds a file", fsys.Rename("f", "full"), "f", "full", nil),
		wantDir(fsys, "empty", "after renaming a file onto it"),
		wantContent(fsys, "full/g", "G", "after renaming a file onto full"),
		wantContent(fsys, "f", "F", "after renaming it onto directories"),
	)
}

// removeNotEmpty: Remove of a directory that holds a file fails
// (ENOTEMPTY) and removes nothing; once empty it goes.
func removeNotEmpty(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := first(fsys.Mkdir("d", 0o755), put(fsys, "d/f", "F")); err != nil {
		return err
	}
	err = fsys.Remove("d")
	if perr := pathErr("Remove(d) of a directory holding d/f", err, "d", nil); perr != nil {
		return perr
	}
	if !isNotEmpty(err) {
		return fmt.Errorf("Remove(d) of a directory holding d/f = %v; want ENOTEMPTY (or EEXIST)", err)
	}
	if err := first(
		wantDir(fsys, "d", "after a refused Remove"),
		wantContent(fsys, "d/f", "F", "after a refused Remove(d)"),
	); err != nil {
		return err
	}
	if err := first(fsys.Remove("d/f"), fsys.Remove("d")); err != nil {
		return fmt.Errorf("removing d/f, then the empty d: %v", err)
	}
	return wantMissing(fsys, "d", "after Remove(d)")
}

// openFile: an open file is the file, not its name. A reader opened before
// a rename over its name reads the bytes it opened; a write through a
// handle whose name was removed or replaced never lands under that name;
// one whose file was renamed lands in the file under its new name.
func openFile(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if err := first(put(fsys, "f", "old"), put(fsys, "g", "new")); err != nil {
		return err
	}
	r, err := fsys.OpenFile("f", os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	fi, err := r.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != 3 || fi.Name() != "f" {
		r.Close()
		return fmt.Errorf("Stat of the open f = %v, %v; want a regular file named f of 3 bytes", fi, err)
	}
	if err := fsys.Rename("g", "f"); err != nil {
		r.Close()
		return fmt.Errorf("Rename(g, f) while f is open: %v", err)
	}
	b := make([]byte, 16)
	n, err := r.Read(b)
	r.Close()
	if string(b[:n]) != "old" {
		return fmt.Errorf("a reader of f opened before Rename(g, f) read %q, %v; want the bytes it opened, %q", b[:n], err, "old")
	}

	// removed, then written
	w, err := fsys.OpenFile("h", createExcl, 0o644)
	if err != nil {
		return err
	}
	if err := fsys.Remove("h"); err != nil {
		w.Close()
		return fmt.Errorf("Remove(h) while h is open: %v", err)
	}
	_, _ = w.Write([]byte("late"))
	_ = w.Close()
	if err := wantMissing(fsys, "h", "after a write through a handle of the removed h"); err != nil {
		return err
	}

	// replaced, then written
	w, err = fsys.OpenFile("k", createExcl, 0o644)
	if err != nil {
		return err
	}
	if err := first(put(fsys, "k2", "the other file"), fsys.Rename("k2", "k")); err != nil {
		w.Close()
		return err
	}
	_, _ = w.Write([]byte("late"))
	_ = w.Close()
	if err := wantContent(fsys, "k", "the other file", "after a write through a handle of the k it replaced"); err != nil {
		return err
	}

	// renamed, then written
	w, err = fsys.OpenFile("m", createExcl, 0o644)
	if err != nil {
		return err
	}
	if err := fsys.Rename("m", "m2"); err != nil {
		w.Close()
		return err
	}
	_, werr := w.Write([]byte("moved"))
	cerr := w.Close()
	if err := errors.Join(werr, cerr); err != nil {
		return fmt.Errorf("writing through a handle of m after Rename(m, m2): %v", err)
	}
	return first(
		wantMissing(fsys, "m", "after a write through a handle of m, renamed to m2"),
		wantContent(fsys, "m2", "moved", "after a write through a handle of m, renamed to m2"),
	)
}
