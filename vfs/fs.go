package vfs

import (
	"io"
	"io/fs"
)

// FS is a file system rooted at one directory. Every name is a
// slash-separated path relative to that root, valid in the sense of
// [fs.ValidPath].
//
// Errors are *fs.PathError, or *os.LinkError for Link and Rename, wrapping
// the underlying errno where there is one. Implementations must be safe for
// concurrent use by several goroutines.
type FS interface {
	// OpenFile opens name with the os.O_* flags (O_RDONLY, O_WRONLY, O_RDWR,
	// O_CREATE, O_EXCL, O_TRUNC, O_APPEND) and, when it creates the file,
	// the permission bits perm. O_CREATE|O_EXCL fails with an error matching
	// fs.ErrExist when name exists, atomically with respect to every other
	// create, link and rename of that name.
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)

	// Stat returns the file information of name, following symbolic links.
	Stat(name string) (fs.FileInfo, error)
	// Lstat returns the file information of name without following a
	// final symbolic link, as os.Lstat does. The lock judges a lock name
	// that is a symbolic link, a FIFO or a directory by it, without
	// opening it.
	Lstat(name string) (fs.FileInfo, error)

	// ReadDir lists the directory name, sorted by file name.
	ReadDir(name string) ([]fs.DirEntry, error)

	// Mkdir creates the directory name; it fails with fs.ErrExist when name
	// exists.
	Mkdir(name string, perm fs.FileMode) error

	// Link creates newname as a hard link to oldname. It fails with
	// fs.ErrExist when newname exists, and atomically so: two links to one
	// name never both succeed. A file system without hard links returns any
	// other error (see [NoHardLinks]).
	Link(oldname, newname string) error

	// Rename renames oldname to newname, replacing newname atomically when it
	// is a file.
	Rename(oldname, newname string) error

	// Remove removes the file or empty directory name.
	Remove(name string) error
}

// File is an open file of an [FS].
type File interface {
	io.Reader
	io.Writer
	io.Closer

	// Stat returns the file information of the open file, so that a reader
	// gets the bytes and the file time from one handle.
	Stat() (fs.FileInfo, error)

	// Sync commits the file's contents (and, for a directory opened
	// read-only, its entries) to stable storage.
	Sync() error

	// ReadDir lists an open directory, as [os.File.ReadDir] does: n <= 0
	// lists all entries.
	ReadDir(n int) ([]fs.DirEntry, error)
}
