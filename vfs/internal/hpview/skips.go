package hpview

import "os"

// The facets of hackpadfs's suite that cannot apply to a vfs.FS, or to a
// backend over os.Root, by a part of their name, with the reason. A
// backend's test passes the ones that apply to it to [Run].
const (
	// WhyLinkError: the suite wants Rename's error typed
	// *hackpadfs.LinkError.
	WhyLinkError = "the suite wants Rename's error typed *hackpadfs.LinkError; a vfs.FS returns *os.LinkError, as the os package does"
	// WhyInvalidPath: os.Root resolves a name that is not fs.ValidPath.
	WhyInvalidPath = "osfs hands a name that is not fs.ValidPath (foo/../bar) to os.Root, which resolves it inside the root (ENOENT) where the suite wants EINVAL; a vfs name is valid by contract (vfs.FS), and the lock checks its names itself"
	// WhyModeBits: os.Root refuses mode bits beyond 0o777.
	WhyModeBits = "os.Root refuses mode bits beyond 0o777 (\"unsupported file mode\") where os.Mkdir and os.OpenFile ignore them; the lock asks for 0o644 and 0o755 only"
	// WhySymlinkOut: the suite's symlink points out of the root.
	WhySymlinkOut = "the suite's symlink points at an absolute path, which os.Root refuses as escaping its root: osfs never follows a link out of its root"
	// WhyNoWriteAt: a vfs.File has no WriteAt, and the suite fails
	// WriteAt's facets on a file without it instead of skipping them.
	WhyNoWriteAt = "a vfs.File has no WriteAt (faultfs.File has vfs.File's methods only), and the suite fails WriteAt's facets on such a file instead of skipping them"
	// WhyFileErrPath: an os.File's errors name its whole OS path.
	WhyFileErrPath = "an osfs.File is the *os.File os.Root opened, whose errors name its whole OS path, not the FS's name; a vfs.File does not promise the FS's name in its errors"
	// WhyRootRenameOntoDir: this Go's os.Root.Rename lets a directory take
	// the name of a directory.
	WhyRootRenameOntoDir = "this Go's os.Root.Rename hands a directory renamed onto a directory (itself, or an empty one) to rename(2), which allows it, where the suite wants EEXIST as os.Rename gives; Go 1.25.14 and 1.26.5 made os.Root.Rename refuse it too, and the Go releases before them (go.mod's floor among them) do not. The lock never renames onto a directory"
)

// OverOSRoot are the facets that cannot apply to osfs, and to a wrapper
// over it that passes its files through as they are (nolinkfs).
var OverOSRoot = map[string]string{
	"fs.Rename/oldpath_does_not_exist":               WhyLinkError,
	"invalid_path":                                   WhyInvalidPath,
	"fs.Mkdir/only_permission_bits_allowed":          WhyModeBits,
	"fs.MkdirAll/illegal_permission_bits":            WhyModeBits,
	"fs.OpenFile/create_illegal_perms":               WhyModeBits,
	"fs.Chmod/change_symlink_target_permission_bits": WhySymlinkOut,
	"file.Seek/seek_negative_offset":                 WhyFileErrPath,
	"file.Seek/seek_unknown_start":                   WhyFileErrPath,
	"file.Truncate/negative_size":                    WhyFileErrPath,
	"file.WriteAt/negative_offset":                   WhyFileErrPath,
	"file.ReadDir/list_on_file":                      WhyFileErrPath,
}

// With a Go whose os.Root.Rename lets a directory take the name of a
// directory, the two facets that want it refused cannot apply over os.Root.
func init() {
	if rootRenameTakesDirs() {
		OverOSRoot["fs.Rename/same_directory"] = WhyRootRenameOntoDir
		OverOSRoot["fs.Rename/newpath_is_directory"] = WhyRootRenameOntoDir
	}
}

// rootRenameTakesDirs reports whether os.Root.Rename lets a directory take
// the name of an empty one, in a temp folder it removes.
func rootRenameTakesDirs() bool {
	dir, err := os.MkdirTemp("", "hpview-rename")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return false
	}
	defer root.Close()
	if root.Mkdir("a", 0o755) != nil || root.Mkdir("b", 0o755) != nil {
		return false
	}
	return root.Rename("a", "b") == nil
}
