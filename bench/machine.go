package main

import (
	"fmt"
	"runtime"
	"time"
)

// Machine is what RESULTS.md says about the machine and the run.
type Machine struct {
	Cores   int      // runtime.NumCPU
	CPU     string   // the model, where the system tells it
	OS      string   // GOOS/GOARCH
	Kernel  string   // uname: system and release
	Go      string   // runtime.Version
	Date    string   // the run's start, UTC
	Load    string   // the load average at the start (Linux), "" elsewhere
	Folders []Folder // the directories measured in
}

// Folder is one directory measured in, with its file system as statfs tells
// it.
type Folder struct {
	Label string // "temp dir", "tmpfs"
	Path  string // absolute
	FS    string // "ext2/ext3/ext4 (statfs magic 0xef53; mounted as ext4)"
	Short string // "ext4": the mount's type, or statfs's name
}

// describeMachine reads the machine's facts at the start of a run; folders
// are labelled paths (label, path) whose file systems it reports.
func describeMachine(folders ...[2]string) Machine {
	m := Machine{
		Cores:  runtime.NumCPU(),
		CPU:    cpuModel(),
		OS:     runtime.GOOS + "/" + runtime.GOARCH,
		Kernel: kernel(),
		Go:     runtime.Version(),
		Date:   time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Load:   loadAverage(),
	}
	for _, f := range folders {
		fs, short, err := fsType(f[1])
		if err != nil {
			fs, short = fmt.Sprintf("unknown (%v)", err), "unknown"
		}
		m.Folders = append(m.Folders, Folder{Label: f[0], Path: f[1], FS: fs, Short: short})
	}
	return m
}
