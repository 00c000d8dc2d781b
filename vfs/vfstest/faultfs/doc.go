// Package faultfs wraps a [vfs.FS] for tests: it fails chosen operations on
// chosen names with chosen errors, and calls hooks before and after each
// operation, so a test can pause a goroutine at an exact point and
// interleave another with it, without time.Sleep.
//
// Every call of an operation ([Op]) goes through these steps, on the calling
// goroutine:
//
//  1. it is counted (see [FS.Calls]);
//  2. the Before hooks run in the order added; the first that returns an
//     error fails the call with it, and the operation does not run;
//  3. the first [Rule] that matches fails the call with its error, and the
//     operation does not run (a Drop rule, for a sync, makes it return nil
//     without running instead);
//  4. otherwise the operation runs on the wrapped FS;
//  5. the After hooks run in the order added, each seeing the result so far;
//     one that returns an error makes the call fail with it (the operation
//     has run).
//
// Injected errors keep the types of vfs: an error that is already a
// *fs.PathError or *os.LinkError is returned as it is; any other is wrapped
// in an *os.LinkError for Link and Rename, in a *fs.PathError for the rest,
// so errors.Is(err, syscall.EIO) holds for an injected EIO.
//
// The [vfs.File] returned by OpenFile is wrapped too: its Read, Write, Sync
// and Close are operations named by the name given to OpenFile. Its Stat,
// ReadDir, TryLock and Unlock go straight to the wrapped file.
//
// A watch armed by WatchRemoval ([OpWatch]) is wrapped: each of its Waits is
// [OpWait] on the watched name, so a hook can pause a waiter, or act, just
// as it starts to wait. An FS returned by OpenRoot ([OpOpenRoot]) shares the
// rules, hooks and counts of the FS that opened it and names its calls by
// their names there, so a test sees the lock's calls the same with its
// folder pinned ([vfs.PinDir]) or not. A place in a queue joined by
// JoinQueue ([OpQueue]) is wrapped the same way: each of its Waits is
// [OpQueueWait] on the lock's name.
//
// The shipped pa binary never uses this package (its pafault test build
// injects its faults through switches of its own, not through faultfs).
package faultfs
