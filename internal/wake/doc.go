// Package wake is how a writer waits for a held lock (spec: The steps,
// Acquire step 3): a watch of the lock name where the file system has one
// ([vfs.WatchFS]), a back-off where it has none, and the wait queue of the
// lock's folder ([vfs.QueueFS]), in which only the head watches and polls.
//
// Nothing safe depends on any of it: a wake only leads to the read of the
// lock and, when it is gone, the publish of the lock's steps
// (internal/lockspec), exactly as after a poll. A file system with neither
// seam gets a lock that polls with a back-off.
package wake
