// Package aferofs is an [afero.Fs] as a [vfs.FS], so the lock runs on any
// file system afero offers, the in-memory one included.
//
// Two ways in, because afero's file systems are not alike:
//
//   - [New] passes every call straight to the afero.Fs, unless it is an
//     in-memory one New knows (an *afero.MemMapFs): that one it guards, as
//     NewGuarded does. Use it for one over the real OS (afero.NewOsFs, or
//     afero.NewBasePathFs over it): the OS makes an exclusive create, a
//     rename and a remove atomic and checks parents and emptiness, so the
//     lock's guarantees are the volume's. Link is os.Link when the
//     afero.Fs is an *afero.OsFs, and refused with ENOTSUP on every other
//     (a BasePathFs hides where its files are), so the lock takes the
//     class without hard links there, by an exclusive create. For an
//     afero.Fs New does not know (a type of your own, a wrapper around a
//     MemMapFs) vfs/vfstest is what proves the lock safe on it.
//   - [NewMem] (or [NewGuarded] for another afero.Fs that only this FS
//     uses) holds one mutex around every call and enforces the rules the
//     lock relies on itself. afero's MemMapFs does not: measured with
//     v1.15.0, its exclusive create lets two or more goroutines win, a create
//     makes missing parents, Remove removes a directory that holds files,
//     a file renamed onto a directory replaces it, and two concurrent
//     renames of one name crash the process (docs/adapters.md). Link is
//     refused with ENOTSUP: memory has no hard links here.
//
// vfstest proves which: the FS of NewMem, and New over a MemMapFs, pass
// vfs/vfstest and the conformance rows that need no real process; a
// MemMapFs with every call passed straight to it fails vfstest.
//
// Names are io/fs names (slash-separated, relative, no ".."); errors are
// *fs.PathError (*os.LinkError for Link and Rename) naming them. Over the
// OS, afero follows a symbolic link out of a BasePathFs's base; vfs/osfs
// (os.Root) refuses it, so prefer osfs for an estate on disk.
package aferofs
