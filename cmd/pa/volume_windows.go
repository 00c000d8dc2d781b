package main

import (
	"golang.org/x/sys/windows"
)

// volumeOf asks Windows for the volume that holds dir and its file
// system's name (NTFS, exFAT, FAT32, ReFS).
func volumeOf(dir string) volume {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return volume{}
	}
	root := make([]uint16, windows.MAX_PATH+1)
	if err := windows.GetVolumePathName(p, &root[0], uint32(len(root))); err != nil {
		return volume{}
	}
	fsName := make([]uint16, windows.MAX_PATH+1)
	if err := windows.GetVolumeInformation(&root[0], nil, 0, nil, nil, nil, &fsName[0], uint32(len(fsName))); err != nil {
		return volume{MountPoint: windows.UTF16ToString(root)}
	}
	return volume{Type: windows.UTF16ToString(fsName), MountPoint: windows.UTF16ToString(root)}
}
