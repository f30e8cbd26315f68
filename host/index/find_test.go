package index

import "testing"

func TestMatchName(t *testing.T) {
	tests := []struct {
		name, query string
		want        int
	}{
		{"get_definition", "get_definition", matchExact},
		{"GetDefinition", "getdefinition", matchExact},
		{"get_definition", "get_d", matchPrefix},
		{"get_call_depth", "gcd", matchHumps},
		{"get_call_depth", "gecade", matchHumps},
		{"get_call_depth", "gd", matchHumps}, // a hump may be skipped
		{"HTTPConnection", "httpconn", matchPrefix},
		{"HTTPConnection", "hc", matchHumps},
		{"RequestFactory", "rf", matchHumps},
		{"RequestFactory", "refa", matchHumps},
		{"__init__", "i", matchHumps},
		{"parse_v2_header", "p2h", matchHumps},
		{"RequestFactory", "uestf", matchSubstring},
		{"get_call_depth", "dc", matchNone}, // humps keep their order
		{"RequestFactory", "rqf", matchNone},
	}
	for _, tt := range tests {
		lower := []byte(tt.name)
		for i, c := range lower {
			if 'A' <= c && c <= 'Z' {
				lower[i] = c + 'a' - 'A'
			}
		}
		if got := matchName(string(lower), humpStarts(tt.name), tt.query); got != tt.want {
			t.Errorf("matchName(%s, %s) = %d, want %d (humps %v)", tt.name, tt.query, got, tt.want, humpStarts(tt.name))
		}
	}
}
