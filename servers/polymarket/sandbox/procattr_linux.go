package sandbox

import (
	"os"
	"syscall"
)

// procAttr starts bwrap in a process group of its own (the wall clock and
// the output caps kill the group) that dies with the server. A server
// running as root starts bwrap as nobody: bwrap run by root keeps every
// capability inside the sandbox, and nobody is the host identity the code
// should have anyway. Any other user runs bwrap as itself (bwrap then
// maps nobody inside to that uid, with no capability).
func procAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if os.Getuid() == 0 {
		a.Credential = &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}
	}
	return a
}
