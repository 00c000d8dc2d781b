// Package fusemodel wraps a [vfs.FS] so that it keeps files still open the way
// a volume mounted through libfuse's high-level API does (exfat-fuse and
// ntfs-3g on Linux; docs/filesystems.md): a file removed, or renamed over,
// while a handle opened through the FS is still open is not gone at once but
// renamed to .fuse_hidden<8 hex><8 hex> in its folder, and that name is
// removed when the last such handle is closed.
//
// It lets a test see, with no FUSE mount, what a real one shows: a name
// nobody created appearing in a listing. The lock must never take such a
// name for its own, and must close its own handles before it renames or
// removes a file, so that it never leaves one.
package fusemodel
