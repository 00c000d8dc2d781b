package nolinkfs_test

import (
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs/nolinkfs"
)

func TestParseErrno(t *testing.T) {
	tests := []struct {
		name string
		want syscall.Errno
	}{
		{"ENOTSUP", syscall.ENOTSUP},
		{"enotsup", syscall.ENOTSUP},
		{"EPERM", syscall.EPERM},
		{"Eperm", syscall.EPERM},
		{"EOPNOTSUPP", syscall.EOPNOTSUPP},
		{"eopnotsupp", syscall.EOPNOTSUPP},
	}
	for _, tt := range tests {
		got, err := nolinkfs.ParseErrno(tt.name)
		if err != nil || got != tt.want {
			t.Errorf("ParseErrno(%q) = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestParseErrnoRejects(t *testing.T) {
	for _, name := range []string{"", "EEXIST", "ENOENT", "EXDEV", "ENOTSUPP", " EPERM", "1", "perm"} {
		got, err := nolinkfs.ParseErrno(name)
		if !errors.Is(err, nolinkfs.ErrUnknownErrno) {
			t.Errorf("ParseErrno(%q) = %v, %v; want an error wrapping ErrUnknownErrno", name, got, err)
			continue
		}
		if !strings.Contains(err.Error(), "ENOTSUP, EPERM or EOPNOTSUPP") {
			t.Errorf("ParseErrno(%q) error %q does not list the accepted names", name, err)
		}
	}
}
