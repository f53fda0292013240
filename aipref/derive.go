package aipref

// Source names where a derived preference came from.
type Source string

// The sources.
const (
	FromNone          Source = "none"           // neither states it
	FromContentUsage  Source = "content-usage"  // the AIPREF statement decided
	FromContentSignal Source = "content-signal" // the Content Signals statement decided
	FromBoth          Source = "both"           // both state it, and agree
)

// signalFor is sitetxt's mapping of each category onto the Content
// Signals key that means most nearly the same ("" for none); no text maps
// one onto the other.
var signalFor = [...]string{TrainAI: "ai-train", AIUse: "ai-input", Search: "search"}

// SignalKey returns the Content Signals key sitetxt maps category c from
// in Derive: ai-train for train-ai, ai-input for ai-use, search for
// search.
func SignalKey(c Category) string { return signalFor[c%3] }

// Derivation is sitetxt's own combined view of an AIPREF statement and a
// Content Signals statement; no text defines it. Each category takes the
// Content Signals key SignalKey names, and the two are combined most
// restrictively as draft-ietf-aipref-vocab-08 section 5.1 combines
// statements; From says which decided each category. Content Signals'
// use= has no category and stays out of it.
type Derivation struct {
	Usage Usage
	From  [3]Source // indexed by Category
}

// Derive returns sitetxt's combined view of cu and cs (see Derivation).
func Derive(cu Usage, cs Signals) Derivation {
	var d Derivation
	for _, c := range Categories {
		p, from := pick(cu.Get(c), cs.pref(SignalKey(c)))
		d.Usage.Set(c, p)
		d.From[c] = from
	}
	return d
}

func pick(cu, cs Preference) (Preference, Source) {
	switch {
	case cu == Unknown && cs == Unknown:
		return Unknown, FromNone
	case cs == Unknown:
		return cu, FromContentUsage
	case cu == Unknown:
		return cs, FromContentSignal
	case cu == cs:
		return cu, FromBoth
	case cu == Disallow:
		return cu, FromContentUsage
	}
	return cs, FromContentSignal
}
