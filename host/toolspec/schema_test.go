package toolspec

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type schemaNode struct {
	Name     string          `json:"name" doc:"what it is called"`
	Children []*schemaNode   `json:"children,omitzero"`
	Size     *int64          `json:"size,omitempty"`
	Tags     map[string]int  `json:"tags"`
	Extra    json.RawMessage `json:"extra"`
	Hidden   int             `json:"-"`
	schemaEmbedded
}

type schemaEmbedded struct {
	Depth int `json:"depth"`
}

func TestResultSchemaReflectsTheJSONEncoding(t *testing.T) {
	s := SchemaOf(reflect.TypeFor[*schemaNode](), DefsRef)
	if s.Ref != DefsRef+"toolspec.schemaNode" {
		t.Fatalf("a recursive type is named by a $ref, got %+v", s)
	}
	def := s.Defs["toolspec.schemaNode"]
	if def == nil {
		t.Fatalf("no $defs entry: %+v", s.Defs)
	}
	if got, want := def.PropertyNames(), []string{"name", "children", "size", "tags", "extra", "depth"}; !reflect.DeepEqual(got, want) {
		t.Errorf("properties %v, want %v (json:\"-\" left out, embedded fields flattened)", got, want)
	}
	if got, want := def.Required, []string{"name", "tags", "extra", "depth"}; !reflect.DeepEqual(got, want) {
		t.Errorf("required %v, want %v (omitempty and omitzero are optional)", got, want)
	}
	checks := []struct {
		field string
		got   any
		want  any
	}{
		{"name doc", def.Properties["name"].Description, "what it is called"},
		{"children items", def.Properties["children"].Items.Ref, DefsRef + "toolspec.schemaNode"},
		{"pointer", def.Properties["size"].Type, "integer"},
		{"map values", def.Properties["tags"].AdditionalProperties.(*Schema).Type, "integer"},
		{"raw JSON is any", def.Properties["extra"].Type, ""},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.field, c.got, c.want)
		}
	}
	// A standalone schema is valid JSON with its definitions inside.
	b, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(b), `"$defs":{"toolspec.schemaNode"`) {
		t.Fatalf("marshal: %s %v", b, err)
	}
}
