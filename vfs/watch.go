package vfs

import (
	"context"
	"errors"
	"io/fs"
	"time"
)

// WatchFS is an [FS] that can wake a waiter when a name may have gone: been
// removed, or renamed away. The lock's waiters use it to learn of a
// release (a rename of the lock away) or a break at once, instead of at
// their next poll (spec: The steps, Acquire step 3, "wait about 10 ms").
// Nothing safe depends on it: a waiter still polls, and a watch that
// misses an event only makes it wait for that poll.
type WatchFS interface {
	FS
	// WatchRemoval arms a watch on name, whose folder must exist: from
	// the moment it returns, a removal of name or a rename of name away
	// makes the watch's Wait return. The caller closes the watch. Errors
	// are *fs.PathError (Op "watch").
	WatchRemoval(name string) (Watch, error)
}

// Watch is a watch armed by [WatchFS.WatchRemoval] on one name. It is used
// by one goroutine at a time.
type Watch interface {
	// Wait blocks until the watched name may have gone since the watch
	// was armed or since the last Wait that reported it, until d has
	// passed, or until ctx ends. It returns true when it was woken (the
	// name may have gone; a wake with the name still there is allowed,
	// a removal after arming that never wakes a Wait is not), false
	// when d passed, and ctx.Err() when ctx ended. Any other error means
	// the watch can no longer wake its waiter: the caller closes it and
	// polls.
	Wait(ctx context.Context, d time.Duration) (bool, error)
	// Close releases the watch (its descriptors); Wait must not be
	// called after it. A second call returns nil.
	Close() error
}

// WatchRemoval arms a watch on name through fsys's [WatchFS]. When fsys
// lacks it, it returns a *fs.PathError (Op "watch") wrapping
// errors.ErrUnsupported, and the caller falls back to polling.
func WatchRemoval(fsys FS, name string) (Watch, error) {
	if w, ok := fsys.(WatchFS); ok {
		return w.WatchRemoval(name)
	}
	return nil, &fs.PathError{Op: "watch", Path: name, Err: errors.ErrUnsupported}
}
