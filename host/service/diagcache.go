package service

import (
	"crypto/sha256"
	"encoding/json"
	"sync"
)

// diagCache keeps the plugin's answers for recent (file, context files,
// arguments) triples: an editor asks for the diagnostics of unchanged
// files again and again, and parsing plus analysis of a large file costs
// far more than hashing it. Keys hash everything the plugin sees, so a
// changed file, context file, configuration or workspace fact misses.
type diagCache struct {
	mu    sync.Mutex
	max   int
	order [][32]byte
	m     map[[32]byte][]byte
}

var diagResults = &diagCache{max: 256, m: map[[32]byte][]byte{}}

func diagKey(args any, files []*sourceFile) [32]byte {
	h := sha256.New()
	b, _ := json.Marshal(args)
	h.Write(b)
	for _, f := range files {
		h.Write([]byte{0})
		h.Write([]byte(f.rel))
		h.Write([]byte{0})
		h.Write(f.text)
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

func (c *diagCache) get(k [32]byte) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *diagCache) put(k [32]byte, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, k)
	c.m[k] = v
}
