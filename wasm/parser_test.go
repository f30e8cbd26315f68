package wasm

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestEmbeddedModuleMatchesRecordedSHA256(t *testing.T) {
	if len(ParserWasm) < 8 || string(ParserWasm[:4]) != "\x00asm" {
		t.Fatalf("ParserWasm is not a wasm module (%d bytes)", len(ParserWasm))
	}
	if len(ParserSHA256) != 64 {
		t.Fatalf("ParserSHA256 = %q, want 64 hex digits", ParserSHA256)
	}
	sum := sha256.Sum256(ParserWasm)
	if got := hex.EncodeToString(sum[:]); got != ParserSHA256 {
		t.Fatalf("sha256(parser.wasm) = %s, parser.wasm.sha256 says %s: run `make parser`", got, ParserSHA256)
	}
}
