// Package hpview is a test helper of the vfs backends: a vfs.FS seen as a
// hackpadfs FS ([FS]), so that hackpadfs's own fstest suite checks our
// backends (osfs, nolinkfs, faultfs) for the general file-system behaviour
// vfs/vfstest does not check ([Run]), and [Main], a TestMain that clears
// the umask that suite needs cleared.
package hpview
