package sandbox

import (
	"fmt"
	"strings"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// restrictLandlock puts this thread in a Landlock domain: read-only access
// to s.ReadDirs, read+execute of s.ExecFiles, nothing else on the file
// system; no TCP bind/connect (ABI ≥ 4); no signals or abstract unix sockets
// out of the domain (ABI ≥ 6). It uses the per-thread syscalls, not
// go-landlock's all-threads helper: that one enumerates /proc/<pid>/task
// (psx) and cannot work under cgo/-race, and only this thread execs.
// minLandlockABI is the oldest Landlock the design relies on: ABI 6 scopes
// signals to the domain (with ABI < 6 only seccomp stops kill(2) of the
// server, which runs as the same host uid when it is not root).
// ref: https://docs.kernel.org/userspace-api/landlock.html (ABI versions).
const minLandlockABI = 6

// checkLandlockABI refuses a kernel whose Landlock lacks what the design
// relies on, naming what is missing.
func checkLandlockABI(abi int) error {
	if abi >= minLandlockABI {
		return nil
	}
	var missing []string
	if abi < 4 {
		missing = append(missing, "TCP bind/connect rules (ABI 4)")
	}
	if abi < 5 {
		missing = append(missing, "device ioctl rules (ABI 5)")
	}
	missing = append(missing, "signal and abstract unix socket scoping (ABI 6)")
	return fmt.Errorf("landlock ABI %d lacks %s: the sandbox needs ABI %d or later (Linux 6.12)", abi, strings.Join(missing, ", "), minLandlockABI)
}

func restrictLandlock(s spec) (int, error) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0, fmt.Errorf("landlock is not available: %v", err)
	}
	if err := checkLandlockABI(abi); err != nil {
		return abi, err
	}
	fs := uint64(ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSReadDir |
		ll.AccessFSRemoveDir | ll.AccessFSRemoveFile | ll.AccessFSMakeChar | ll.AccessFSMakeDir |
		ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym)
	if abi >= 2 {
		fs |= ll.AccessFSRefer
	}
	if abi >= 3 {
		fs |= ll.AccessFSTruncate
	}
	if abi >= 5 {
		fs |= ll.AccessFSIoctlDev
	}
	attr := ll.RulesetAttr{HandledAccessFS: fs}
	if abi >= 4 {
		attr.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	if abi >= 6 {
		attr.Scoped = ll.ScopeAbstractUnixSocket | ll.ScopeSignal
	}
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return abi, fmt.Errorf("create ruleset: %v", err)
	}
	defer unix.Close(fd)
	add := func(path string, access uint64) error {
		pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("open %s: %v", path, err)
		}
		defer unix.Close(pfd)
		var st unix.Stat_t
		if err := unix.Fstat(pfd, &st); err != nil {
			return err
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			access &^= ll.AccessFSReadDir // file rules take file rights only
		}
		return ll.LandlockAddPathBeneathRule(fd, &ll.PathBeneathAttr{AllowedAccess: access & fs, ParentFd: pfd}, 0)
	}
	for _, d := range append(append([]string(nil), s.ReadDirs...), s.ReadFiles...) {
		if err := add(d, ll.AccessFSReadFile|ll.AccessFSReadDir); err != nil {
			return abi, err
		}
	}
	for _, f := range s.ExecFiles {
		if err := add(f, ll.AccessFSReadFile|ll.AccessFSExecute); err != nil {
			return abi, err
		}
	}
	if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
		return abi, fmt.Errorf("restrict self: %v", err)
	}
	return abi, nil
}
