package textpos

import (
	"testing"
	"unicode/utf8"
)

func TestOffsetAndPosition(t *testing.T) {
	src := []byte("ab\r\né😀x\n\nz")
	idx := New(src)
	if idx.LineCount() != 4 {
		t.Fatalf("LineCount = %d, want 4", idx.LineCount())
	}
	tests := []struct {
		name       string
		line, char int
		offset     int
		wantErr    bool
	}{
		{"start", 0, 0, 0, false},
		{"end of line before CRLF", 0, 2, 2, false},
		{"inside CRLF", 0, 3, 0, true},
		{"after 2-byte é (1 unit)", 1, 1, 6, false},
		{"inside surrogate pair", 1, 2, 0, true},
		{"after emoji (2 units)", 1, 3, 10, false},
		{"end of line 1", 1, 4, 11, false},
		{"past end of line", 1, 5, 0, true},
		{"empty line", 2, 0, 12, false},
		{"last line without newline", 3, 1, 14, false},
		{"line past end", 4, 0, 0, true},
		{"negative", -1, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off, err := idx.Offset(tt.line, tt.char)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Offset(%d,%d) = %d, want error", tt.line, tt.char, off)
				}
				return
			}
			if err != nil || off != tt.offset {
				t.Fatalf("Offset(%d,%d) = %d, %v; want %d", tt.line, tt.char, off, err, tt.offset)
			}
			if l, c := idx.Position(off); l != tt.line || c != tt.char {
				t.Fatalf("Position(%d) = %d,%d; want %d,%d", off, l, c, tt.line, tt.char)
			}
		})
	}
	if n := idx.LineLength(1); n != 4 {
		t.Fatalf("LineLength(1) = %d, want 4 UTF-16 units", n)
	}
	if off, err := idx.OffsetClamped(0, 99); err != nil || off != 2 {
		t.Fatalf("OffsetClamped = %d, %v", off, err)
	}
}

// FuzzRoundTrip: every rune boundary maps to a position and back.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("a\nbé😀\r\n\n"))
	f.Add([]byte{0xff, '\n', 0xe2, 0x82})
	f.Fuzz(func(t *testing.T, src []byte) {
		idx := New(src)
		for off := 0; off <= len(src); {
			line, char := idx.Position(off)
			back, err := idx.Offset(line, char)
			inCRLF := off > 0 && off < len(src) && src[off] == '\n' && src[off-1] == '\r'
			if err != nil || (back != off && !inCRLF) {
				t.Fatalf("offset %d -> (%d,%d) -> %d, %v", off, line, char, back, err)
			}
			if off == len(src) {
				break
			}
			_, size := utf8.DecodeRune(src[off:])
			off += size
		}
	})
}
