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

// KeyOfFileIndex is the key of a file from what Windows says of it: the
// file-system flags of its volume (GetVolumeInformationByHandle) and, from
// GetFileInformationByHandle (BY_HANDLE_FILE_INFORMATION), the volume
// serial number as Dev and the file index (high 32 bits, low 32 bits) as
// Ino. ok is false where the index does not name the file alone, for as
// long as it exists:
//   - on a volume that cannot open a file by its id (no
//     FILE_SUPPORTS_OPEN_BY_FILE_ID in volumeFlags: FAT, exFAT), whose
//     index is made from the place of the file's directory entry, so that
//     a rename may change it and a file made later in that entry may get
//     it (a lock put back by copy would take its original's key);
//   - for the indexes that MS-FSCC 2.1.9 says must be ignored: 0 (no file
//     ids) and 2^64-1 (no unique 64-bit id, as ReFS answers for an id that
//     needs 128 bits).
func KeyOfFileIndex(volumeFlags, volumeSerial, indexHigh, indexLow uint32) (key FileKey, ok bool) {
	ino := uint64(indexHigh)<<32 | uint64(indexLow)
	if volumeFlags&fileSupportsOpenByFileID == 0 || ino == 0 || ino == ^uint64(0) {
		return FileKey{}, false
	}
	return FileKey{Dev: uint64(volumeSerial), Ino: ino}, true
}

// fileSupportsOpenByFileID is Windows' FILE_SUPPORTS_OPEN_BY_FILE_ID, a
// file-system flag of GetVolumeInformation: NTFS and ReFS have it.
const fileSupportsOpenByFileID = 0x01000000
