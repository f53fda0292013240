// Package grammar reads the line-oriented manifests a web site publishes
// for machines (/robots.txt, /data.txt in its record form, and
// Mobile-agent-server lines) into one syntax tree that every interpreter
// of sitetxt reads.
//
// The manifests share one format, written down as a BNF in Koster's 1996
// robots.txt draft and its 1997 revision: lines of "field: value", an
// optional "# comment", records of User-agent lines followed by rules, and
// blank lines between records. RFC 9309 keeps the lines and changes how
// they group. This package decides the syntax alone: what each line is
// and how the lines make records; packages robots, datatxt and
// mobileagent say what the lines mean.
//
// The tree:
//
//   - A File is one parsed manifest. Its structure is Nodes: what the
//     grammar returns, the file's records and the gaps of lines outside
//     them, in file order. Records and Preamble (the gap before any
//     User-agent line) are parts of it, and Lines is every line of the
//     nodes, in order. It also keeps the bytes past the limits (Ignored)
//     and the Diagnostics.
//   - A Line is one line of input with its Pos (byte offset, line and
//     column), its raw text, the field, value and comment split as the BNF
//     splits them, its Kind (agentline, allowline, disallowline,
//     mobileagentrec, extension, commentline, blank, or invalid) and flags
//     for what was odd about it (a misspelt field, no colon, too long).
//   - A Record is the drafts' record: User-agent lines and the lines after
//     them, up to a blank line or the User-agent line after a rule that
//     starts the next. A Gap is a run of lines outside every record. Both
//     have positions (Pos, EndPos) and their Lines; a Node is one of them.
//     Readings of the 1994 and 1996/97 texts group the lines by records;
//     readings of RFC 9309 and Google's parser read the nodes' lines in
//     order, because their groups are not blank-line records.
//   - A Diagnostic is something odd about the input, with a Severity, a
//     Code (Codes lists them) and a Range; an interpreter may attach its
//     own data to the ones it makes (Extra), which the grammar never reads.
//     Its Error method prints file:line:col: severity: message; Format adds
//     the line with a caret under the column.
//
// What decides what: the lexer (a hand-written scanner, lexer.go) decides
// what each line is: its Kind, its parts, and its class, the terminal of
// the grammar (blank, commentline, agentline, ruleline, extension, and
// the lenient agentlike and invalid), and hands participle one token per
// run of consecutive lines of one class. The grammar (grammar.go) decides
// the structure: its productions are the drafts' BNF (robotstxt, record,
// the gaps), with the leniencies real files need as alternatives, and
// participle builds the nodes; no other code decides where a record, a
// gap or the preamble starts or ends. docs/grammar.md maps each
// production to the draft's text, and docs/grammar.ebnf is what EBNF
// prints.
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
// participle's parse never fails either: the grammar takes every stream
// of classes (the corpus test checks every real file, and the fuzzer
// random ones); should it fail, the nodes it built are kept and a
// diagnostic (CodeGrammar) says so.
package grammar
