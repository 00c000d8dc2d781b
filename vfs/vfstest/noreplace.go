package vfstest

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/pa-toolkit/pa/vfs"
)

// renameNoReplace: RenameNoReplace moves a file or a directory, with what
// it holds, to an absent name; onto an existing file, an empty directory or
// a directory that holds a file it fails with EEXIST, naming both names,
// and nothing moves; of many at once onto one name, one wins and the others
// get EEXIST. Skipped when the FS is not a vfs.RenameNoReplaceFS or the
// volume refuses the flag (errors.ErrUnsupported).
func renameNoReplace(e *env) error {
	fsys, err := e.fresh()
	if err != nil {
		return err
	}
	if _, ok := fsys.(vfs.RenameNoReplaceFS); !ok {
		return skipError{"the FS is not a vfs.RenameNoReplaceFS"}
	}
	if err := put(fsys, "f", "F"); err != nil {
		return err
	}
	err = vfs.RenameNoReplace(fsys, "f", "g")
	if errors.Is(err, errors.ErrUnsupported) {
		return skipError{"RenameNoReplace is refused here: " + err.Error()}
	}
	if err != nil {
		return fmt.Errorf("RenameNoReplace(f, g) to an absent name: %v", err)
	}
	if err := first(
		wantContent(fsys, "g", "F", "after RenameNoReplace(f, g)"),
		wantMissing(fsys, "f", "after RenameNoReplace(f, g)"),
		fsys.Mkdir("d", 0o755), put(fsys, "d/m", "M"),
		fsys.Mkdir("empty", 0o755),
		fsys.Mkdir("full", 0o755), put(fsys, "full/x", "X"),
		put(fsys, "file", "file"),
	); err != nil {
		return err
	}
	for _, dst := range []string{"file", "empty", "full"} {
		what := fmt.Sprintf("RenameNoReplace(d, %s), onto an existing name", dst)
		if err := linkErr(what, vfs.RenameNoReplace(fsys, "d", dst), "d", dst, fs.ErrExist); err != nil {
			return err
		}
		if err := wantContent(fsys, "d/m", "M", "after "+what); err != nil {
			return err
		}
	}
	if err := first(
		wantContent(fsys, "file", "file", "after the refused renames"),
		wantDir(fsys, "empty", "after the refused renames"),
		wantContent(fsys, "full/x", "X", "after the refused renames"),
		linkErr("RenameNoReplace(g, file), a file onto a file", vfs.RenameNoReplace(fsys, "g", "file"), "g", "file", fs.ErrExist),
		wantContent(fsys, "g", "F", "after a refused RenameNoReplace(g, file)"),
	); err != nil {
		return err
	}
	if err := vfs.RenameNoReplace(fsys, "d", "lock"); err != nil {
		return fmt.Errorf("RenameNoReplace(d, lock) of a directory to an absent name: %v", err)
	}
	if err := first(
		wantContent(fsys, "lock/m", "M", "after RenameNoReplace(d, lock)"),
		wantMissing(fsys, "d", "after RenameNoReplace(d, lock)"),
	); err != nil {
		return err
	}
	return renameNoReplaceRace(e, fsys)
}

// renameNoReplaceRace: in every round, many directories, each holding its
// own marker, are renamed at once onto one absent name; exactly one wins,
// the others get EEXIST and keep their marker, and the name holds the
// winner's.
func renameNoReplaceRace(e *env, fsys vfs.FS) error {
	n := e.opts.goroutines()
	rounds := max(e.opts.rounds()/10, 1)
	for r := range rounds {
		src := func(i int) string { return fmt.Sprintf("race-%d-%d", r, i) }
		for i := range n {
			if err := first(fsys.Mkdir(src(i), 0o755), put(fsys, src(i)+"/marker", src(i))); err != nil {
				return err
			}
		}
		dst := fmt.Sprintf("won-%d", r)
		errs := race(n, func(i int) error { return vfs.RenameNoReplace(fsys, src(i), dst) })
		won, wins := -1, 0
		for i, err := range errs {
			if err == nil {
				won, wins = i, wins+1
				continue
			}
			what := fmt.Sprintf("round %d: a losing RenameNoReplace(%s, %s)", r, src(i), dst)
			if lerr := first(linkErr(what, err, src(i), dst, fs.ErrExist),
				wantContent(fsys, src(i)+"/marker", src(i), what)); lerr != nil {
				return lerr
			}
		}
		if wins != 1 {
			return fmt.Errorf("round %d: %d of %d RenameNoReplace onto %s at once succeeded; want exactly 1", r, wins, n, dst)
		}
		if err := wantContent(fsys, dst+"/marker", src(won), fmt.Sprintf("round %d", r)); err != nil {
			return err
		}
	}
	return nil
}
