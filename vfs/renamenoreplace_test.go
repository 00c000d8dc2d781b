package vfs_test

import (
	"errors"
	"io/fs"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

var zeroTime time.Time

// bareFS has the core interface only, none of the optional ones.
type bareFS struct{}

func (bareFS) OpenFile(string, int, fs.FileMode) (vfs.File, error) { return nil, fs.ErrNotExist }
func (bareFS) Stat(string) (fs.FileInfo, error)                    { return nil, fs.ErrNotExist }
func (bareFS) Lstat(string) (fs.FileInfo, error)                   { return nil, fs.ErrNotExist }
func (bareFS) ReadDir(string) ([]fs.DirEntry, error)               { return nil, fs.ErrNotExist }
func (bareFS) Mkdir(string, fs.FileMode) error                     { return fs.ErrNotExist }
func (bareFS) Link(string, string) error                           { return fs.ErrNotExist }
func (bareFS) Rename(string, string) error                         { return fs.ErrNotExist }
func (bareFS) Remove(string) error                                 { return fs.ErrNotExist }

func TestOptionalCapabilitiesReportUnsupported(t *testing.T) {
	var bare vfs.FS = bareFS{}
	if err := vfs.RenameNoReplace(bare, "a", "b"); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("RenameNoReplace on a bare FS: %v", err)
	}
	if err := vfs.Chtimes(bare, "a", zeroTime, zeroTime); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("Chtimes on a bare FS: %v", err)
	}
}
