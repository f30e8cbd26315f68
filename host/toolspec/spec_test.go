package toolspec

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/tiers"
)

func validSpec() Spec {
	return Spec{Name: "get_test_tool", Kind: KindTool, Description: "a tool for the test", Family: tiers.FamilyAnalysis,
		Params: []Param{{Name: "uri", Type: TypeString}}, Result: reflect.TypeFor[struct{}](),
		Routes: []Route{{Method: "POST", Path: "/tools/get_test_tool"}}}
}

func TestSpecCheck(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(*Spec)
		want  string
	}{
		{"valid", func(*Spec) {}, ""},
		{"no result type", func(s *Spec) { s.Result = nil }, "no result type"},
		{"no description", func(s *Spec) { s.Description = "" }, "description"},
		{"no family", func(s *Spec) { s.Family = "" }, "rate-limit family"},
		{"health without a plugin", func(s *Spec) { s.Health = true }, "served by a plugin"},
		{"parameter twice", func(s *Spec) { s.Params = append(s.Params, s.Params[0]) }, `parameter "uri" declared twice`},
		{"resource without a URI", func(s *Spec) { s.Kind = KindResource }, "svc:// URI"},
		{"unknown kind", func(s *Spec) { s.Kind = "prompt" }, "neither tool nor resource"},
		{"name of another tool", func(s *Spec) { s.Routes = nil; s.Name = "get_hover" }, "tool get_hover already belongs to another row"},
		{"route of another tool", func(s *Spec) { s.Routes = []Route{{Method: "POST", Path: "/tools/get_hover"}} },
			"route POST /tools/get_hover already belongs to another row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen := map[string]bool{}
			hover := Spec{Name: "get_hover", Kind: KindTool, Description: "hover", Family: tiers.FamilyAnalysis,
				Result: reflect.TypeFor[struct{}](), Routes: []Route{{Method: "POST", Path: "/tools/get_hover"}}}
			if err := hover.Check(seen); err != nil {
				t.Fatal(err)
			}
			s := validSpec()
			tt.spoil(&s)
			err := s.Check(seen)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("err %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestFaultCodes: the spec's codes, then those of the layers every call
// goes through, each once; health_check's family is never charged and
// answers without a workspace.
func TestFaultCodes(t *testing.T) {
	s := validSpec()
	s.Faults = []string{fault.InvalidParameter, fault.NoHoverInfo}
	want := []string{fault.AuthenticationFailed, fault.InvalidParameter, fault.NoHoverInfo, fault.RateLimitExceeded,
		fault.MaintenanceMode, fault.WorkspaceNotFound, fault.ServerUnavailable}
	if got := s.FaultCodes(); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	s.Family = tiers.FamilyHealthCheck
	want = []string{fault.AuthenticationFailed, fault.InvalidParameter, fault.NoHoverInfo, fault.ServerUnavailable}
	if got := s.FaultCodes(); !slices.Equal(got, want) || s.RateLimited() || s.NeedsWorkspace() {
		t.Errorf("health check: got %v, want %v, not rate limited, no workspace needed", got, want)
	}
}
