package vfs

import "io/fs"

// FileKey names one file of a volume for as long as it exists: the device
// and the inode number that stat(2) reports (on Windows the volume serial
// number and the file index, [KeyOfFileIndex]). Two open handles whose keys
// are equal are of one file; a file copied under the same name gets a new
// key.
type FileKey struct {
	// Dev is the device the file is on (st_dev; Windows: the volume
	// serial number).
	Dev uint64
	// Ino is the file's inode number on that device (st_ino; Windows: the
	// 64-bit file index), never 0 in a key this package returns.
	Ino uint64
}

// KeyOf returns the key of the file fi describes, from the stat data its
// Sys method carries (a *syscall.Stat_t on Unix). ok is false where fi
// carries none (an in-memory FS, Windows' FileInfo) or the inode is 0. For
// an open file, [KeyOfFile] also asks the handle.
func KeyOf(fi fs.FileInfo) (key FileKey, ok bool) {
	if fi == nil {
		return FileKey{}, false
	}
	key, ok = keyOf(fi.Sys())
	if key.Ino == 0 {
		return FileKey{}, false
	}
	return key, ok
}
