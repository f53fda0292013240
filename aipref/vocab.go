package aipref

import (
	"strings"

	"github.com/dunglas/httpsfv"
)

// Preference is the answer for one category of use: unknown (no statement
// of preference), allow or disallow (draft-ietf-aipref-vocab-08 section 5).
type Preference int8

// The preferences.
const (
	Unknown Preference = iota
	Allow
	Disallow
)

var preferenceNames = [...]string{"unknown", "allow", "disallow"}

// String returns "unknown", "allow" or "disallow".
func (p Preference) String() string {
	if p >= 0 && int(p) < len(preferenceNames) {
		return preferenceNames[p]
	}
	return "unknown"
}

// MarshalText encodes the preference as its name.
func (p Preference) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// Combine returns the most restrictive of p and q, as
// draft-ietf-aipref-vocab-08 section 5.1 combines statements: disallow
// over allow over unknown.
func (p Preference) Combine(q Preference) Preference {
	switch {
	case p == Disallow || q == Disallow:
		return Disallow
	case p == Allow || q == Allow:
		return Allow
	}
	return Unknown
}

// Category is a category of use of the vocabulary
// (draft-ietf-aipref-vocab-08 section 4, table 1). The categories stand
// alone: none inherits another's preference (sections 3 and 5).
type Category uint8

// The categories, in the vocabulary's order.
const (
	// TrainAI is AI Training (4.1): using an asset to change the learned
	// parameters of a generative AI model. Training models used only for
	// tasks that generate nothing is not AI Training.
	TrainAI Category = iota
	// AIUse is AI Use (4.2): using an asset as input to a generative AI
	// model where the user did not provide the asset directly; what AI
	// Training covers is not AI Use.
	AIUse
	// Search is Search (4.3): using an asset in an application whose
	// primary purpose is to select assets and direct users to where they
	// are, the output linking to the original and excerpts only helping to
	// judge relevance. A use that is Search is governed by the search
	// preference whatever the others say (Usage.Overridden).
	Search
)

// Categories lists the categories in the vocabulary's order.
var Categories = []Category{TrainAI, AIUse, Search}

var categoryNames = [...]struct{ label, field, title string }{
	TrainAI: {"train-ai", "train_ai", "AI Training"},
	AIUse:   {"ai-use", "ai_use", "AI Use"},
	Search:  {"search", "search", "Search"},
}

// Label returns the category's label in the serialization
// (draft-ietf-aipref-vocab-08 section 6.1): "train-ai", "ai-use",
// "search".
func (c Category) Label() string { return categoryNames[c%3].label }

// String returns the label.
func (c Category) String() string { return c.Label() }

// Field returns the name sitetxt's JSON gives the category: "train_ai",
// "ai_use", "search".
func (c Category) Field() string { return categoryNames[c%3].field }

// Title returns the category's name in the vocabulary's prose ("AI
// Training").
func (c Category) Title() string { return categoryNames[c%3].title }

// MarshalText encodes the category as its label.
func (c Category) MarshalText() ([]byte, error) { return []byte(c.Label()), nil }

// CategoryOf returns the category whose label is label (case-sensitive,
// as labels are: section 6.1).
func CategoryOf(label string) (Category, bool) {
	for _, c := range Categories {
		if c.Label() == label {
			return c, true
		}
	}
	return 0, false
}

// Usage is a statement of preference: one Preference per category.
type Usage struct {
	TrainAI Preference `json:"train_ai"`
	AIUse   Preference `json:"ai_use"`
	Search  Preference `json:"search"`
}

// Get returns the preference for category c.
func (u Usage) Get(c Category) Preference {
	switch c {
	case TrainAI:
		return u.TrainAI
	case AIUse:
		return u.AIUse
	case Search:
		return u.Search
	}
	return Unknown
}

// Set sets the preference for category c.
func (u *Usage) Set(c Category, p Preference) {
	switch c {
	case TrainAI:
		u.TrainAI = p
	case AIUse:
		u.AIUse = p
	case Search:
		u.Search = p
	}
}

// Combine returns the most restrictive preference of u and v in each
// category (draft-ietf-aipref-vocab-08 section 5.1).
func (u Usage) Combine(v Usage) Usage {
	return Usage{TrainAI: u.TrainAI.Combine(v.TrainAI), AIUse: u.AIUse.Combine(v.AIUse), Search: u.Search.Combine(v.Search)}
}

// IsZero reports whether every category is unknown.
func (u Usage) IsZero() bool { return u == Usage{} }

// Overridden returns the categories whose stated preference does not
// govern a use whose purpose is purpose: for a use that is Search, the
// other categories that state a preference, since search governs it
// whatever they say (draft-ietf-aipref-vocab-08 section 4.3: decide first
// whether a use is Search); for any other purpose, nothing.
func (u Usage) Overridden(purpose Category) []Category {
	if purpose != Search {
		return nil
	}
	var out []Category
	for _, c := range []Category{TrainAI, AIUse} {
		if u.Get(c) != Unknown {
			out = append(out, c)
		}
	}
	return out
}

// String returns the preference in the vocabulary's serialization, the
// known categories only ("train-ai=n, search=y"), or "" when all are
// unknown.
func (u Usage) String() string {
	var parts []string
	for _, c := range Categories {
		switch u.Get(c) {
		case Allow:
			parts = append(parts, c.Label()+"=y")
		case Disallow:
			parts = append(parts, c.Label()+"=n")
		}
	}
	return strings.Join(parts, ", ")
}

// Words returns the known categories with sitetxt's verdict words
// ("train-ai disallow, search allow"), or "".
func (u Usage) Words() string {
	var parts []string
	for _, c := range Categories {
		if p := u.Get(c); p != Unknown {
			parts = append(parts, c.Label()+" "+p.String())
		}
	}
	return strings.Join(parts, ", ")
}

// Parse reads a statement of preference as draft-ietf-aipref-vocab-08
// section 6.5 processes one: the bytes are parsed as a Structured Field
// Dictionary (RFC 9651 section 4.2.2); for each category's label the
// Token y allows and the Token n disallows, and anything else (absent, a
// Boolean, a String, an Inner List, another Token) leaves it unknown;
// unknown labels and all parameters are ignored (6.4, 6.5.2); a repeated
// label keeps its last value, with that value's parameters only (6.5.1).
// When the Dictionary does not parse, every category is unknown and err
// says where and why.
func Parse(expr string) (Usage, error) { return ParseField([]string{expr}) }

// ParseField reads the field lines of a Content-Usage header
// (draft-ietf-aipref-attach-05 section 4) as one Dictionary, combined as
// RFC 9651 section 4.2 combines field lines, and then as Parse does.
func ParseField(lines []string) (Usage, error) {
	d, err := dictionary(lines)
	if err != nil {
		return Usage{}, err
	}
	var u Usage
	for _, c := range Categories {
		u.Set(c, valueOf(d, c.Label()))
	}
	return u, nil
}

// dictionary parses field lines as one Dictionary with httpsfv; when
// they are not one, the error is sfDictCheck's *sfError (the byte where
// RFC 9651's algorithm stops) if it locates the failure, else httpsfv's.
// Only a failing value is scanned twice.
func dictionary(lines []string) (*httpsfv.Dictionary, error) {
	d, err := httpsfv.UnmarshalDictionary(lines)
	if err != nil {
		if e := sfDictCheck(strings.Join(lines, ", ")); e != nil {
			return nil, e
		}
		return nil, err
	}
	return d, nil
}

// valueOf is section 6.5's reading of one label's value.
func valueOf(d *httpsfv.Dictionary, label string) Preference {
	m, ok := d.Get(label)
	if !ok {
		return Unknown
	}
	it, ok := m.(httpsfv.Item)
	if !ok {
		return Unknown // an inner list
	}
	switch tok, _ := it.Value.(httpsfv.Token); tok {
	case "y":
		return Allow
	case "n":
		return Disallow
	}
	return Unknown
}

// Legacy is a label an earlier revision of the vocabulary had and -08
// does not: a statement written with it states nothing (unknown labels
// are ignored, section 6.4), and Check names the label to write instead.
type Legacy struct {
	Label   string // as written
	Why     string // what became of it
	Current string // what to write instead
}

// legacyLabels are the earlier revisions' labels.
var legacyLabels = map[string]Legacy{
	"train-genai": {"train-genai", "draft-ietf-aipref-vocab-04 merged train-genai into train-ai, which -08 limits to generative models", "train-ai"},
	"bots":        {"bots", "draft-ietf-aipref-vocab-05 removed the bots category (all automated processing), and -08 has no category over the others", "train-ai, ai-use and search, each stated"},
	"ai-output":   {"ai-output", "draft-ietf-aipref-vocab-05 removed the ai-output category", "ai-use"},
	"ai":          {"ai", "no revision of draft-ietf-aipref-vocab defines ai (attach-05's example text says \"ai=y\" for train-ai=y)", "train-ai"},
}

// LegacyLabel returns what became of a label of an earlier revision of
// the vocabulary, and whether label is one.
func LegacyLabel(label string) (Legacy, bool) {
	l, ok := legacyLabels[label]
	return l, ok
}
