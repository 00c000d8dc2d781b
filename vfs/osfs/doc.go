// Package osfs is the real operating-system file system as a [vfs.FS],
// rooted at one directory.
//
// Every name goes straight to an [os.Root], so no name can leave the root:
// "../x", an absolute name, and a symbolic link whose target lies outside the
// root all fail. They fail with a *fs.PathError (or *os.LinkError) whose Err
// is the os package's unexported "path escapes from parent" error; it matches
// none of fs.ErrExist, fs.ErrNotExist, fs.ErrInvalid or fs.ErrPermission.
//
// Errors are those of os.Root: *fs.PathError for one name and *os.LinkError
// for Link and Rename, wrapping the errno, so errors.Is(err, fs.ErrExist)
// holds for O_CREATE|O_EXCL on an existing name and for Link onto one, and
// errors.Is(err, fs.ErrNotExist) for a missing parent. Their Op is the
// system call's ("openat", "linkat", "renameat", ...) and their Path the name
// relative to the root.
//
// Besides [vfs.FS], an *FS is a [vfs.ChtimesFS], a
// [vfs.RenameNoReplaceFS] (renameat2 with RENAME_NOREPLACE on Linux,
// renameatx_np with RENAME_EXCL on macOS; elsewhere it reports
// errors.ErrUnsupported), a [vfs.WatchFS] (inotify on
// the lock file itself on Linux, kqueue on the folder on macOS and the BSDs;
// elsewhere errors.ErrUnsupported), a [vfs.QueueFS] (flock(2) on the lock's
// folder on Unix; elsewhere errors.ErrUnsupported) and a [vfs.OpenRootFS],
// and its files are [vfs.Locker]s (flock on Unix, LockFileEx on Windows)
// and, on Windows, [vfs.FileKeyer]s (GetFileInformationByHandle: Go's stat
// there gives no file's key).
package osfs
