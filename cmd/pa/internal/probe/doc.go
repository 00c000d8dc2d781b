// Package probe reports what a volume does with the operations the
// spawn-log lock relies on (spec: The supported envelope): an exclusive
// create, link() (the lock's class: hard links or none), a rename over a
// file (also one still open), a remove of a file still open, a rename of a
// directory onto a file, an empty and a non-empty directory, a directory
// fsync, an advisory lock (flock), and whether a listing taken right after a
// create shows it. Of the advisory lock it also reports what the lock makes
// of it ([KernelLock]): whether it exists and excludes a second open of the
// same file, so that a hold there claims a kernel lock in its record.
//
// It decides nothing: the lock learns its class anew in every hold, and
// [Run] only describes the volume to a person (`pa fs probe DIR`). It works
// in a folder of its own, .pa-probe-<random>, which it creates and removes;
// it removes only names it created, and reports any other name that
// appeared there (a FUSE volume's .fuse_hidden* file of a file still open
// when it was removed or renamed over).
package probe
