package sandbox

import (
	"os"
	"syscall"
)

func procAttr() *syscall.SysProcAttr {
	hostUID, hostGID := os.Getuid(), os.Getgid()
	a := &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS,
		// As root, nobody inside is the host's nobody; otherwise it is the
		// server's own uid (the only one an unprivileged process may map).
		UidMappings: []syscall.SysProcIDMap{{ContainerID: nobody, HostID: pick(hostUID == 0, nobody, hostUID), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: nobody, HostID: pick(hostUID == 0, nobody, hostGID), Size: 1}},
		Credential:  &syscall.Credential{Uid: nobody, Gid: nobody},
		Setpgid:     true,
		Pdeathsig:   syscall.SIGKILL,
	}
	if hostUID == 0 {
		// Drop root's supplementary groups (setgroups needs "allow").
		a.GidMappingsEnableSetgroups = true
		a.Credential.Groups = []uint32{}
	} else {
		a.Credential.NoSetGroups = true
	}
	return a
}

func pick(c bool, a, b int) int {
	if c {
		return a
	}
	return b
}
