package lockspec

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// The directory shape of a lock (docs/spawn-log-lock.md, "The directory
// publish"): on a volume without hard links the lock name is a directory
// that holds one file, <token>.json, the lock's record. It is published
// whole by one rename (publishdir.go) and, like a file lock, moved aside
// to a broken name before anything in it is removed; the removal is the
// marker by its name, then the directory, never recursive, so that a
// delayed step that finds another directory there removes nothing of it.

// markerName is the name of the record inside a directory lock of token.
func markerName(token string) string { return token + ".json" }

// readDirLock reads the directory name (of file information fi) as a
// lock: its entries and, when it holds just one regular file, that file's
// bytes, calling then as readLockThen does. A marker that goes between
// the listing and its open leaves a directory with no marker read
// (unreadable).
func readDirLock(fsys vfs.FS, name string, fi fs.FileInfo, then func(vfs.File, string, lockFile)) (lockFile, error) {
	ents, err := fsys.ReadDir(name)
	if err != nil {
		return lockFile{}, err
	}
	lf := lockFile{dir: true, entries: len(ents), fileTime: fi.ModTime()}
	if len(ents) != 1 || !ents[0].Type().IsRegular() {
		return lf, nil
	}
	mname := path.Join(name, ents[0].Name())
	f, err := fsys.OpenFile(mname, vfs.ReadFlags, 0)
	if err != nil {
		return lf, nil
	}
	defer f.Close()
	mfi, err := f.Stat()
	if err != nil || !mfi.Mode().IsRegular() {
		return lf, nil
	}
	data, err := readUpTo(f, mfi.Size(), MaxLockBytes+1)
	if err != nil {
		return lockFile{}, err
	}
	lf.data, lf.size, lf.fileTime, lf.marker = data, max(mfi.Size(), int64(len(data))), mfi.ModTime(), ents[0].Name()
	if then != nil {
		then(f, mname, lf)
	}
	return lf, nil
}

// judgeDir is the judgement of a directory lock, h the judgement of its
// one regular file's bytes (when it has one): readable only when that
// file is named after the token its record carries; otherwise
// unreadable (Mode fs.ModeDir), never broken automatically.
func (e *env) judgeDir(lf lockFile, h Holder) Holder {
	if lf.marker == "" || h.State == StateUnreadable || markerName(h.Token) != lf.marker {
		u := e.judge(nil, 0, lf.fileTime, nil)
		u.Size, u.data = lf.size, lf.data
		u.Mode = fs.ModeDir
		h = u
	}
	h.Directory, h.marker, h.entries = true, lf.marker, lf.entries
	return h
}

// movedHolder is a lock just moved, as read (readLockBytes), with its
// bytes, size and shape and no judgement.
func movedHolder(lf lockFile) Holder {
	h := Holder{data: lf.data, Size: lf.size, Directory: lf.dir, marker: lf.marker, entries: lf.entries}
	if lf.irregular != nil {
		h.Mode = lf.irregular.Mode().Type()
	}
	return h
}

// lockFileName is the file of the lock name that holds h's record: the
// name itself, or the marker inside a directory lock ("" for a directory
// with no marker).
func lockFileName(lock string, h Holder) string {
	if !h.Directory {
		return lock
	}
	if h.marker == "" {
		return ""
	}
	return path.Join(lock, h.marker)
}

// removeMoved removes a lock moved to moved and found to be the one meant
// (its own, or the one judged, of shape m): a file by its name; a
// directory by its marker, then the directory itself, never recursively:
// should the directory not be the one read (another in its place, or one
// that gained an entry), the marker is not there or the directory is not
// empty, and nothing of it goes. A directory left so stays under the
// moved name (its owner's sweep, or an operator, clears it); that is no
// error.
func removeMoved(fsys vfs.FS, moved string, m Holder, aside func() (string, error)) error {
	if !m.Directory {
		if err := fsys.Remove(moved); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	// The move aside is made durable before the marker goes: the rename
	// is an entry of the lock's folder, the marker's removal one of the
	// moved directory, and a power cut lands the two folders
	// independently. The removal landed without the rename would leave an
	// empty directory at the lock name, a block (conformance/powercut).
	if err := vfs.SyncDir(fsys, path.Dir(moved)); err != nil {
		return err
	}
	if m.marker == "" {
		_ = fsys.Remove(moved) // rmdir: an entry there keeps it
		return nil
	}
	// The marker is moved out, beside the lock, under a broken name of
	// this step's own (aside), before the rmdir, and removed there: a
	// holder forced out may still have it open (its kernel lock's
	// handle), and a FUSE volume renames a file removed while open to a
	// .fuse_hidden name in its folder until that handle closes, which in
	// the moved directory would keep it from going. Beside the lock that
	// name goes when the holder lets go, as a forced-out file lock's does.
	// A kill between the steps leaves an empty moved directory and a
	// broken file of this pid, both swept once it is gone.
	marker := path.Join(moved, m.marker)
	out, err := aside()
	if err != nil {
		return err
	}
	if err := fsys.Rename(marker, out); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		out = "" // no marker there (a put-back's moved lock already gone)
	}
	_ = fsys.Remove(moved) // rmdir: an entry not ours keeps it
	if out != "" {
		if err := fsys.Remove(out); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// asideFor returns a fresh broken name beside n's lock, of a new attempt:
// where removeMoved moves a directory lock's marker before its rmdir.
func (e *env) asideFor(n names) func() (string, error) {
	return func() (string, error) {
		attempt, err := e.newAttempt()
		return n.broken(attempt), err
	}
}

// renameAbsent renames old to new unless new exists, and reports an error
// matching fs.ErrExist when it does: by vfs.RenameNoReplace, atomic;
// where the volume has no such rename (errors.ErrUnsupported: a FUSE
// server without rename2, ntfs-3g, exfat-fuse), by a plain rename once an
// Lstat has found new absent. That fallback has a window: a directory
// made empty at new between the Lstat and the rename is replaced by it
// (ext4 replaces an empty directory silently), as a file there would be
// by a rename of a file. Only an empty directory can be replaced; no step
// of this lock leaves one at the lock name. old is a name of this
// attempt's own (a staging directory, a moved lock), which no other
// process renames; mark, when not "", is the name of the file in old that
// only old holds (a publish's own marker): settleRename reads a failed
// rename by it.
func renameAbsent(fsys vfs.FS, old, new, mark string) error {
	err := vfs.RenameNoReplace(fsys, old, new)
	if errors.Is(err, errors.ErrUnsupported) {
		err = renameOnceAbsent(fsys, old, new)
	}
	if err == nil {
		return nil
	}
	return settleRename(fsys, old, new, mark, err)
}

// renameOnceAbsent is renameAbsent's fallback: a plain rename, once an
// Lstat has found new absent.
func renameOnceAbsent(fsys vfs.FS, old, new string) error {
	if _, err := fsys.Lstat(new); !errors.Is(err, fs.ErrNotExist) {
		if err == nil {
			return &fs.PathError{Op: "rename", Path: new, Err: fs.ErrExist}
		}
		return err
	}
	return fsys.Rename(old, new)
}

// settleRename reads what a rename of old to new that failed with err
// left. The rename landed, whatever err says (a network share replays a
// rename and reports the replay's error, EEXIST among them), only when
// new holds mark, the file only old held, and old is gone: then nil, and
// the writer does not wait on its own lock. Old gone alone proves nothing
// (a sweep that took this writer for dead removed it). Otherwise, with new
// there, new was taken: an error matching fs.ErrExist (Windows refuses a
// directory renamed onto one that exists with access denied, not EEXIST,
// and a plain rename onto a non-empty directory fails with ENOTEMPTY);
// with new absent, err.
func settleRename(fsys vfs.FS, old, new, mark string, err error) error {
	if landed(fsys, old, new, mark) {
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, lerr := fsys.Lstat(new); lerr != nil {
		return err
	}
	return &fs.PathError{Op: "rename", Path: new, Err: fs.ErrExist}
}

// landed reports whether old was renamed to new: new holds mark (never
// "") and old is gone. Without the mark a swept staging would read as
// landed; the publish's check that its marker went with the directory
// would then still refuse the lock (two guards: no mutation of one alone
// is caught, TestDirPublishWhoseStagingWentIsNotItsLock pins both).
func landed(fsys vfs.FS, old, new, mark string) bool {
	if mark == "" {
		return false
	}
	if _, err := fsys.Lstat(path.Join(new, mark)); err != nil {
		return false
	}
	_, err := fsys.Lstat(old)
	return errors.Is(err, fs.ErrNotExist)
}

// putBackDir returns a directory lock moved by mistake to the lock name by
// renameAbsent: atomic, so no put-back leaves an empty lock. When the name
// is taken the moved lock is dropped (removeMoved; its holder's fence
// finds the loss), as a file's put-back drops it.
func (e *env) putBackDir(fsys vfs.FS, n names, moved string, done Step) error {
	err := renameAbsentUntil(context.Background(), fsys, moved, n.lock, "", time.Now().Add(transientRenameWait))
	switch {
	case err == nil:
		e.step(done)
		return nil
	case !errors.Is(err, fs.ErrExist):
		return err
	}
	e.step(done)
	lf, rerr := readLockBytes(fsys, moved)
	if rerr != nil {
		if errors.Is(rerr, fs.ErrNotExist) {
			return nil
		}
		return rerr
	}
	return removeMoved(fsys, moved, movedHolder(lf), e.asideFor(n))
}
