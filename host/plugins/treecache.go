package plugins

import (
	"container/list"
	"crypto/sha256"
)

// treeCache keeps the tree blobs a worker parsed, keyed by the SHA-256 of
// the source, so a file sent again (the same module as import context for
// many diagnostics calls, or an unchanged file asked about twice) is not
// parsed again. A tree depends only on the source bytes and the parser
// module, which is fixed for a worker's life. Bounded by bytes, least
// recently used first out. Not safe for concurrent use: a worker runs one
// call at a time.
type treeCache struct {
	max, size int
	order     *list.List // of *treeEntry, most recent at the front
	byKey     map[[32]byte]*list.Element
}

type treeEntry struct {
	key  [32]byte
	blob []byte
}

// defaultTreeCacheBytes bounds each worker's cache.
const defaultTreeCacheBytes = 64 << 20

func newTreeCache(max int) *treeCache {
	return &treeCache{max: max, order: list.New(), byKey: map[[32]byte]*list.Element{}}
}

func (c *treeCache) get(src []byte) ([]byte, [32]byte, bool) {
	key := sha256.Sum256(src)
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*treeEntry).blob, key, true
	}
	return nil, key, false
}

func (c *treeCache) put(key [32]byte, blob []byte) {
	if len(blob) > c.max/4 {
		return // one huge tree must not flush everything else
	}
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.order.PushFront(&treeEntry{key: key, blob: blob})
	c.size += len(blob)
	for c.size > c.max {
		el := c.order.Back()
		e := el.Value.(*treeEntry)
		c.order.Remove(el)
		delete(c.byKey, e.key)
		c.size -= len(e.blob)
	}
}
