// Package filekind names a file's type for an operator's message ("a
// directory", "a named pipe"), so that every message of pa names a kind
// of file the same way.
package filekind

import "io/fs"

// Name names the type of a file of mode m that is not a regular file: "a
// symbolic link", "a directory", "a named pipe", "a socket" or "a device";
// ok is false for a regular file and for any other type (the caller says
// what it says of those).
func Name(m fs.FileMode) (name string, ok bool) {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link", true
	case m&fs.ModeDir != 0:
		return "a directory", true
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe", true
	case m&fs.ModeSocket != 0:
		return "a socket", true
	case m&fs.ModeDevice != 0:
		return "a device", true
	}
	return "", false
}

// Any names the type of a file of mode m, whatever it is: [Name]'s words,
// "a regular file", or "not a regular file" for a type Name has no word
// for.
func Any(m fs.FileMode) string {
	if m.IsRegular() {
		return "a regular file"
	}
	if name, ok := Name(m); ok {
		return name
	}
	return "not a regular file"
}
