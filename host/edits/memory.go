package edits

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

const (
	defaultMemoryEntries = 10_000
	defaultMemoryTTL     = time.Hour
	// hashesPerEntry bounds the contents one edit set is remembered
	// against (a tool can compute the same edits twice, before and after
	// an unrelated change).
	hashesPerEntry = 4
)

// memory is an LRU of edit-set fingerprints with a time to live.
type memory struct {
	mu       sync.Mutex
	capacity int
	ttl      time.Duration
	now      func() time.Time
	order    *list.List // front = most recently registered
	entries  map[[32]byte]*list.Element
}

type memoryEntry struct {
	key    [32]byte
	sums   []string // most recent first
	expiry time.Time
}

func newMemory(capacity int, ttl time.Duration, now func() time.Time) *memory {
	if capacity <= 0 {
		capacity = defaultMemoryEntries
	}
	if ttl <= 0 {
		ttl = defaultMemoryTTL
	}
	return &memory{capacity: capacity, ttl: ttl, now: now, order: list.New(), entries: map[[32]byte]*list.Element{}}
}

func (m *memory) remember(key [32]byte, sum string) {
	sum = strings.ToLower(sum)
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if el, ok := m.entries[key]; ok {
		ent := el.Value.(*memoryEntry)
		sums := []string{sum}
		for _, s := range ent.sums {
			if s != sum && len(sums) < hashesPerEntry {
				sums = append(sums, s)
			}
		}
		ent.sums, ent.expiry = sums, now.Add(m.ttl)
		m.order.MoveToFront(el)
		return
	}
	m.entries[key] = m.order.PushFront(&memoryEntry{key: key, sums: []string{sum}, expiry: now.Add(m.ttl)})
	for m.order.Len() > m.capacity {
		m.drop(m.order.Back())
	}
}

// lookup returns the content hashes key was generated against.
func (m *memory) lookup(key [32]byte) ([]string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.entries[key]
	if !ok {
		return nil, false
	}
	ent := el.Value.(*memoryEntry)
	if !m.now().Before(ent.expiry) {
		m.drop(el)
		return nil, false
	}
	return append([]string(nil), ent.sums...), true
}

func (m *memory) drop(el *list.Element) {
	delete(m.entries, el.Value.(*memoryEntry).key)
	m.order.Remove(el)
}

// fingerprint identifies an edit set for one file: the path and the edits
// sorted by range then text, so reordering does not change it.
func fingerprint(abs string, edits []abi.TextEdit) [32]byte {
	sorted := append([]abi.TextEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		ka := [4]int{a.Range.Start.Line, a.Range.Start.Character, a.Range.End.Line, a.Range.End.Character}
		kb := [4]int{b.Range.Start.Line, b.Range.Start.Character, b.Range.End.Line, b.Range.End.Character}
		for n := range ka {
			if ka[n] != kb[n] {
				return ka[n] < kb[n]
			}
		}
		return a.NewText < b.NewText
	})
	h := sha256.New()
	var buf [binary.MaxVarintLen64]byte
	put := func(v int) { h.Write(buf[:binary.PutVarint(buf[:], int64(v))]) }
	h.Write([]byte("pyws-edit-set-v1\x00"))
	put(len(abs))
	h.Write([]byte(abs))
	put(len(sorted))
	for _, ed := range sorted {
		put(ed.Range.Start.Line)
		put(ed.Range.Start.Character)
		put(ed.Range.End.Line)
		put(ed.Range.End.Character)
		put(len(ed.NewText))
		h.Write([]byte(ed.NewText))
	}
	var key [32]byte
	h.Sum(key[:0])
	return key
}
