package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// document is where the rules document ({"version":1,"rules":[...]}) lives:
// the state file (dbDoc) or, in older releases, a JSON file (jsonFile). The
// Store does every check (quotas, read-back, corrupt entries) the same way
// on both; a document only reads, writes, and locks across processes.
type document interface {
	// stat is cheap: it tells whether the document changed since a load.
	stat() (docStamp, error)
	read() ([]byte, error)
	// lock holds off every other writer, in any process, until unlock;
	// write is called only while it is held.
	lock() (unlock func(), err error)
	write(data []byte) error
}

// docStamp identifies one version of the document.
type docStamp struct {
	exists  bool
	modTime time.Time // jsonFile
	size    int64
	gen     int64 // dbDoc: bumped by every write
}

func (a docStamp) same(b docStamp) bool {
	return a.exists == b.exists && a.modTime.Equal(b.modTime) && a.size == b.size && a.gen == b.gen
}

// jsonFile is the rules file of older releases: written atomically (temp
// file + fsync + rename), locked with flock on path+".lock".
type jsonFile struct{ path string }

func (f jsonFile) stat() (docStamp, error) {
	st, err := os.Stat(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return docStamp{}, nil
	}
	if err != nil {
		return docStamp{}, fmt.Errorf("rules file: %w", err)
	}
	return docStamp{exists: true, modTime: st.ModTime(), size: st.Size()}, nil
}

func (f jsonFile) read() ([]byte, error) {
	b, err := os.ReadFile(f.path)
	if err != nil {
		return nil, fmt.Errorf("rules file: %w", err)
	}
	return b, nil
}

func (f jsonFile) lock() (func(), error) { return lockFile(f.path) }

func (f jsonFile) write(data []byte) error { return writeAtomic(f.path, data) }
