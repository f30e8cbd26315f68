package pycomplete

// Keywords valid at c, for a Name context: every statement keyword at the
// start of a statement, the expression keywords elsewhere.
func Keywords(c Context) []string {
	if c.What != Name {
		return nil
	}
	if c.StatementStart {
		return statementKeywords
	}
	return expressionKeywords
}

var expressionKeywords = []string{"False", "None", "True", "and", "await", "else", "for", "if", "in", "is", "lambda", "not", "or", "yield"}

var statementKeywords = []string{"False", "None", "True", "assert", "async", "await", "break", "class",
	"continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
	"lambda", "match", "nonlocal", "not", "pass", "raise", "return", "try", "type", "while", "with", "yield"}
