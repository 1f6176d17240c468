//go:build !unix

package serve

import "os"

// pollable is the unix optimisation's stand-in: elsewhere the transport uses
// f as it is.
func pollable(f *os.File) (*os.File, func()) { return nil, nil }
