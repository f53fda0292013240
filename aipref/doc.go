// Package aipref reads statements of AI-usage preference: what a site says
// a crawler may do with what it fetched, where robots.txt's Allow and
// Disallow say what it may fetch.
//
// The web writes such statements in three vocabularies, each read here
// under its own names and never folded into another:
//
//   - The IETF AIPREF vocabulary (draft-ietf-aipref-vocab-08): three
//     categories, train-ai (AI Training), ai-use (AI Use) and search
//     (Search), each allowed, disallowed or unknown, written as a
//     Structured Field Dictionary (RFC 9651) such as "train-ai=n,
//     search=y". Parse reads one as section 6.5 says; Check says what is
//     wrong with one, at its byte. The drafts attach it to content by a
//     robots.txt rule and by the HTTP header Content-Usage
//     (draft-ietf-aipref-attach-05).
//   - Cloudflare's Content Signals ("search=yes, ai-train=no,
//     use=reference"), in robots.txt and as the Content-Signal header:
//     ParseSignals and CheckSignals.
//   - RSL 1.0 (Really Simple Licensing): a License line in robots.txt and
//     a Link header with rel="license" pointing at the license document:
//     LinkLicenses.
//
// The vocabularies move with their drafts, so they live here rather than
// in package robots, which attaches them to paths and crawlers (robots.Agent
// Usage) and whose core does not change with them. Derive is sitetxt's own
// labelled combination of AIPREF and Content Signals, and RobotsTags reads
// the X-Robots-Tag header a response may carry beside them.
// docs/ai-preferences.md cites the section behind each rule.
package aipref
