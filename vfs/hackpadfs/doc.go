// Package hackpadfs is a hackpadfs file system
// (github.com/hack-pad/hackpadfs) as a [vfs.FS].
//
// Two ways in, as for vfs/aferofs:
//
//   - [New] passes every call straight to the hackpadfs FS, unless it is an
//     in-memory one New knows (a *mem.FS): that one it guards, as
//     NewGuarded does. Use it for one over the real OS (hackpadfs/os,
//     rooted with Sub): the OS makes an exclusive create, a rename and a
//     remove atomic. hackpadfs has no hard links, so Link is refused with
//     ENOTSUP and the lock takes the class without them, by an exclusive
//     create. For a FS New does not know (a type of your own, a Sub of a
//     mem FS) vfs/vfstest is what proves the lock safe on it.
//   - [NewMem] (or [NewGuarded] for another hackpadfs FS that only this FS
//     uses) holds one mutex around every call and enforces the rules the
//     lock relies on itself. hackpadfs's mem FS does not: measured with
//     v0.2.4, it ignores O_EXCL (16 of 16 goroutines win one exclusive
//     create, and a single create of an existing name succeeds), a file
//     renamed onto a directory replaces it, and an open file writes to the
//     name it was opened by, so a write after a rename or a remove puts the
//     file back under its old name (docs/adapters.md). The guard sends such a
//     write to the file's new name, or nowhere once no name leads to it.
//
// vfstest proves which: the FS of NewMem, and New over a mem FS, pass
// vfs/vfstest and the conformance rows that need no real process; a mem FS
// with every call passed straight to it fails vfstest.
//
// Names are io/fs names; errors are *fs.PathError (*os.LinkError for Link
// and Rename) naming them.
package hackpadfs
