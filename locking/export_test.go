package locking

// DropKernelLock closes the handle that holds h's kernel lock, without a
// release: to the kernel, the holder has died (the lock stays under its
// name, its record still claiming the kernel lock, and no process holds
// it). For the tests of package locking_test.
func DropKernelLock(h *Hold) { h.dropKernel() }

// ForgetLinkedKernelLock forgets what linkedKernelLock learned of every
// device, so that a test's FS is asked again.
func ForgetLinkedKernelLock() { linksShareKernelLock.Clear() }
