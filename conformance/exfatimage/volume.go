package exfatimage

import (
	"encoding/binary"
	"fmt"
	"os"
)

// volume is an exFAT image opened for patching, with the geometry of its
// main boot sector (specification, section 3.1).
type volume struct {
	f            *os.File
	clusterShift uint   // log2 of the bytes in a cluster
	fatOffset    int64  // the first FAT, in bytes from the volume's start
	heapOffset   int64  // the cluster heap, in bytes from the volume's start
	clusterCount uint32 // clusters in the heap, numbered from 2
	rootCluster  uint32 // the root directory's first cluster
}

func openVolume(f *os.File) (*volume, error) {
	var b [512]byte
	if _, err := f.ReadAt(b[:], 0); err != nil {
		return nil, fmt.Errorf("reading the boot sector: %w", err)
	}
	if string(b[3:11]) != "EXFAT   " || b[510] != 0x55 || b[511] != 0xAA {
		return nil, fmt.Errorf("not an exFAT volume: the boot sector's FileSystemName is %q", b[3:11])
	}
	le := binary.LittleEndian
	sectorShift := uint(b[108])                // BytesPerSectorShift: 9 to 12
	clusterShift := sectorShift + uint(b[109]) // plus SectorsPerClusterShift: at most 25
	if sectorShift < 9 || sectorShift > 12 || clusterShift > 25 {
		return nil, fmt.Errorf("bad geometry: BytesPerSectorShift %d, SectorsPerClusterShift %d", b[108], b[109])
	}
	return &volume{
		f:            f,
		clusterShift: clusterShift,
		fatOffset:    int64(le.Uint32(b[80:])) << sectorShift, // FatOffset
		heapOffset:   int64(le.Uint32(b[88:])) << sectorShift, // ClusterHeapOffset
		clusterCount: le.Uint32(b[92:]),                       // ClusterCount
		rootCluster:  le.Uint32(b[96:]),                       // FirstClusterOfRootDirectory
	}, nil
}

// clusterAt returns where cluster c starts in the image.
func (v *volume) clusterAt(c uint32) (int64, error) {
	if c < 2 || c-2 >= v.clusterCount {
		return 0, fmt.Errorf("cluster %d is outside the heap (2 to %d)", c, v.clusterCount+1)
	}
	return v.heapOffset + int64(c-2)<<v.clusterShift, nil
}

// chain returns the clusters of the allocation that starts at first: the
// FAT's chain from first (section 4.1: an entry holds the next cluster, or
// 0xFFFFFFFF at the end), or, when contiguous (the stream extension's
// NoFatChain), the clusters that hold size bytes from first on, whose FAT
// entries are not used.
func (v *volume) chain(first uint32, size uint64, contiguous bool) ([]uint32, error) {
	if contiguous {
		n := (size + 1<<v.clusterShift - 1) >> v.clusterShift
		if n == 0 || uint64(first)+n-2 > uint64(v.clusterCount) {
			return nil, fmt.Errorf("contiguous allocation of %d bytes from cluster %d is outside the heap", size, first)
		}
		clusters := make([]uint32, n)
		for i := range clusters {
			clusters[i] = first + uint32(i)
		}
		return clusters, nil
	}
	var clusters []uint32
	var entry [4]byte
	for c := first; c != 0xFFFFFFFF; c = binary.LittleEndian.Uint32(entry[:]) {
		if _, err := v.clusterAt(c); err != nil {
			return nil, fmt.Errorf("the chain from cluster %d: %w", first, err)
		}
		if len(clusters) == int(v.clusterCount) {
			return nil, fmt.Errorf("the chain from cluster %d loops", first)
		}
		clusters = append(clusters, c)
		if _, err := v.f.ReadAt(entry[:], v.fatOffset+4*int64(c)); err != nil {
			return nil, fmt.Errorf("reading the FAT entry of cluster %d: %w", c, err)
		}
	}
	return clusters, nil
}
