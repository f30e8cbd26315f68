// Package tenants maps API keys to who is calling: tenant, tier and
// workspace. Keys live in a JSON keys file that holds only SHA-256 hashes of
// the keys, never the keys themselves; a key is shown once, when created.
// The Store rereads the file when it changes on disk, so a key added or
// revoked with `pyws keys` takes effect without a restart.
package tenants

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/pyws/pyws/host/tiers"
)

// KeyPrefix starts every generated key, so a leaked key is recognisable by
// secret scanners.
const KeyPrefix = "pyws_"

// Key is one entry of the keys file.
type Key struct {
	ID        string     `json:"id"`
	Hash      string     `json:"hash"` // hex SHA-256 of the key
	Tenant    string     `json:"tenant"`
	Tier      tiers.Tier `json:"tier"`
	Workspace string     `json:"workspace,omitempty"` // absolute; empty means the server's default
	CreatedAt time.Time  `json:"createdAt"`
	RevokedAt *time.Time `json:"revokedAt,omitempty"`
}

// Active reports whether the key may be used.
func (k *Key) Active() bool { return k.RevokedAt == nil }

type keysFile struct {
	Version int    `json:"version"`
	Keys    []*Key `json:"keys"`
}

// HashKey returns the stored form of a key.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// NewKey returns a fresh random key.
func NewKey() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return KeyPrefix + hex.EncodeToString(b), nil
}

// Store answers key lookups. It is safe for concurrent use.
type Store struct {
	path string

	mu      sync.RWMutex
	byHash  map[string]*Key
	modTime time.Time
	size    int64
	checked time.Time
	extra   map[string]*Key // in-memory keys (development key)
}

// reloadEvery bounds how often Lookup stats the keys file.
const reloadEvery = 250 * time.Millisecond

// Open loads the keys file at path. An empty path gives a store with no
// file (only in-memory keys).
func Open(path string) (*Store, error) {
	s := &Store{path: path, byHash: map[string]*Key{}, extra: map[string]*Key{}}
	if path == "" {
		return s, nil
	}
	if err := s.reload(true); err != nil {
		return nil, err
	}
	return s, nil
}

// AddInMemory registers a key that lives only in this process (the
// development key of `make run`).
func (s *Store) AddInMemory(key string, k Key) {
	k.Hash = HashKey(key)
	s.mu.Lock()
	s.extra[k.Hash] = &k
	s.mu.Unlock()
}

// Lookup returns the active key matching key. The presented key is hashed
// first, so lookups compare hashes, never secrets: timing reveals nothing
// about stored keys.
func (s *Store) Lookup(key string) (*Key, bool) {
	if key == "" {
		return nil, false
	}
	s.maybeReload(false)
	h := HashKey(key)
	k, ok := s.find(h)
	if !ok {
		// An unknown key may have been added a moment ago: look again
		// now rather than after the reload interval.
		s.maybeReload(true)
		k, ok = s.find(h)
	}
	if !ok || !k.Active() {
		return nil, false
	}
	return k, true
}

func (s *Store) find(hash string) (*Key, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	k, ok := s.byHash[hash]
	if !ok {
		k, ok = s.extra[hash]
	}
	return k, ok
}

// maybeReload rereads the file when it changed; unless now is set, it
// checks at most every reloadEvery.
func (s *Store) maybeReload(now bool) {
	if s.path == "" {
		return
	}
	s.mu.RLock()
	fresh := time.Since(s.checked) < reloadEvery
	s.mu.RUnlock()
	if fresh && !now {
		return
	}
	// A broken file keeps the last good keys: a half-written edit by an
	// operator must not lock everyone out.
	_ = s.reload(false)
}

func (s *Store) reload(force bool) error {
	st, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("keys file %s: %w", s.path, err)
	}
	s.mu.Lock()
	s.checked = time.Now()
	unchanged := !force && st.ModTime().Equal(s.modTime) && st.Size() == s.size
	s.mu.Unlock()
	if unchanged {
		return nil
	}
	f, err := readKeysFile(s.path)
	if err != nil {
		return err
	}
	byHash := make(map[string]*Key, len(f.Keys))
	for _, k := range f.Keys {
		byHash[k.Hash] = k
	}
	s.mu.Lock()
	s.byHash, s.modTime, s.size = byHash, st.ModTime(), st.Size()
	s.mu.Unlock()
	return nil
}

func readKeysFile(path string) (*keysFile, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &keysFile{Version: 1}, nil
	}
	if err != nil {
		return nil, err
	}
	var f keysFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("keys file %s invalid: %w", path, err)
	}
	for i, k := range f.Keys {
		if len(k.Hash) != 64 {
			return nil, fmt.Errorf("keys file %s invalid: key %d has no SHA-256 hash", path, i)
		}
		if _, err := tiers.Parse(string(k.Tier)); err != nil {
			return nil, fmt.Errorf("keys file %s invalid: key %s: %w", path, k.ID, err)
		}
	}
	return &f, nil
}

// writeKeysFile replaces the file atomically with mode 0600: it holds
// hashes only, but who has which tier is still nobody else's business.
func writeKeysFile(path string, f *keysFile) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".keys-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// AddOptions describe a new key.
type AddOptions struct {
	Tier      tiers.Tier
	Tenant    string // defaults to the key id
	Workspace string // made absolute
}

// Add creates a key in the keys file at path and returns the key (to be
// shown once) and its entry.
func Add(path string, o AddOptions) (string, *Key, error) {
	f, err := readKeysFile(path)
	if err != nil {
		return "", nil, err
	}
	key, err := NewKey()
	if err != nil {
		return "", nil, err
	}
	hash := HashKey(key)
	k := &Key{ID: "key_" + hash[:12], Hash: hash, Tenant: o.Tenant, Tier: o.Tier, CreatedAt: time.Now().UTC()}
	if k.Tenant == "" {
		k.Tenant = k.ID
	}
	if o.Workspace != "" {
		abs, err := filepath.Abs(o.Workspace)
		if err != nil {
			return "", nil, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return "", nil, fmt.Errorf("workspace %s invalid: not a directory", abs)
		}
		k.Workspace = abs
	}
	if f.Version == 0 {
		f.Version = 1
	}
	f.Keys = append(f.Keys, k)
	if err := writeKeysFile(path, f); err != nil {
		return "", nil, err
	}
	return key, k, nil
}

// List returns the keys in the file at path, oldest first.
func List(path string) ([]*Key, error) {
	f, err := readKeysFile(path)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(f.Keys, func(i, j int) bool { return f.Keys[i].CreatedAt.Before(f.Keys[j].CreatedAt) })
	return f.Keys, nil
}

// Revoke marks the key with id (or with the given key's hash) revoked.
func Revoke(path, idOrKey string) (*Key, error) {
	f, err := readKeysFile(path)
	if err != nil {
		return nil, err
	}
	hash := HashKey(idOrKey)
	for _, k := range f.Keys {
		if k.ID == idOrKey || k.Hash == hash {
			if k.RevokedAt == nil {
				now := time.Now().UTC()
				k.RevokedAt = &now
			}
			return k, writeKeysFile(path, f)
		}
	}
	return nil, fmt.Errorf("key %q not found in %s", idOrKey, path)
}
