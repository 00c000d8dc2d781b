package vfs

import "io/fs"

// FileKeyer is a [File] that can say the key of the file it is open on from
// its handle, where the stat data carries none: osfs's files on Windows
// (GetFileInformationByHandle). A wrapper of files forwards it, as it
// forwards [Locker].
type FileKeyer interface {
	File
	// FileKey returns the key of the file the handle is open on. It fails
	// with an error matching errors.ErrUnsupported where the handle cannot
	// say one (a wrapped file that is no FileKeyer, a volume with no unique
	// file index), and with the system's error where its call fails.
	FileKey() (FileKey, error)
}

// KeyOfFile returns the key of the file f is open on: from f's handle when f
// is a [FileKeyer] that says one, else from fi, f's stat data ([KeyOf]; fi
// may be nil). On Unix osfs's files are no FileKeyer (a wrapper's answers
// ErrUnsupported at once), so the key is fi's and no system call is made;
// on Windows it is the handle's. ok is false where neither says.
func KeyOfFile(f File, fi fs.FileInfo) (key FileKey, ok bool) {
	if k, isKeyer := f.(FileKeyer); isKeyer {
		if key, err := k.FileKey(); err == nil && key.Ino != 0 {
			return key, true
		}
	}
	return KeyOf(fi)
}

// KeyOfName returns the key of the file name leads to now: from its stat
// data where that carries one (Unix: Stat alone), else from a handle opened
// on name for reading ([ReadFlags]) and closed at once ([KeyOfFile];
// Windows). ok is false where neither says; err is Stat's or OpenFile's
// (matching fs.ErrNotExist when name is gone).
func KeyOfName(fsys FS, name string) (key FileKey, ok bool, err error) {
	fi, err := fsys.Stat(name)
	if err != nil {
		return FileKey{}, false, err
	}
	if key, ok := KeyOf(fi); ok {
		return key, true, nil
	}
	f, err := fsys.OpenFile(name, ReadFlags, 0)
	if err != nil {
		return FileKey{}, false, err
	}
	defer f.Close()
	key, ok = KeyOfFile(f, nil)
	return key, ok, nil
}

// KeyOfFileIndex is the key of a file from what Windows'
// GetFileInformationByHandle says of it (BY_HANDLE_FILE_INFORMATION): the
// volume serial number as Dev, the file index (high 32 bits, low 32 bits)
// as Ino. ok is false for the indexes that name no file: 0 (the volume has
// no file ids) and 2^64-1 (no unique 64-bit id can be given, as on ReFS for
// a file whose id needs 128 bits; MS-FSCC 2.1.9), so a key is never shared
// by two files that exist at once.
func KeyOfFileIndex(volumeSerial, indexHigh, indexLow uint32) (key FileKey, ok bool) {
	ino := uint64(indexHigh)<<32 | uint64(indexLow)
	if ino == 0 || ino == ^uint64(0) {
		return FileKey{}, false
	}
	return FileKey{Dev: uint64(volumeSerial), Ino: ino}, true
}
