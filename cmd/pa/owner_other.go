//go:build !unix

package main

import "io/fs"

// ownerUID tells no owner where files carry no uid (Windows).
func ownerUID(fs.FileInfo) (int, bool) { return 0, false }

// dirWritable tells nothing where files carry no mode bits of users.
func dirWritable(fs.FileInfo) (writable, known bool) { return false, false }
