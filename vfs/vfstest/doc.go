// Package vfstest checks that a [vfs.FS] has exactly the file-system
// behaviour the lock relies on (spec/spawn-log-lock.md, "The supported
// envelope": an exclusive create, link() and rename() are atomic, and a
// listing taken after a create shows it), and that no file system's own
// test suite checks. A backend's author calls it from a test, as
// testing/fstest.TestFS:
//
//	func TestVFS(t *testing.T) {
//		vfstest.Run(t, func(t *testing.T) vfs.FS { return mybackend.New(t.TempDir()) }, vfstest.Options{})
//	}
//
// Each check is a subtest, on a fresh FS from newFS:
//
//	exclusive-create             one O_CREATE|O_EXCL of a name wins, of many goroutines at once; the others get EEXIST
//	exclusive-create-processes   the same across processes (the test binary run again), for a backend over the OS (Options.Open)
//	missing-parent               a create, Mkdir, Rename or Link under a missing folder fails with ENOENT and makes nothing
//	rename-over-file             a file renamed over a file replaces it, whole
//	rename-race                  of many renames of one name at once, one wins; the others get ENOENT
//	rename-onto-directory        a file renamed onto a directory fails, and both stay
//	remove-not-empty             Remove of a directory that holds a file fails (ENOTEMPTY) and removes nothing
//	rename-no-replace            RenameNoReplace moves a file or a directory to an absent name, fails with EEXIST onto a file or a directory, empty or not, and one of many at once wins (when the FS is a vfs.RenameNoReplaceFS and the volume takes the flag)
//	link                         Link onto an existing name fails with EEXIST, one of many at once wins; or every Link is refused as no hard links (vfs.NoHardLinks)
//	listing-after-create         a listing taken right after a create shows it, sorted; after a remove or a rename it does not
//	open-file                    an open file is the file, not its name: a reader keeps the bytes it opened, a write after a rename or a remove never lands under the old name
//	errors                       every failure is a *fs.PathError (*os.LinkError for Link and Rename) naming the caller's names and matching fs.ErrNotExist, fs.ErrExist
//	sync                         File.Sync and vfs.SyncDir succeed
//	chtimes                      Chtimes sets a file's time (when the FS is a vfs.ChtimesFS)
//	io-fs                        testing/fstest.TestFS on a small tree, through [IOFS]
//
// [Check] runs the same checks without a *testing.T and returns what
// failed, so a test can show that a backend fails them.
package vfstest
