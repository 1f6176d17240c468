package store

import (
	"errors"
	"fmt"
)

// Kinds of failure; test them with errors.Is(err, store.ErrLocked).
var (
	ErrUnwritable  = errors.New("state not writable")
	ErrLocked      = errors.New("state file locked")
	ErrCorrupt     = errors.New("state file corrupt")
	ErrFull        = errors.New("disk full")
	ErrNewerSchema = errors.New("state schema from a newer release")
	ErrIO          = errors.New("state file I/O error")
)

const (
	fixDir     = "make the directory writable, or set MCPFLEET_STATE_DIR (or --state-dir) to a writable directory, or MCPFLEET_STATE=memory to keep state in memory only"
	fixLocked  = "another process holds the file's lock: stop it (an sqlite3 shell, a backup tool, a stuck server), or set MCPFLEET_STATE_DIR to another directory"
	fixCorrupt = "stop the servers using it and move the file (and its -wal and -shm files) aside; the server starts with empty state (limits, caches, stored data in it are lost)"
	fixFull    = "free disk space on the state directory's file system, or set MCPFLEET_STATE_DIR to one with room"
)

// Error is a failure of the state file: what happened to which path, and what
// the operator can do about it.
type Error struct {
	Path    string
	Kind    error // one of the Err* values
	Problem string
	Fix     string
	Err     error // the underlying error, if any
}

func (e *Error) Error() string {
	s := "state file " + e.Path + ": " + e.Problem
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s + "; fix: " + e.Fix
}

// Is reports the kind, so errors.Is(err, ErrLocked) works.
func (e *Error) Is(target error) bool { return target == e.Kind }

func (e *Error) Unwrap() error { return e.Err }

// SQLite's primary result codes (https://www.sqlite.org/rescode.html).
const (
	codePerm     = 3
	codeBusy     = 5
	codeLocked   = 6
	codeReadOnly = 8
	codeIOErr    = 10
	codeCorrupt  = 11
	codeFull     = 13
	codeCantOpen = 14
	codeNotADB   = 26
)

type coder interface{ Code() int }

// classify turns a driver error into an *Error; other errors (a caller's
// own, a context's) pass through unchanged.
func classify(path, what string, err error) error {
	var se *Error
	if err == nil || errors.As(err, &se) {
		return err
	}
	var c coder
	if !errors.As(err, &c) {
		return err
	}
	e := &Error{Path: path, Problem: what, Err: err}
	switch c.Code() & 0xff { // extended codes keep the primary code in the low byte
	case codeBusy, codeLocked:
		e.Kind, e.Fix = ErrLocked, fixLocked
		e.Problem = what + ": locked by another process past the busy timeout"
	case codeCorrupt, codeNotADB:
		e.Kind, e.Fix = ErrCorrupt, fixCorrupt
		e.Problem = what + ": the file is not a valid SQLite database"
	case codeFull:
		e.Kind, e.Fix = ErrFull, fixFull
		e.Problem = what + ": the disk (or the file's size limit) is full"
	case codeReadOnly, codeCantOpen, codePerm:
		e.Kind, e.Fix = ErrUnwritable, fixDir
	case codeIOErr:
		e.Kind, e.Fix = ErrIO, "check the disk holding the state directory (dmesg); "+fixDir
	default:
		return fmt.Errorf("state file %s: %s: %w", path, what, err)
	}
	return e
}
