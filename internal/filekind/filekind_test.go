package filekind

import (
	"io/fs"
	"testing"
)

func TestName(t *testing.T) {
	for _, c := range []struct {
		m    fs.FileMode
		want string
		ok   bool
	}{
		{0, "", false},
		{fs.ModeSymlink, "a symbolic link", true},
		{fs.ModeDir, "a directory", true},
		{fs.ModeNamedPipe, "a named pipe", true},
		{fs.ModeSocket, "a socket", true},
		{fs.ModeDevice | fs.ModeCharDevice, "a device", true},
		{fs.ModeIrregular, "", false},
	} {
		if got, ok := Name(c.m); got != c.want || ok != c.ok {
			t.Errorf("Name(%v) = %q, %v; want %q, %v", c.m, got, ok, c.want, c.ok)
		}
	}
}

func TestAny(t *testing.T) {
	for m, want := range map[fs.FileMode]string{
		0:                "a regular file",
		fs.ModeDir:       "a directory",
		fs.ModeIrregular: "not a regular file",
	} {
		if got := Any(m); got != want {
			t.Errorf("Any(%v) = %q; want %q", m, got, want)
		}
	}
}
