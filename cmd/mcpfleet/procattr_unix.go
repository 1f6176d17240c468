//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts the server in a process group of its own: Ctrl-C on
// the terminal sends SIGINT to the terminal's foreground group, which is the
// CLI's, so the CLI cancels the call in flight (notifications/cancelled) and
// the server, which would shut down on SIGINT, keeps serving the session.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
