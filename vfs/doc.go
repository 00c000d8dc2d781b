// Package vfs is the small file-system interface that every file operation of
// the lock, the spawn-log and the board goes through.
//
// An [FS] names files by slash-separated paths relative to its root, as
// io/fs does ("agents/a/spawn-log.json", never a leading slash, never "..").
// Its errors are *fs.PathError (or *os.LinkError for Link and Rename) that
// wrap the real errno, so callers test them with errors.Is:
//
//	errors.Is(err, fs.ErrExist)      // EEXIST
//	errors.Is(err, fs.ErrNotExist)   // ENOENT
//	errors.Is(err, syscall.EPERM)    // the errno itself
//
// The interface holds only what the lock needs on every volume. Rarer
// capabilities are optional interfaces in the io/fs style, one a file, each
// with a helper that checks for it and reports [errors.ErrUnsupported] when it
// is missing: [RenameNoReplaceFS], [ChtimesFS], [Locker],
// [FileKeyer] (a file's key from its handle, on Windows; its helper
// [KeyOfFile] falls back to the stat data), [WatchFS] (a wake-up when a
// name goes: the lock's waiters), [QueueFS] (a wait queue, so one of a
// lock's waiters at a time watches) and [OpenRootFS] (a folder held open:
// [PinDir]). A wrapper must forward every optional interface of the FS it
// wraps.
//
// Backends: vfs/osfs (the real OS, rooted with os.Root), vfs/nolinkfs (Link
// always refused, the no-hard-links class), and the adapters vfs/aferofs
// and vfs/hackpadfs (an afero or hackpadfs file system; their in-memory
// ones guarded so the lock is safe on them). vfs/vfstest checks that a
// backend has the behaviour the lock relies on (docs/adapters.md); the test
// doubles live under it: vfs/vfstest/faultfs (fault injection and hooks)
// and vfs/vfstest/fusemodel (a model of a FUSE volume's hidden names).
package vfs
