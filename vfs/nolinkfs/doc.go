// Package nolinkfs wraps a [vfs.FS] so that it has no hard links: Link always
// fails, with the errno a chosen volume returns (ENOTSUP, EPERM as exFAT
// does, or EOPNOTSUPP). Everything else passes through to the wrapped FS.
//
// It lets the lock's no-hard-links class (spec: "The steps", Acquire step 2:
// any link() error other than ENOENT or EEXIST) run on any volume: every
// such errno must make
// [vfs.NoHardLinks] report true.
package nolinkfs
