// Package queue is osfs's wait queue of a lock's folder: a place is a
// descriptor of its own of the folder, and the head is the place that
// holds flock(2) LOCK_EX on it. [osfs.FS.JoinQueue] documents it; the
// lock's safety depends on none of it (the queue orders who polls the
// lock, never who holds it).
//
// It is an optimisation behind one seam, [vfs.QueueFS]: a file system that
// does not implement it gets a lock whose waiters all poll.
package queue
