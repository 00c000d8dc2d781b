package dispatch

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/filekind"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/vfs"
)

// unreadable reports whether err, from reading one of an agent's files
// (the lock, the spawn-log, the board), says that this file cannot be
// read as one: not a regular file (a directory, a named pipe), a name on
// its path that is not a folder, no permission, a loop of symbolic links,
// an I/O error. [Check] reports it as a [KindUnreadable] problem and goes
// on with the agent's other files. Any other error (a name leading out of
// the estate, say) is not one: Check returns it.
func unreadable(err error) bool {
	for _, target := range []error{vfs.ErrNotRegular, fs.ErrPermission, syscall.ENOTDIR, syscall.EISDIR, syscall.ELOOP, syscall.EIO} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// IsUnreadable reports whether err, from reading one of an agent's files
// (the lock, the spawn-log, the board), says that the file cannot be read
// as one (not a regular file, a name on its path that is no folder, no
// permission, a loop of symbolic links, an I/O error): the errors [Check]
// reports as a [KindUnreadable] problem. A caller that meets one reading
// the spawn-log or board may say it in the same words with
// [UnreadableProblem].
func IsUnreadable(err error) bool { return unreadable(err) }

// UnreadableProblem is the [KindUnreadable] problem of agent for err, an
// error met reading one of its files: Path is the file the error names
// (err's *fs.PathError; the agent's folder when it names none) and Err says
// in plain words what is wrong, read from fsys where that tells more (what
// kind of file is there instead of a regular one). `pa board check` reports
// every read error of an agent's files this way (exit 2), so that a file of
// the wrong shape is a problem line, not a usage error.
func UnreadableProblem(fsys vfs.FS, agent string, err error) Problem {
	p := Problem{Kind: KindUnreadable, Agent: agent, Path: estate.AgentDir(agent)}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		p.Path = pe.Path
	}
	if errors.Is(err, syscall.ENOTDIR) {
		// Name the file that stands where a folder should (agents/a/board
		// a file): the nearest name above that exists and is no folder.
		for dir := path.Dir(p.Path); strings.HasPrefix(dir, estate.AgentDir(agent)); dir = path.Dir(dir) {
			if fi, serr := fsys.Stat(dir); serr == nil && !fi.IsDir() {
				p.Path, p.Err = dir, "it is "+filekind.Any(fi.Mode())+", not a folder"
				return p
			}
		}
	}
	p.Err = unreadableReason(fsys, p.Path, err)
	return p
}

// unreadableReason says in plain words why name cannot be read.
func unreadableReason(fsys vfs.FS, name string, err error) string {
	switch {
	case errors.Is(err, vfs.ErrNotRegular):
		if fi, serr := fsys.Stat(name); serr == nil {
			return "it is " + filekind.Any(fi.Mode()) + ", not a regular file"
		}
		return "it is not a regular file"
	case errors.Is(err, syscall.ENOTDIR):
		return "a name on its path is a file, not a folder"
	case errors.Is(err, syscall.EISDIR):
		return "it is a directory, not a regular file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, syscall.ELOOP):
		return "too many levels of symbolic links"
	case errors.Is(err, syscall.EIO):
		return "an I/O error"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return termsafe.Escape(pe.Err.Error())
	}
	return termsafe.Escape(err.Error())
}
