package toolspec

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/pyws/pyws/host/fault"
)

// Parameter lists shaped like the operation table's rows.
var (
	structure = []Param{
		{Name: "uri", Type: TypeString, Default: "svc://workspace/structure"},
		{Name: "maxDepth", Type: TypeInteger, Default: 10, Min: Bound(1), Max: Bound(20)},
		{Name: "includeHidden", Type: TypeBoolean, Default: false},
		{Name: "excludePatterns", Type: TypeStringArray},
		{Name: "includeMetadata", Type: TypeBoolean, Default: true},
	}
	position = []Param{
		{Name: "uri", Type: TypeString, Required: true},
		{Name: "line", Type: TypeInteger, Required: true, Min: Bound(0)},
		{Name: "character", Type: TypeInteger, Required: true, Min: Bound(0)},
	}
	file = []Param{
		{Name: "uri", Type: TypeString, Required: true},
		{Name: "encoding", Type: TypeString, Default: "utf-8"},
		{Name: "includeMetadata", Type: TypeBoolean, Default: true},
		{Name: "lineRange", Type: TypeObject, Fields: []Param{
			{Name: "start", Type: TypeInteger, Required: true, Min: Bound(0)},
			{Name: "end", Type: TypeInteger, Required: true, Min: Bound(0)},
		}},
	}
	format = []Param{
		{Name: "uri", Type: TypeString, Required: true},
		{Name: "options", Type: TypeObject, Default: Args{}, Raw: true, Fields: []Param{
			{Name: "tabSize", Type: TypeInteger, Default: 4, Min: Bound(1), Max: Bound(16)},
		}},
	}
	severity = []Param{{Name: "uri", Type: TypeString, Required: true},
		{Name: "severity", Type: TypeString, Enum: []string{"error", "warning", "information", "hint"}}}
	kinds = []Param{{Name: "only", Type: TypeStringArray, Enum: []string{"quickfix", "source"}}}
)

func TestDecodeArgs(t *testing.T) {
	const structureURI = "svc://workspace/structure"
	tests := []struct {
		name      string
		params    []Param
		body      string
		want      Args
		wantCode  string
		wantParam string
	}{
		{"defaults", structure, `{}`, Args{"uri": structureURI, "maxDepth": 10, "includeHidden": false, "includeMetadata": true}, "", ""},
		{"null body is empty", structure, `null`, Args{"uri": structureURI, "maxDepth": 10, "includeHidden": false, "includeMetadata": true}, "", ""},
		{"integral float accepted", structure, `{"maxDepth": 3.0}`, Args{"uri": structureURI, "maxDepth": 3, "includeHidden": false, "includeMetadata": true}, "", ""},
		{"maxDepth below range", structure, `{"maxDepth": 0}`, nil, fault.InvalidParameter, "maxDepth"},
		{"maxDepth above range", structure, `{"maxDepth": 21}`, nil, fault.InvalidParameter, "maxDepth"},
		{"fractional integer", structure, `{"maxDepth": 2.5}`, nil, fault.InvalidParameter, "maxDepth"},
		{"string for integer", structure, `{"maxDepth": "3"}`, nil, fault.InvalidParameter, "maxDepth"},
		{"string for boolean", structure, `{"includeHidden": "yes"}`, nil, fault.InvalidParameter, "includeHidden"},
		{"array of non-strings", structure, `{"excludePatterns": [1]}`, nil, fault.InvalidParameter, "excludePatterns[0]"},
		{"array item outside its enum", kinds, `{"only": ["source", "refactor"]}`, nil, fault.InvalidParameter, "only[1]"},
		{"array items in their enum", kinds, `{"only": ["source", "quickfix"]}`, Args{"only": []string{"source", "quickfix"}}, "", ""},
		{"unknown member", structure, `{"maxdepth": 3}`, nil, fault.InvalidParameter, "maxdepth"},
		{"not an object", structure, `[1,2]`, nil, fault.InvalidParameter, "arguments"},
		{"missing required", position, `{"uri": "a.py", "line": 1}`, nil, fault.InvalidParameter, "character"},
		{"negative line", position, `{"uri": "a.py", "line": -1, "character": 0}`, nil, fault.InvalidParameter, "line"},
		{"position ok", position, `{"uri": "a.py", "line": 1, "character": 2}`, Args{"uri": "a.py", "line": 1, "character": 2}, "", ""},
		{"nested object field type", file, `{"uri": "svc://file/a.py", "lineRange": {"start": "1", "end": 2}}`, nil, fault.InvalidParameter, "lineRange.start"},
		{"nested unknown field", file, `{"uri": "svc://file/a.py", "lineRange": {"start": 1, "end": 2, "stop": 3}}`, nil, fault.InvalidParameter, "lineRange.stop"},
		{"nested ok", file, `{"uri": "svc://file/a.py", "lineRange": {"start": 1, "end": 2}}`,
			Args{"uri": "svc://file/a.py", "encoding": "utf-8", "includeMetadata": true, "lineRange": Args{"start": 1, "end": 2}}, "", ""},
		// format_document's options are Raw: passed on as JSON for its
		// handler to answer INVALID_OPTIONS.
		{"raw object passed on", format, `{"uri": "a.py", "options": {"tabSize": "4"}}`, Args{"uri": "a.py", "options": json.RawMessage(`{"tabSize": "4"}`)}, "", ""},
		{"raw object defaults", format, `{"uri": "a.py"}`, Args{"uri": "a.py", "options": Args{}}, "", ""},
		{"enum", severity, `{"uri": "a.py", "severity": "fatal"}`, nil, fault.InvalidParameter, "severity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeArgs(tt.params, json.RawMessage(tt.body))
			if tt.wantCode != "" {
				fe, ok := fault.As(err)
				if !ok || fe.Code != tt.wantCode || fe.Details["parameter"] != tt.wantParam {
					t.Fatalf("err = %v (details %v), want %s naming %q", err, detailsOf(err), tt.wantCode, tt.wantParam)
				}
				if fe.Message == "" {
					t.Fatal("empty message")
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestDecodeArgsBoundsDetails(t *testing.T) {
	_, err := DecodeArgs(structure, json.RawMessage(`{"maxDepth": 25}`))
	fe, _ := fault.As(err)
	if fe == nil || fe.Details["min"] != 1 || fe.Details["max"] != 20 || fe.Details["value"] != 25 {
		t.Fatalf("details = %v, want parameter/value/min/max", detailsOf(err))
	}
}

func TestQueryToJSON(t *testing.T) {
	params := file
	raw, err := QueryToJSON(params, map[string][]string{
		"includeMetadata": {"false"},
		"lineRange":       {`{"start":1,"end":2}`},
		"encoding":        {"latin-1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = withURIForTest(raw)
	got, err := DecodeArgs(params, raw)
	if err != nil {
		t.Fatal(err)
	}
	lr, _ := got.Object("lineRange")
	if got.Bool("includeMetadata") || got.String("encoding") != "latin-1" || lr.Int("start") != 1 || lr.Int("end") != 2 {
		t.Fatalf("got %#v", got)
	}

	raw, _ = QueryToJSON(structure, map[string][]string{"excludePatterns": {"a/**", "*.pyc"}, "maxDepth": {"x"}})
	if _, err := DecodeArgs(structure, raw); fault.CodeOf(err) != fault.InvalidParameter {
		t.Fatalf("maxDepth=x: err = %v", err)
	}
	raw, _ = QueryToJSON(structure, map[string][]string{"excludePatterns": {"a/**", "*.pyc"}})
	got, err = DecodeArgs(structure, raw)
	if err != nil || !reflect.DeepEqual(got.Strings("excludePatterns"), []string{"a/**", "*.pyc"}) {
		t.Fatalf("repeated keys: %#v, %v", got, err)
	}
}

func withURIForTest(raw json.RawMessage) (json.RawMessage, error) {
	m := map[string]any{}
	_ = json.Unmarshal(raw, &m)
	m["uri"] = "svc://file/a.py"
	return json.Marshal(m)
}

func detailsOf(err error) fault.Details {
	if fe, ok := fault.As(err); ok {
		return fe.Details
	}
	return nil
}
