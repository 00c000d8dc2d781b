package serialfs

import (
	"io"
	"io/fs"
	"time"
)

// Backend is the file system an [FS] drives, one call at a time. Its errors
// may be of any type; the FS reports them as *fs.PathError or *os.LinkError
// with the caller's names, keeping what they wrap.
type Backend interface {
	// OpenFile opens or creates name. The FS calls it with O_CREATE only
	// for a name that does not exist and whose parent is a directory, and
	// never with O_EXCL; flag holds nothing but the access mode, O_CREATE,
	// O_TRUNC and O_APPEND. It is never called for a directory.
	OpenFile(name string, flag int, perm fs.FileMode) (BackendFile, error)
	// Stat returns the information of name; an error matching
	// fs.ErrNotExist when it does not exist.
	Stat(name string) (fs.FileInfo, error)
	// ReadDir lists the directory name, in any order.
	ReadDir(name string) ([]fs.DirEntry, error)
	// Mkdir makes the directory name; the FS checked that it does not exist
	// and that its parent is a directory.
	Mkdir(name string, perm fs.FileMode) error
	// Rename moves oldname to newname; the FS checked that newname does not
	// exist (it removes a file or an empty directory there first) and that
	// its parent is a directory.
	Rename(oldname, newname string) error
	// Remove removes a file or an empty directory.
	Remove(name string) error
	// Chtimes sets the times of name.
	Chtimes(name string, atime, mtime time.Time) error
}

// BackendFile is an open regular file of a [Backend].
type BackendFile interface {
	io.Reader
	io.Writer
	io.Closer
	// Stat returns the open file's information.
	Stat() (fs.FileInfo, error)
}

// Options say how a backend behaves.
type Options struct {
	// PathBound is true when a backend's open file writes to the name it
	// was opened by (it saves its content under that name on every write)
	// rather than to the file, wherever that file is now.
	PathBound bool
}
