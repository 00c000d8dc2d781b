// Package serialfs makes a file system that lives in this process (an
// in-memory one) safe for the lock: one mutex around every call, and the
// rules the lock relies on enforced here rather than trusted to the backend.
//
// Under the mutex, before the backend is asked, an *FS checks:
//
//   - O_CREATE|O_EXCL fails with EEXIST when the name exists, so one
//     exclusive create of a name wins, however many goroutines race;
//   - a create, a Mkdir or a Rename whose parent is missing fails with ENOENT
//     (ENOTDIR when the parent is a file), and nothing is made;
//   - Remove of a directory that holds anything fails with ENOTEMPTY;
//   - Rename of a file onto a directory fails with EISDIR, of a directory
//     onto any existing name with EEXIST (stricter than POSIX, as
//     hackpadfs's own suite wants); a file renamed over a file replaces it;
//   - Link fails with ENOTSUP: an in-memory backend has no hard links, so
//     the lock takes the class without them (vfs.NoHardLinks).
//
// Errors are *fs.PathError (*os.LinkError for Link and Rename) naming the
// names the caller gave and wrapping a syscall errno, so errors.Is(err,
// fs.ErrExist) and errors.Is(err, syscall.ENOTEMPTY) hold.
//
// A backend whose open files write to the name they were opened by rather
// than to the file (hackpadfs's key-value files) is [PathBound]: a write
// through a handle whose name was renamed goes to the new name, and one
// whose name was removed or replaced goes nowhere, as a write to an unlinked
// inode does on a POSIX system.
//
// The mutex only orders the calls that go through one *FS. The backend must
// be private to it: another FS value, or another process, that reaches the
// same backend bypasses every rule above.
package serialfs
