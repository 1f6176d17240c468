//go:build !linux

package sandbox

import "syscall"

// MaybeChild is false off Linux: there is no helper, and the probe reports
// the namespaces layer missing, so every run answers "sandbox unavailable".
func MaybeChild() bool { return false }

func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
