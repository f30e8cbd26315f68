package pytext

import (
	"reflect"
	"testing"
)

func TestSplitLines(t *testing.T) {
	tests := []struct {
		in       string
		keepends bool
		want     []string
	}{
		{"", false, nil},
		{"a", false, []string{"a"}},
		{"a\nb\n", false, []string{"a", "b"}},
		{"a\r\nb\rc", false, []string{"a", "b", "c"}},
		{"a\r\nb\rc", true, []string{"a\r\n", "b\r", "c"}},
		{"a\x0cb\u2028c\u0085", false, []string{"a", "b", "c"}},
		{"\n\n", true, []string{"\n", "\n"}},
	}
	for _, tt := range tests {
		if got := SplitLines(tt.in, tt.keepends); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitLines(%q, %v) = %q, want %q", tt.in, tt.keepends, got, tt.want)
		}
	}
}
