package rules

import (
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// TestTypeFindings: the kernel's findings are reported under their
// codes where they point, hidden by `# type: ignore` like a type
// checker's, dropped when they point outside the file, and gone when
// the code is disabled.
func TestTypeFindings(t *testing.T) {
	src := []byte("class Box:\n    size = 1\n\n\nBox().missing\nBox().missing  # type: ignore\n")
	finding := func(line, char, end int) abi.TypeFinding {
		return abi.TypeFinding{Line: line, Character: char, EndCharacter: end, Code: UndefinedVariable, Message: `Cannot access attribute "missing" for class "Box"`}
	}
	env := Env{Path: "box.py", TypeFindings: []abi.TypeFinding{
		finding(4, 6, 13),  // reported
		finding(5, 6, 13),  // suppressed
		finding(40, 0, 3),  // not in the file
		finding(4, 20, 30), // past the line's end
		{Line: 4, Character: 0, EndCharacter: 3, Code: MissingArgument, Message: "a code the kernel does not decide"},
	}}
	var got []string
	for _, d := range Run(parse(t, src), textpos.New(src), DefaultConfig(), env) {
		got = append(got, d.Code+"@"+itoa(d.Range.Start.Line)+":"+itoa(d.Range.Start.Character)+"-"+itoa(d.Range.End.Character)+" "+d.Message)
	}
	want := `undefined-variable@4:6-13 Cannot access attribute "missing" for class "Box"`
	if strings.Join(got, "\n") != want {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	cfg, _ := ParseConfig(map[string]any{"disable": []any{UndefinedVariable}})
	if d := Run(parse(t, src), textpos.New(src), cfg, env); len(d) != 0 {
		t.Fatalf("undefined-variable disabled, still: %v", d)
	}
}

// TestTypeMismatchFindings: the kernel's type-mismatch findings are
// reported; where the file's own builtin-kind check reports the same
// value, only the kernel's finding remains (one diagnostic per site);
// the file's own findings elsewhere stay.
func TestTypeMismatchFindings(t *testing.T) {
	src := []byte("count: int = \"not an int\"\nsize: int = \"x\"\n\n\nclass A: ...\nclass B: ...\nb: B = A()\n")
	mismatch := func(line, char, end int, msg string) abi.TypeFinding {
		return abi.TypeFinding{Line: line, Character: char, EndCharacter: end, Code: TypeMismatch, Message: msg}
	}
	for _, c := range []struct {
		name string
		tf   []abi.TypeFinding
		want []string
	}{
		{"file's own only", nil, []string{
			"type-mismatch@0:13-25 type 'str' is not assignable to declared type 'int'",
			"type-mismatch@1:12-15 type 'str' is not assignable to declared type 'int'",
		}},
		{"kernel's replace the same value's", []abi.TypeFinding{
			mismatch(0, 13, 25, `Type "Literal['not an int']" is not assignable to declared type "int"`),
			mismatch(6, 7, 10, `Type "A" is not assignable to declared type "B"`),
		}, []string{
			`type-mismatch@0:13-25 Type "Literal['not an int']" is not assignable to declared type "int"`,
			"type-mismatch@1:12-15 type 'str' is not assignable to declared type 'int'",
			`type-mismatch@6:7-10 Type "A" is not assignable to declared type "B"`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, d := range Run(parse(t, src), textpos.New(src), DefaultConfig(), Env{Path: "m.py", TypeFindings: c.tf}) {
				got = append(got, d.Code+"@"+itoa(d.Range.Start.Line)+":"+itoa(d.Range.Start.Character)+"-"+itoa(d.Range.End.Character)+" "+d.Message)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
