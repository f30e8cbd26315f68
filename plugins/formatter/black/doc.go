package black

// How it works (mirroring Black 23.1's own pipeline):
//
//   - gen.go, visit.go, tok.go: the tree-sitter tree is walked statement by
//     statement, as Black's LineGenerator walks blib2to3's tree. Each token
//     becomes a leaf carrying what Black reads from its parent nodes
//     (delimiter priority, vararg, trailer/atom brackets, ...) and the
//     whitespace Black's whitespace() would give it. Comments are re-derived
//     from the source between tokens exactly as blib2to3 stores them in
//     prefixes, including the split of comments at dedents by column.
//     Invisible parentheses are added or hidden as normalize_invisible_parens
//     does (return, =, for/in, if/while, del, assert, import, annotations).
//   - lines.go: Line, BracketTracker and EmptyLineTracker.
//   - split.go: transform_line with delimiter_split, standalone comment
//     split, right_hand_split (with optional-paren omission and the
//     FORCE_OPTIONAL_PARENTHESES second opinion), left_hand_split and
//     power-operator hugging. Leaves are shared and mutated between split
//     attempts exactly as in Black, since its output depends on it.
//   - strings.go: string prefix/quote, numeric and docstring normalization.
//   - fmtoff.go: "# fmt: off/on" regions and "# fmt: skip" at statement
//     level.
//   - verify.go: a token-level self-check of every result.
//
// Inputs the engine does not handle like Black are refused with an error
// wrapping ErrRefused rather than formatted differently.
