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

// commandOnly is who alone, but root, can run the command that clears p
// in fsys (board check's line), "" when this user can: the unlock of a
// lock held past the stale window, the repair of a dispatch not on the
// board.
func commandOnly(fsys vfs.FS, p dispatch.Problem) string {
	var owner string
	switch p.Kind {
	case dispatch.KindLockHeld:
		owner, _ = lockOnly(fsys, p.Agent)
	case dispatch.KindNotOnBoard:
		owner, _ = repairOnly(fsys, p.Agent)
	}
	return owner
}
