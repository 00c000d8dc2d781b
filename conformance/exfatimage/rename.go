package exfatimage

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
)

// RenameEntry renames, in the unmounted exFAT image file image, the entry
// set named from in the folder dir (the folder's path from the root, one
// element per folder; nil for the root directory) to to: it writes the new
// name into the set's file-name entries, and its NameLength, NameHash and
// SetChecksum. Nothing else changes: the file keeps its attributes, times
// and data. It does not check that the folder has no entry named to
// already: making a folder list one name twice is what it is for.
//
// Names are matched regardless of case, by ASCII up-casing. from and to
// must be ASCII, without the characters exFAT forbids in a name (control
// characters and "*/:<>?\|), and take the same number of file-name entries
// (15 characters each), so that the set keeps its size. from must name
// exactly one entry set of the folder; the error matches fs.ErrNotExist
// when none.
func RenameEntry(image string, dir []string, from, to string) error {
	if err := checkRename(from, to); err != nil {
		return fmt.Errorf("exfatimage: renaming %q to %q: %w", from, to, err)
	}
	f, err := os.OpenFile(image, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("exfatimage: %w", err)
	}
	defer f.Close()
	if err := renameEntry(f, dir, from, to); err != nil {
		return fmt.Errorf("exfatimage: %s: renaming %q to %q: %w", image, from, to, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("exfatimage: %w", err)
	}
	return f.Close()
}

func renameEntry(f *os.File, dir []string, from, to string) error {
	v, err := openVolume(f)
	if err != nil {
		return err
	}
	d, err := v.walk(dir)
	if err != nil {
		return err
	}
	s, err := d.lookup(from)
	if err != nil {
		return err
	}
	set := d.data[s.start : s.start+s.count*entrySize]
	le := binary.LittleEndian
	stream := set[entrySize:]
	stream[3] = byte(len(to)) // NameLength
	le.PutUint16(stream[4:], nameHash(to))
	for k := range nameEntries(to) {
		name := set[(2+k)*entrySize+2 : (3+k)*entrySize] // FileName: 15 code units
		clear(name)
		for j := 0; j < namePerEntry && k*namePerEntry+j < len(to); j++ {
			le.PutUint16(name[2*j:], uint16(to[k*namePerEntry+j]))
		}
	}
	le.PutUint16(set[2:], setChecksum(set))
	// Entry by entry: a set may run across two clusters, which need not be
	// next to each other in the image.
	for i := 0; i < len(set); i += entrySize {
		if _, err := f.WriteAt(set[i:i+entrySize], v.imageAt(d, s.start+i)); err != nil {
			return err
		}
	}
	return nil
}

// checkRename refuses names this package cannot write (see RenameEntry).
func checkRename(from, to string) error {
	for _, name := range []string{from, to} {
		for _, r := range name {
			switch {
			case r > 0x7F:
				return fmt.Errorf("%q has %q, not ASCII: this package up-cases ASCII only", name, r)
			case r < 0x20 || strings.ContainsRune(illegalNameChars, r):
				return fmt.Errorf("%q has %q, which exFAT forbids in a name", name, r)
			}
		}
		if name == "" || len(name) > maxNameLength {
			return fmt.Errorf("a name is 1 to %d characters, not %d", maxNameLength, len(name))
		}
	}
	if nameEntries(from) != nameEntries(to) {
		return fmt.Errorf("%q takes %d file-name entries and %q %d: only a rename that keeps the entry set's size is written", from, nameEntries(from), to, nameEntries(to))
	}
	return nil
}

// nameEntries is how many file-name entries hold an ASCII name.
func nameEntries(name string) int {
	return (len(name) + namePerEntry - 1) / namePerEntry
}
