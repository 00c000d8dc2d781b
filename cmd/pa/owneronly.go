package main

import (
	"errors"
	"io/fs"
	"os"
	"path"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
)

// Whether a command a line advises can work for the one who reads it,
// decided before it is run: a lock or board in another user's folder that
// this user may not write, or another user's file in a world-writable
// folder with the sticky bit (/tmp, say), where only the file's owner, the
// folder's owner or root may rename or remove it. The line then advises
// the command run as that user or root (asOwner), as the lines of a
// refusal met (owner.go) do.

// onlyOwnerCan tells who alone, but root, can replace or remove name in
// fsys (create it, when it is missing), when that is not this process's
// effective user: the owner of the nearest folder of name that is there,
// when this user may not add or remove files in it, else the owner of
// name, when that folder is sticky and neither name nor it is this
// user's. ok is false when this user can, for root, and where the FS
// tells no owner (Windows, an in-memory FS), as it was before.
func onlyOwnerCan(fsys vfs.FS, name string) (owner string, ok bool) {
	if fsys == nil || os.Geteuid() == 0 {
		return "", false
	}
	fi, err := fsys.Lstat(name)
	there := err == nil
	dir := path.Dir(name)
	di, err := fsys.Stat(dir)
	for errors.Is(err, fs.ErrNotExist) && dir != "." {
		there = false
		dir = path.Dir(dir)
		di, err = fsys.Stat(dir)
	}
	if err != nil {
		return "", false
	}
	duid, known := ownerUID(di)
	if !known || duid == os.Geteuid() {
		return "", false
	}
	if writable, known := dirWritable(di); known && !writable {
		return userShown(duid), true
	}
	if !there || di.Mode()&fs.ModeSticky == 0 {
		return "", false
	}
	if uid, known := ownerUID(fi); known && uid != os.Geteuid() {
		return userShown(uid), true
	}
	return "", false
}

// lockOnly is who alone, but root, can clear agent's lock in fsys (an
// unlock moves it aside, then removes it), when not this user.
func lockOnly(fsys vfs.FS, agent string) (string, bool) {
	return onlyOwnerCan(fsys, locking.LockName(estate.SpawnLogPath(agent)))
}

// repairOnly is who alone, but root, can run agent's board repair in fsys
// (it takes the lock beside the spawn-log and replaces the board), when
// not this user.
func repairOnly(fsys vfs.FS, agent string) (string, bool) {
	if owner, ok := onlyOwnerCan(fsys, estate.BoardPath(agent)); ok {
		return owner, true
	}
	return lockOnly(fsys, agent)
}

// clearing is what a problem's command and line rest on, read from the
// estate (board check's line and --json "command").
type clearing struct {
	// owner is who alone, but root, can run the command that clears the
	// problem, "" when this user can.
	owner string
	// forceRemovesDir: unlock --force removes the directory under the
	// lock name (it holds at most a lock's record).
	forceRemovesDir bool
}

// clearingOf is what clears p in fsys: the unlock of a lock held past the
// stale window or the removal of what is under the lock name that is not
// a lock (by hand, or with unlock --force), the repair of a dispatch not
// on the board, and who alone, but root, can do it when not this user.
func clearingOf(fsys vfs.FS, p dispatch.Problem) clearing {
	var c clearing
	switch {
	case p.Kind == dispatch.KindLockHeld:
		c.owner, _ = lockOnly(fsys, p.Agent)
	case p.Kind == dispatch.KindUnreadable && p.Lock.Mode != 0:
		c.owner, _ = lockOnly(fsys, p.Agent)
		c.forceRemovesDir = p.Lock.Mode&fs.ModeDir != 0 && forceRemovesDir(fsys, p.Agent)
	case p.Kind == dispatch.KindNotOnBoard:
		c.owner, _ = repairOnly(fsys, p.Agent)
	}
	return c
}

// forceRemovesDir reports whether unlock --force removes the directory
// under agent's lock name in fsys, as it is now: one that holds at most a
// lock's record, nothing or one regular file (the directory publish's
// shape; never recursively, so nothing more).
func forceRemovesDir(fsys vfs.FS, agent string) bool {
	if fsys == nil {
		return false
	}
	ents, err := fsys.ReadDir(locking.LockName(estate.SpawnLogPath(agent)))
	return err == nil && (len(ents) == 0 || len(ents) == 1 && ents[0].Type().IsRegular())
}
