package exfatimage

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"unicode/utf16"
)

// The directory entry types this package reads (specification, section
// 6.2): a file's or folder's primary entry and its two kinds of secondary
// entries. A type below 0x80 is an entry not in use (deleted); 0x00 ends
// the directory.
const (
	typeEndOfDirectory = 0x00
	typeFile           = 0x85
	typeStream         = 0xC0
	typeFileName       = 0xC1
)

const (
	entrySize        = 32
	namePerEntry     = 15   // UTF-16 code units in one file-name entry
	attribDirectory  = 0x10 // FileAttributes: a folder
	flagNoFatChain   = 0x02 // the stream's GeneralSecondaryFlags: contiguous
	maxNameLength    = 255
	illegalNameChars = `"*/:<>?\|`
)

// folder is a directory's content, read whole, with the clusters it lies in.
type folder struct {
	path     string // slash-separated from the root, for errors
	clusters []uint32
	data     []byte
}

// entrySet is one file's or folder's directory entry set (section 7.4): a
// file entry, a stream extension (section 7.6), then the file-name entries
// (section 7.7) and any other secondaries.
type entrySet struct {
	start        int // the file entry's offset in the folder's data
	count        int // entries in the set: 1 + SecondaryCount
	name         string
	isDir        bool
	firstCluster uint32
	dataLength   uint64
	contiguous   bool
}

func (v *volume) readFolder(path string, clusters []uint32) (*folder, error) {
	d := &folder{path: path, clusters: clusters, data: make([]byte, len(clusters)<<v.clusterShift)}
	for i, c := range clusters {
		at, err := v.clusterAt(c)
		if err != nil {
			return nil, err
		}
		if _, err := v.f.ReadAt(d.data[i<<v.clusterShift:(i+1)<<v.clusterShift], at); err != nil {
			return nil, fmt.Errorf("reading folder %q: %w", path, err)
		}
	}
	return d, nil
}

// imageAt returns where the folder's byte i lies in the image.
func (v *volume) imageAt(d *folder, i int) int64 {
	at, _ := v.clusterAt(d.clusters[i>>v.clusterShift]) // checked by readFolder
	return at + int64(i&(1<<v.clusterShift-1))
}

// walk reads the root directory and then each sub-folder of path in turn.
func (v *volume) walk(path []string) (*folder, error) {
	clusters, err := v.chain(v.rootCluster, 0, false)
	if err != nil {
		return nil, fmt.Errorf("the root directory: %w", err)
	}
	d, err := v.readFolder("/", clusters)
	if err != nil {
		return nil, err
	}
	for _, name := range path {
		s, err := d.lookup(name)
		if err != nil {
			return nil, err
		}
		if !s.isDir {
			return nil, fmt.Errorf("%s%s is not a folder", d.path, name)
		}
		clusters, err := v.chain(s.firstCluster, s.dataLength, s.contiguous)
		if err != nil {
			return nil, fmt.Errorf("folder %s%s: %w", d.path, name, err)
		}
		if d, err = v.readFolder(d.path+name+"/", clusters); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// lookup returns the one entry set of the folder named name, matched with
// ASCII up-casing as exFAT matches names regardless of case; an error
// matching fs.ErrNotExist when there is none, and an error when there are
// more than one.
func (d *folder) lookup(name string) (entrySet, error) {
	sets, err := d.entrySets()
	if err != nil {
		return entrySet{}, err
	}
	var found []entrySet
	for _, s := range sets {
		if upcase(s.name) == upcase(name) {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		return entrySet{}, fmt.Errorf("%s%s: %w", d.path, name, fs.ErrNotExist)
	case 1:
		return found[0], nil
	}
	return entrySet{}, fmt.Errorf("%s%s: the folder lists the name %d times", d.path, name, len(found))
}

// entrySets returns the folder's file and folder entry sets in directory
// order, up to its end-of-directory entry. A set whose SetChecksum is wrong
// or whose entries are not in the specification's order is an error.
func (d *folder) entrySets() ([]entrySet, error) {
	le := binary.LittleEndian
	var sets []entrySet
	for i := 0; i < len(d.data); i += entrySize {
		switch d.data[i] {
		case typeEndOfDirectory:
			return sets, nil
		case typeFile:
		default:
			continue // another primary, a deleted entry, or a secondary of those
		}
		count := 1 + int(d.data[i+1]) // SecondaryCount
		if count < 3 || i+count*entrySize > len(d.data) {
			return nil, fmt.Errorf("%s: the entry set at byte %d has %d secondaries", d.path, i, count-1)
		}
		set := d.data[i : i+count*entrySize]
		if got, want := le.Uint16(set[2:]), setChecksum(set); got != want {
			return nil, fmt.Errorf("%s: the entry set at byte %d has SetChecksum %#04x, its entries sum to %#04x", d.path, i, got, want)
		}
		stream := set[entrySize:]
		nameLength := int(stream[3])
		nameEntries := (nameLength + namePerEntry - 1) / namePerEntry
		if stream[0] != typeStream || nameLength == 0 || 2+nameEntries > count {
			return nil, fmt.Errorf("%s: the entry set at byte %d has no stream extension and name to match", d.path, i)
		}
		units := make([]uint16, 0, nameEntries*namePerEntry)
		for k := range nameEntries {
			e := set[(2+k)*entrySize:]
			if e[0] != typeFileName {
				return nil, fmt.Errorf("%s: the entry set at byte %d has entry type %#02x where a file name should be", d.path, i, e[0])
			}
			for j := range namePerEntry {
				units = append(units, le.Uint16(e[2+2*j:]))
			}
		}
		sets = append(sets, entrySet{
			start:        i,
			count:        count,
			name:         string(utf16.Decode(units[:nameLength])),
			isDir:        le.Uint16(set[4:])&attribDirectory != 0,
			firstCluster: le.Uint32(stream[20:]),
			dataLength:   le.Uint64(stream[24:]),
			contiguous:   stream[1]&flagNoFatChain != 0,
		})
		i += (count - 1) * entrySize
	}
	return sets, nil
}

// setChecksum is the entry set's SetChecksum (section 6.3.3): a 16-bit
// rotate-and-add over every byte of the set but the checksum's own two.
func setChecksum(set []byte) uint16 {
	var sum uint16
	for i, b := range set {
		if i == 2 || i == 3 {
			continue
		}
		sum = (sum<<15 | sum>>1) + uint16(b)
	}
	return sum
}

// nameHash is the stream extension's NameHash (section 7.6.4): the same
// rotate-and-add over the up-cased name's UTF-16 code units, low byte first.
func nameHash(name string) uint16 {
	var hash uint16
	for _, u := range utf16.Encode([]rune(upcase(name))) {
		hash = (hash<<15 | hash>>1) + u&0xFF
		hash = (hash<<15 | hash>>1) + u>>8
	}
	return hash
}

// upcase up-cases the ASCII letters of name, and only those.
func upcase(name string) string {
	b := []byte(name)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
