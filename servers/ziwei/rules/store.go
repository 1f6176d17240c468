package rules

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Store limits.
const (
	MaxRulesPerOwner = 200
	MaxFileBytes     = 4 << 20
	MaxNameRunes     = 80
	MaxMeaningRunes  = 2000
)

// Stored is one user rule in the rules file.
type Stored struct {
	ID      string          `json:"id"`
	Owner   string          `json:"owner"`
	Name    string          `json:"name"`
	Meaning string          `json:"meaning"`
	Rule    json.RawMessage `json:"rule"`
	Updated time.Time       `json:"updated"`
}

type fileFormat struct {
	Version int      `json:"version"`
	Rules   []Stored `json:"rules"`
}

// Compiled is a stored rule ready to evaluate.
type Compiled struct {
	Stored
	Compiled *Rule
}

// Store keeps user rules in one JSON file, written atomically (temp file +
// rename, mode 0600). Rules are kept per owner (serve.UserID), never per
// MCP session. The file is re-read when it changes on disk.
type Store struct {
	path string
	mu   sync.Mutex
	// cache of the parsed file, keyed by size and modification time
	modTime time.Time
	size    int64
	rules   []Compiled
}

// NewStore returns a store on path; the file is created on the first Put.
func NewStore(path string) *Store { return &Store{path: path} }

// Path is the rules file.
func (s *Store) Path() string { return s.path }

// ErrNoPath is returned when no rules file is configured.
var ErrNoPath = errors.New("no rules file configured: start the server with --rules-file or set ZIWEI_RULES_FILE")

func (s *Store) load() error {
	if s.path == "" {
		return ErrNoPath
	}
	st, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		s.rules, s.modTime, s.size = nil, time.Time{}, 0
		return nil
	}
	if err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	if st.ModTime().Equal(s.modTime) && st.Size() == s.size && s.rules != nil {
		return nil
	}
	if st.Size() > MaxFileBytes {
		return fmt.Errorf("rules file %s is %d bytes, over the %d limit", s.path, st.Size(), MaxFileBytes)
	}
	data, err := os.ReadFile(s.path)
	if err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	var f fileFormat
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("rules file %s is not valid JSON: %w", s.path, err)
	}
	out := make([]Compiled, 0, len(f.Rules))
	for _, r := range f.Rules {
		c, err := Parse(r.Rule)
		if err != nil {
			continue // a hand-edited bad entry is skipped, not fatal
		}
		out = append(out, Compiled{Stored: r, Compiled: c})
	}
	s.rules, s.modTime, s.size = out, st.ModTime(), st.Size()
	return nil
}

// List returns the owner's rules, sorted by name.
func (s *Store) List(owner string) ([]Compiled, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return nil, err
	}
	var out []Compiled
	for _, r := range s.rules {
		if r.Owner == owner {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// RuleID is the stable id of an owner's named rule: storing the same name again replaces it.
func RuleID(owner, name string) string {
	h := sha256.Sum256([]byte(owner + "\x00" + name))
	return "r-" + hex.EncodeToString(h[:6])
}

// Put validates and stores a rule; it returns the stored entry and whether it
// replaced one with the same name.
func (s *Store) Put(owner, name, meaning string, rule json.RawMessage, now time.Time) (Stored, bool, error) {
	name, meaning = strings.TrimSpace(name), strings.TrimSpace(meaning)
	if name == "" || len([]rune(name)) > MaxNameRunes {
		return Stored{}, false, &Error{Path: "name", Message: fmt.Sprintf("name must be 1-%d characters", MaxNameRunes)}
	}
	if meaning == "" || len([]rune(meaning)) > MaxMeaningRunes {
		return Stored{}, false, &Error{Path: "meaning", Message: fmt.Sprintf("meaning must be 1-%d characters", MaxMeaningRunes)}
	}
	if _, err := Parse(rule); err != nil {
		return Stored{}, false, err
	}
	// Store the rule compacted, as given.
	var buf bytes.Buffer
	if err := json.Compact(&buf, rule); err != nil {
		return Stored{}, false, &Error{Message: "rule is not valid JSON"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return Stored{}, false, err
	}
	entry := Stored{ID: RuleID(owner, name), Owner: owner, Name: name, Meaning: meaning, Rule: json.RawMessage(buf.String()), Updated: now.UTC().Truncate(time.Second)}
	all := make([]Stored, 0, len(s.rules)+1)
	replaced, mine := false, 0
	for _, r := range s.rules {
		if r.ID == entry.ID {
			replaced = true
			continue
		}
		if r.Owner == owner {
			mine++
		}
		all = append(all, r.Stored)
	}
	if mine >= MaxRulesPerOwner {
		return Stored{}, false, &Error{Message: fmt.Sprintf("you already store %d rules, the limit; replace one by storing under its name", MaxRulesPerOwner)}
	}
	all = append(all, entry)
	data, err := json.MarshalIndent(fileFormat{Version: 1, Rules: all}, "", " ")
	if err != nil {
		return Stored{}, false, err
	}
	if len(data) > MaxFileBytes {
		return Stored{}, false, &Error{Message: "the rules file would exceed its size limit; shorten meanings or remove rules"}
	}
	if err := writeAtomic(s.path, data); err != nil {
		return Stored{}, false, err
	}
	s.modTime = time.Time{} // force a reload next time
	return entry, replaced, nil
}

// writeAtomic writes data to a temp file in the same directory (mode 0600),
// syncs it and renames it over path; the directory is created (0700).
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("rules file: create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".ziwei-rules-*.tmp")
	if err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("rules file: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("rules file: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("rules file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rules file: %w", err)
	}
	return nil
}
