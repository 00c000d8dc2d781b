//go:build windows

package osfs

import (
	"errors"
	"io/fs"

	"github.com/pa-toolkit/pa/vfs"
	"golang.org/x/sys/windows"
)

var _ vfs.FileKeyer = (*File)(nil)

// FileKey returns the key of the file from its handle, since Go's stat on
// Windows carries none: GetFileInformationByHandle's volume serial number
// and 64-bit file index ([vfs.KeyOfFileIndex]). On NTFS the index stays the
// file's until it is deleted. Errors are *fs.PathError (Op "filekey"): the
// system's error, or errors.ErrUnsupported where the volume gives no
// unique 64-bit index (0, or 2^64-1 as ReFS may).
func (f *File) FileKey() (vfs.FileKey, error) {
	conn, err := f.SyscallConn()
	if err != nil {
		return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.Name(), Err: err}
	}
	var info windows.ByHandleFileInformation
	var infoErr error
	err = conn.Control(func(h uintptr) {
		infoErr = windows.GetFileInformationByHandle(windows.Handle(h), &info)
	})
	if err == nil {
		err = infoErr
	}
	if err != nil {
		return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.Name(), Err: err}
	}
	key, ok := vfs.KeyOfFileIndex(info.VolumeSerialNumber, info.FileIndexHigh, info.FileIndexLow)
	if !ok {
		return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.Name(), Err: errors.ErrUnsupported}
	}
	return key, nil
}
