//go:build !unix

package main

import "os/exec"

// ownProcessGroup leaves the server in the CLI's console group where there
// are no Unix process groups.
func ownProcessGroup(*exec.Cmd) {}
