package equiv

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"unicode"

	"github.com/pyws/pyws/plugin-sdk/tree"
)

// Comments digests t's comments as a multiset, each without its
// whitespace: hex SHA-256 of the sorted texts. Black respaces comments
// and moves them between lines but never drops, adds or rewrites one,
// while Signature forgets comments; so the kernel compares the digest of
// Black's input with the candidate's, which catches a comment lost or
// swallowed into code. It reads the comment nodes of trees both sides
// already have, where Black's own self-check tokenized both texts again.
func Comments(t *tree.Tree) string {
	var texts []string
	if id, ok := t.KindID("comment", true); ok {
		src := string(t.Source())
		for i := range t.NodeCount() {
			if n := t.NodeAt(i); n.KindID() == id {
				texts = append(texts, squash(src[n.StartByte():n.EndByte()]))
			}
		}
	}
	sort.Strings(texts)
	h := sha256.New()
	for _, s := range texts {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// squash drops every space character: Black changes only the spacing
// of a comment ("#x" becomes "# x", trailing spaces go).
func squash(s string) string {
	if strings.IndexFunc(s, unicode.IsSpace) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
