// Package watch is osfs's wake-up on a lock's release: a watch of one name
// of an open folder that wakes a waiter when the name is removed or renamed
// away (inotify on Linux, kqueue on macOS and the BSDs; nothing elsewhere,
// where the waiter polls). [osfs.FS.WatchRemoval] documents what each
// system watches; the lock's safety depends on none of it (a wake-up only
// shortens a wait the lock would otherwise poll out).
//
// It is an optimisation behind one seam, [vfs.WatchFS]: a file system that
// does not implement it gets a lock that polls.
package watch
