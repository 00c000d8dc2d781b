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
// and 64-bit file index, on a volume whose file system opens files by id
// (GetVolumeInformationByHandle; NTFS and ReFS, whose index stays the
// file's until it is deleted), made a key by [vfs.KeyOfFileIndex]. Errors
// are *fs.PathError (Op "filekey"): the system's error, or
// errors.ErrUnsupported where the index does not name the file alone (FAT
// and exFAT, whose index is the place of a directory entry; an index of 0
// or 2^64-1).
func (f *File) FileKey() (vfs.FileKey, error) {
	conn, err := f.SyscallConn()
	if err != nil {
		return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.Name(), Err: err}
	}
	var flags uint32
	var info windows.ByHandleFileInformation
	var infoErr error
	err = conn.Control(func(fd uintptr) {
		h := windows.Handle(fd)
		infoErr = windows.GetVolumeInformationByHandle(h, nil, 0, nil, nil, &flags, nil, 0)
		if infoErr == nil {
			infoErr = windows.GetFileInformationByHandle(h, &info)
		}
	})
	if err == nil {
		err = infoErr
	}
	if err != nil {
		return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.Name(), Err: err}
	}
	key, ok := vfs.KeyOfFileIndex(flags, info.VolumeSerialNumber, info.FileIndexHigh, info.FileIndexLow)
	if !ok {
		return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.Name(), Err: errors.ErrUnsupported}
	}
	return key, nil
}
