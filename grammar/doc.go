// Package grammar reads the line-oriented manifests a web site publishes
// for machines (/robots.txt, /data.txt in its record form, and
// Mobile-agent-server lines) into one syntax tree that every interpreter
// of sitetxt reads.
//
// The manifests share one format, written down as a BNF in Koster's 1996
// robots.txt draft and its 1997 revision: lines of "field: value", an
// optional "# comment", records of User-agent lines followed by rules, and
// blank lines between records. RFC 9309 keeps the lines and changes how
// they group. This package does not decide anything: it says what each
// line is and where it stands; packages robots, datatxt and mobileagent
// say what the lines mean.
//
// The tree:
//
//   - A File is one parsed manifest: every Line in order, the Records the
//     drafts define, the Preamble (lines before any User-agent line), the
//     bytes past the limits (Ignored), and the Diagnostics.
//   - A Line is one line of input with its Pos (byte offset, line and
//     column), its raw text, the field, value and comment split as the BNF
//     splits them, its Kind (the BNF terminal: agentline, allowline,
//     disallowline, mobileagentrec, extension, commentline, blank, or
//     invalid) and flags for what was odd about it (a misspelt field, no
//     colon, too long).
//   - A Record is the drafts' record: User-agent lines and the rules after
//     them, ended by a blank line. The participle grammar builds the
//     Records: each is a node of its production record = Agentlines
//     Rulelines, placed by the tokens participle gives it (Pos, EndPos). Readings of
//     the 1994 and 1996/97 texts read Records; readings of RFC 9309 and
//     Google's parser read Lines in order, because their groups are not
//     blank-line records.
//   - A Diagnostic is something odd about the input, with a Severity, a
//     Code (Codes lists them) and a Range; an interpreter may attach its
//     own data to the ones it makes (Extra), which the grammar never reads.
//     Its Error method prints file:line:col: severity: message; Format adds
//     the line with a caret under the column.
//
// Parse never fails: an HTML error page, a BOM, bare CRs, NUL bytes, typos
// and rules before any User-agent line all come out as lines and
// diagnostics. The tree joins back to the input byte for byte (File.Text
// writes it). Options bounds the work: at most MaxSize bytes (500 KiB by
// default, the least RFC 9309 lets a crawler read; a negative value reads
// everything), MaxLines lines and MaxLineLength bytes of a line; what lies
// beyond is kept in File.Ignored or Line.Raw with a diagnostic, never
// dropped silently.
//
// The lines are classified by a hand-written scanner (lexer.go), cut into
// runs that are the tokens of a participle grammar (grammar.go) whose
// productions are named after the drafts' BNF and quote it, and
// participle builds the records from them. The lexer's token streams are
// all in the grammar, so participle's parse never fails either (the
// corpus test checks every real file, and the fuzzer random ones); should
// it fail, the records it built are kept and a diagnostic (CodeGrammar)
// says so. docs/grammar.md and docs/grammar.ebnf describe both stages.
package grammar
