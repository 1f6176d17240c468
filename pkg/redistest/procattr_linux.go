package redistest

import "syscall"

// sysProcAttr asks the kernel to kill redis-server if the test binary dies
// without running its cleanups (e.g. a test timeout panic), so no server is
// left behind holding a port.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
