// Package exfatimage patches an unmounted exFAT image in place, to make
// states a real driver never leaves behind on its own but a power cut can:
// [RenameEntry] renames one directory entry set, so that a folder may hold
// one name twice, as a cut inside a rename over an existing name can leave
// it (the new entry landed, the replaced one's removal not).
//
// It reads the volume as Microsoft's exFAT file system specification lays
// it out: the main boot sector's geometry (section 3.1), the FAT's cluster
// chains (section 4.1), and a folder's directory entry sets (sections 6
// and 7: a file entry, a stream extension, file-name entries), and writes
// back only the entries of the set it renames, their NameLength, NameHash
// and SetChecksum made right. Up-casing, for the hash and for matching
// names, is ASCII-only: it refuses names with any other character, so it
// never needs the volume's up-case table.
//
// The package's tests mount the patched images with exfat-fuse, as root,
// and run the lock's commit over a doubled name (docs/spawn-log-lock.md, "A
// power cut").
package exfatimage
