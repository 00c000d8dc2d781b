package probe

import (
	"errors"
	"syscall"

	"github.com/pa-toolkit/pa/vfs"
)

// KernelLock is the volume's kernel lock (flock on Unix, LockFileEx on
// Windows) as the spawn-log lock uses it (docs/spawn-log-lock.md, "Proof of
// death"): a holder claims a kernel lock in its record only where the lock
// is granted, a second open of the same file is refused it (LOCK_NB) while
// the first handle holds it, and the file's device and inode are known.
// Where it claims none, its lock is judged by the identity it records.
// The flock check's trial decides it.
type KernelLock struct {
	// Outcome is KernelLockExcludes, KernelLockDoesNotExclude,
	// KernelLockRefused or KernelLockNotTried.
	Outcome string `json:"outcome"`
	// Errno names the error of the first handle's refused lock
	// (KernelLockRefused), or of a second open's try that failed with
	// anything but EWOULDBLOCK (KernelLockDoesNotExclude).
	Errno string `json:"errno,omitempty"`
	// FileKey reports whether the volume gives the file's device and inode
	// number (on Windows its volume serial and file index: [vfs.KeyOfFile]),
	// which a claim records.
	FileKey bool `json:"fileKey"`
	// Claim reports whether a hold of the lock on this volume records a
	// kernel-lock claim: Outcome is KernelLockExcludes and FileKey is true.
	Claim bool `json:"claim"`
}

// The outcomes of [KernelLock].
const (
	// KernelLockExcludes: the lock is granted, and a second open of the
	// file is refused it with EWOULDBLOCK while the first handle holds it.
	KernelLockExcludes = "excludes"
	// KernelLockDoesNotExclude: the lock is granted, and a second open of
	// the file takes it too (or its try fails otherwise than EWOULDBLOCK):
	// it proves nothing.
	KernelLockDoesNotExclude = "does-not-exclude"
	// KernelLockRefused: the lock of the first handle is refused (ENOTSUP,
	// ENOLCK, ENOSYS, EINVAL, "unsupported", ...): the volume has none.
	KernelLockRefused = "refused"
	// KernelLockNotTried: the flock check could not create or open its
	// file (its detail says why).
	KernelLockNotTried = "not-tried"
)

// kernelLock judges the flock check's trial as a hold does: first is the
// first handle's TryLock error, second the second handle's while the
// first holds the lock, key whether the file's key is known. A first lock
// refused with any error is no kernel lock; the lock excludes only when
// the second try is refused with EWOULDBLOCK.
func kernelLock(first, second error, key bool) KernelLock {
	k := KernelLock{FileKey: key}
	switch {
	case first != nil:
		k.Outcome, k.Errno = KernelLockRefused, ErrnoName(first)
	case errors.Is(second, syscall.EWOULDBLOCK):
		k.Outcome = KernelLockExcludes
	default:
		k.Outcome, k.Errno = KernelLockDoesNotExclude, ErrnoName(second)
	}
	k.Claim = k.Outcome == KernelLockExcludes && k.FileKey
	return k
}

// hasFileKey reports whether f's handle or stat gives its file's key, as a
// hold asks ([vfs.KeyOfFile]).
func hasFileKey(f vfs.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	_, ok := vfs.KeyOfFile(f, fi)
	return ok
}
