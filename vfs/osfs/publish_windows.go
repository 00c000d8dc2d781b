package osfs

// ExclusiveCreatePublish reports true: on Windows a lock on the real
// file system is published, where link() is refused (FAT, exFAT), by the
// spec's exclusive create, not by the directory publish
// (lockspec.ExclusiveCreateFS; docs/spawn-log-lock.md, "The directory
// publish"). Windows refuses to rename a directory while a file in it is
// open (access denied; reported by cmd tools, node's fs-extra and RPCS3
// alike), and the directory publish renames its staging directory, and a
// release or a break the lock's directory, with the marker open: its
// kernel lock. Not run on Windows; built and vetted.
func (f *FS) ExclusiveCreatePublish() bool { return true }
