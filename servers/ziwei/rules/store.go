package rules

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/rs/zerolog"
)

// Field limits of a stored rule, checked on write and on read alike.
const (
	MaxNameRunes    = 80
	MaxMeaningRunes = 2000
)

// readCap bounds what is read from disk whatever the configured limits say, so
// a lowered ZIWEI_RULES_FILE_MAX_BYTES never hides rules already stored.
const readCap = 64 << 20

// Stored is one user rule in the rules file.
type Stored struct {
	ID      string          `json:"id"`
	Owner   string          `json:"owner"`
	Name    string          `json:"name"`
	Meaning string          `json:"meaning"`
	Rule    json.RawMessage `json:"rule"`
	Updated time.Time       `json:"updated"`
}

// Compiled is a stored rule ready to evaluate.
type Compiled struct {
	Stored
	Compiled *Rule
}

// Corrupt is an entry of the rules file that cannot be used (hand-edited, or
// written by an older version): it is reported, kept in the file as it is,
// counted against its owner's quota, and removable with Delete by its id.
type Corrupt struct {
	Index  int    `json:"index" jsonschema:"position in the rules file"`
	ID     string `json:"id,omitempty"`
	Name   string `json:"name,omitempty"`
	Reason string `json:"reason"`
}

// Usage is what one user's entries take of the rules file.
type Usage struct {
	Rules      int `json:"rules"`
	Bytes      int `json:"bytes"`
	MaxRules   int `json:"maxRules"`
	QuotaBytes int `json:"quotaBytes"`
}

// Listing is one user's view of the rules file.
type Listing struct {
	Rules   []Compiled // sorted by name
	Corrupt []Corrupt  // this user's entries that could not be read
	Usage   Usage
}

// entry is one rule of the file as kept in memory.
type entry struct {
	line    []byte    // its JSON as written in the file (compact, one line)
	owner   string    // "" when not even the owner could be read
	id      string    // "" when not readable
	good    *Compiled // nil for a corrupt entry
	corrupt *Corrupt
}

// cost is what an entry counts against its owner's quota: its line and the
// separator after it.
func (e entry) cost() int { return len(e.line) + 2 }

// Store keeps user rules in one JSON file, one rule per line, written
// atomically (temp file + fsync + rename, mode 0600). Rules are kept per owner
// (identity.UserID: the bearer token's user), never per MCP session. Each owner
// has a quota of rules and bytes (Limits); the file is re-read when it changes
// on disk.
type Store struct {
	path   string // where the document lives, for messages
	doc    document
	limits Limits
	log    zerolog.Logger

	mu sync.RWMutex
	// cache of the parsed document, keyed by its stamp
	loaded  bool
	stamp   docStamp
	size    int64
	entries []entry
}

// NewStore returns a store on the JSON file at path with DefaultLimits; the
// file is created on the first Put. Servers keep rules in the state file
// (NewDBStore); the JSON file is what older releases wrote.
func NewStore(path string) *Store {
	s := &Store{path: path, limits: DefaultLimits(), log: zerolog.Nop()}
	if path != "" {
		s.doc = jsonFile{path: path}
	}
	return s
}

// WithLimits sets the quotas (zero fields keep their defaults).
func (s *Store) WithLimits(l Limits) *Store {
	d := DefaultLimits()
	if l.UserBytes > 0 {
		d.UserBytes = l.UserBytes
	}
	if l.UserRules > 0 {
		d.UserRules = l.UserRules
	}
	if l.FileBytes > 0 {
		d.FileBytes = l.FileBytes
	}
	s.limits = d
	return s
}

// WithLogger sets where corrupt entries are reported (once per change of the file).
func (s *Store) WithLogger(l zerolog.Logger) *Store {
	s.log = l
	return s
}

// Path is the rules file.
func (s *Store) Path() string { return s.path }

// Limits are the store's quotas.
func (s *Store) Limits() Limits { return s.limits }

// ErrNoPath is returned when no rules file is configured.
var ErrNoPath = errors.New("no rules file configured: start the server with --rules-file or set ZIWEI_RULES_FILE")

func (s *Store) load() error {
	if s.doc == nil {
		return ErrNoPath
	}
	st, err := s.doc.stat()
	if s.current(st, err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.exists {
		s.entries, s.stamp, s.size, s.loaded = nil, st, 0, true
		return nil
	}
	if st.size > readCap {
		return fmt.Errorf("rules file %s is %d bytes, over the %d bytes this server reads; move it aside", s.path, st.size, readCap)
	}
	data, err := s.doc.read()
	if err != nil {
		return err
	}
	entries, err := decodeFile(data)
	if err != nil {
		return fmt.Errorf("rules file %s: %w; fix it or move it aside (nothing is written over it meanwhile)", s.path, err)
	}
	for _, e := range entries {
		if e.corrupt != nil {
			s.log.Warn().Str("rules_file", s.path).Int("index", e.corrupt.Index).Str("id", e.corrupt.ID).Str("owner", e.owner).
				Str("reason", e.corrupt.Reason).Msg("rules file: an entry cannot be read; it is kept, reported to its owner and can be deleted")
		}
	}
	s.entries, s.stamp, s.size, s.loaded = entries, st, int64(len(data)), true
	return nil
}

// List returns the owner's rules (sorted by name), the owner's entries that
// could not be read, and the owner's usage of the quotas.
// Every chart a user builds lists their rules, so the unchanged file is the
// common case: it is stat'ed outside the lock and listed under a read lock,
// and concurrent calls no longer queue behind one another's stat.
func (s *Store) List(owner string) (Listing, error) {
	if s.doc == nil {
		return Listing{}, ErrNoPath
	}
	st, err := s.doc.stat()
	s.mu.RLock()
	if s.current(st, err) {
		l := s.listing(owner)
		s.mu.RUnlock()
		return l, nil
	}
	s.mu.RUnlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.load(); err != nil {
		return Listing{}, err
	}
	return s.listing(owner), nil
}

// current reports whether the parsed cache is the file as a stat found it:
// load's test, and List's under only the read lock.
func (s *Store) current(st docStamp, statErr error) bool {
	return s.loaded && statErr == nil && st.same(s.stamp)
}

// listing is the owner's part of the cache; the caller holds s.mu.
func (s *Store) listing(owner string) Listing {
	l := Listing{Usage: s.usage(owner, "")}
	for _, e := range s.entries {
		if e.owner != owner {
			continue
		}
		if e.good != nil {
			l.Rules = append(l.Rules, *e.good)
		} else {
			l.Corrupt = append(l.Corrupt, *e.corrupt)
		}
	}
	sort.Slice(l.Rules, func(i, j int) bool { return l.Rules[i].Name < l.Rules[j].Name })
	return l
}

// usage counts the owner's entries, leaving out the one with id skip.
func (s *Store) usage(owner, skip string) Usage {
	u := Usage{MaxRules: s.limits.UserRules, QuotaBytes: s.limits.UserBytes}
	for _, e := range s.entries {
		if e.owner == owner && (skip == "" || e.id != skip) {
			u.Rules++
			u.Bytes += e.cost()
		}
	}
	return u
}

// RuleID is the stable id of an owner's named rule: storing the same name again replaces it.
func RuleID(owner, name string) string {
	h := sha256.Sum256([]byte(owner + "\x00" + name))
	return "r-" + hex.EncodeToString(h[:6])
}

// checkFields is the one check of an entry's fields, on write and on read.
func checkFields(st Stored) error {
	if st.Name == "" || len([]rune(st.Name)) > MaxNameRunes {
		return &Error{Path: "name", Message: fmt.Sprintf("name must be 1-%d characters", MaxNameRunes)}
	}
	if st.Meaning == "" || len([]rune(st.Meaning)) > MaxMeaningRunes {
		return &Error{Path: "meaning", Message: fmt.Sprintf("meaning must be 1-%d characters", MaxMeaningRunes)}
	}
	return nil
}

// Put validates and stores a rule; it returns the stored entry and whether it
// replaced one with the same name. It either stores a rule that reads back
// exactly as given or returns an error: a *Error for a bad rule, a *QuotaError
// for a full quota or file, anything else for the disk.
func (s *Store) Put(owner, name, meaning string, rule json.RawMessage, now time.Time) (Stored, bool, error) {
	name, meaning = strings.TrimSpace(name), strings.TrimSpace(meaning)
	st := Stored{ID: RuleID(owner, name), Owner: owner, Name: name, Meaning: meaning, Updated: now.UTC().Truncate(time.Second)}
	if err := checkFields(st); err != nil {
		return Stored{}, false, err
	}
	if _, err := Parse(rule); err != nil {
		return Stored{}, false, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, rule); err != nil {
		return Stored{}, false, &Error{Message: "rule is not valid JSON"}
	}
	st.Rule = json.RawMessage(buf.Bytes())
	line, err := encodeEntry(st)
	if err != nil {
		return Stored{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lockForWrite()
	if err != nil {
		return Stored{}, false, err
	}
	defer unlock()
	before := s.usage(owner, "")
	after := s.usage(owner, st.ID)
	replaced := after.Rules < before.Rules
	after.Rules++
	after.Bytes += len(line) + 2
	if !replaced && after.Rules > s.limits.UserRules {
		return Stored{}, false, &QuotaError{Env: EnvUserRules, Used: before.Rules, Limit: s.limits.UserRules,
			Message: fmt.Sprintf("you already store %d rules, your limit (%s); delete one with delete_star_combination_meaning or replace one by storing under its name", before.Rules, EnvUserRules)}
	}
	if after.Bytes > s.limits.UserBytes && after.Bytes > before.Bytes {
		return Stored{}, false, &QuotaError{Env: EnvUserBytes, Used: before.Bytes, Limit: s.limits.UserBytes,
			Message: fmt.Sprintf("storing this rule would take your rules to %d bytes, over your quota of %d bytes (%s; you use %d); free space with delete_star_combination_meaning or shorten the meaning or rule", after.Bytes, s.limits.UserBytes, EnvUserBytes, before.Bytes)}
	}
	kept := make([]entry, 0, len(s.entries)+1)
	for _, e := range s.entries {
		if !(e.owner == owner && e.id == st.ID) {
			kept = append(kept, e)
		}
	}
	c, _ := Parse(st.Rule)
	kept = append(kept, entry{line: line, owner: owner, id: st.ID, good: &Compiled{Stored: st, Compiled: c}})
	if err := s.write(kept, func(read []entry) error {
		last := read[len(read)-1]
		if last.good == nil {
			return fmt.Errorf("it reads back as corrupt: %s", last.corrupt.Reason)
		}
		g := last.good.Stored
		if g.ID != st.ID || g.Owner != st.Owner || g.Name != st.Name || g.Meaning != st.Meaning || !bytes.Equal(g.Rule, st.Rule) || !g.Updated.Equal(st.Updated) {
			return errors.New("it reads back different from what was given")
		}
		return nil
	}); err != nil {
		return Stored{}, false, err
	}
	return st, replaced, nil
}

// Delete removes the owner's rule with this id or name (a corrupt entry by
// its id) and returns what it removed. Deleting what is not there is not an
// error: nothing is returned and the file is left alone.
func (s *Store) Delete(owner, idOrName string) (gone []Stored, err error) {
	key := strings.TrimSpace(idOrName)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.doc != nil {
		if st, err := s.doc.stat(); err == nil && !st.exists {
			return nil, nil // nothing stored yet: nothing to delete, nothing to create
		}
	}
	unlock, err := s.lockForWrite()
	if err != nil {
		return nil, err
	}
	defer unlock()
	kept := make([]entry, 0, len(s.entries))
	for _, e := range s.entries {
		if e.owner == owner && key != "" && (e.id == key || e.good != nil && e.good.Name == key) {
			if e.good != nil {
				gone = append(gone, e.good.Stored)
			} else {
				gone = append(gone, Stored{ID: e.id, Owner: owner, Name: e.corrupt.Name})
			}
			continue
		}
		kept = append(kept, e)
	}
	if len(gone) == 0 {
		return nil, nil
	}
	return gone, s.write(kept, nil)
}

// lockForWrite takes the file lock shared with other replicas and re-reads the
// file under it (never the cache: another replica may have written within the
// timestamp granularity of the file system).
func (s *Store) lockForWrite() (func(), error) {
	if s.doc == nil {
		return nil, ErrNoPath
	}
	unlock, err := s.doc.lock()
	if err != nil {
		return nil, err
	}
	s.loaded = false
	if err := s.load(); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// write encodes entries, checks the file limit, reads the bytes back with the
// very decoder load uses (every entry must come back as it went in, and check
// may look at the last one), then replaces the file atomically.
func (s *Store) write(entries []entry, check func(read []entry) error) error {
	data := encodeFile(entries)
	if len(data) > s.limits.FileBytes && int64(len(data)) > s.size {
		return &QuotaError{Env: EnvFileBytes, Used: int(s.size), Limit: s.limits.FileBytes,
			Message: fmt.Sprintf("the shared rules file would be %d bytes, over its limit of %d bytes (%s, set by the operator); delete rules you no longer need with delete_star_combination_meaning, or ask the operator to raise the limit", len(data), s.limits.FileBytes, EnvFileBytes)}
	}
	read, err := decodeFile(data)
	if err == nil && len(read) != len(entries) {
		err = fmt.Errorf("%d entries read back, %d written", len(read), len(entries))
	}
	for i := 0; err == nil && i < len(read); i++ {
		if (read[i].good == nil) != (entries[i].good == nil) || read[i].id != entries[i].id || read[i].owner != entries[i].owner {
			err = fmt.Errorf("entry %d changes when read back", i)
		}
	}
	if err == nil && check != nil && len(read) > 0 {
		err = check(read)
	}
	if err != nil {
		return &Error{Message: "the rule could not be stored so that it reads back intact (" + err.Error() + "); nothing was written"}
	}
	if err := s.doc.write(data); err != nil {
		return err
	}
	s.entries = read
	if st, err := s.doc.stat(); err == nil {
		s.stamp, s.size = st, int64(len(data))
	} else {
		s.loaded = false
	}
	return nil
}

// encodeEntry is an entry's line: compact JSON, HTML characters as written.
func encodeEntry(st Stored) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(st); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// encodeFile writes {"version":1,"rules":[...]} with one entry per line, so
// the file stays readable and diffable without indenting the rules (an
// indented rule is larger than the one that was checked).
func encodeFile(entries []entry) []byte {
	var b bytes.Buffer
	b.WriteString(`{"version":1,"rules":[`)
	for i, e := range entries {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		b.Write(e.line)
	}
	if len(entries) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// decodeFile reads a rules file. A file that is not JSON is an error (nothing
// is written over it); an entry that cannot be used becomes a corrupt entry,
// kept and reported, never dropped.
func decodeFile(data []byte) ([]entry, error) {
	var f struct {
		Version int               `json:"version"`
		Rules   []json.RawMessage `json:"rules"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not valid JSON: %s", cleanJSONErr(err))
	}
	if f.Version > 1 {
		return nil, fmt.Errorf("version %d is newer than this server (1)", f.Version)
	}
	out := make([]entry, 0, len(f.Rules))
	for i, raw := range f.Rules {
		out = append(out, decodeEntry(i, raw))
	}
	return out, nil
}

func decodeEntry(i int, raw json.RawMessage) entry {
	var buf bytes.Buffer
	_ = json.Compact(&buf, raw) // raw came out of a valid document
	e := entry{line: buf.Bytes()}
	bad := func(reason string) entry {
		e.corrupt = &Corrupt{Index: i, ID: e.id, Reason: reason}
		return e
	}
	var st Stored
	if err := json.Unmarshal(raw, &st); err != nil {
		var partial struct {
			ID    any `json:"id"`
			Owner any `json:"owner"`
		}
		_ = json.Unmarshal(raw, &partial)
		e.id, _ = partial.ID.(string)
		e.owner, _ = partial.Owner.(string)
		return bad("not a rule entry: " + cleanJSONErr(err))
	}
	e.id, e.owner = st.ID, st.Owner
	if st.ID == "" || st.Owner == "" {
		return bad("no id or owner")
	}
	if err := checkFields(st); err != nil {
		e.corrupt = &Corrupt{Index: i, ID: st.ID, Name: extract.Clip(st.Name, 24), Reason: err.Error()}
		return e
	}
	c, err := Parse(st.Rule)
	if err != nil {
		e.corrupt = &Corrupt{Index: i, ID: st.ID, Name: st.Name, Reason: err.Error()}
		return e
	}
	var rb bytes.Buffer
	_ = json.Compact(&rb, st.Rule) // Parse accepted it
	st.Rule = json.RawMessage(rb.Bytes())
	e.good = &Compiled{Stored: st, Compiled: c}
	return e
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
