package query

// Operator statuses in the cheat-sheet.
const (
	StatusWorks    = "works"    // confirmed by public clients; built by this server
	StatusReported = "reported" // listed by a public cheat-sheet, unconfirmed; rejected here
	StatusRejected = "rejected" // legacy or known not to work; rejected here
)

// Operator is one row of the cheat-sheet (explain_operators) and of the
// grammar's table tests. Rows follow news-websearch.md §1.3, which cites
// kotartemiy/pygooglenews README.md, the NewsCatcher blog post, Outsharp's
// SKILL.md and ranahaani/GNews.
type Operator struct {
	Operator string `json:"operator"`
	Status   string `json:"status"`
	Field    string `json:"field,omitempty"`
	Example  string `json:"example"`
	Note     string `json:"note"`
	Fix      string `json:"fix,omitempty"`
	name     string // the operator name as parsed ("intitle"), "" for syntax rows
}

// Operators is the cheat-sheet, in the canonical q order.
var Operators = []Operator{
	{Operator: "space (AND)", Status: StatusWorks, Field: "terms", Example: "boeing strike", Note: "all words must match"},
	{Operator: `"exact phrase"`, Status: StatusWorks, Field: "phrases", Example: `"supply chain"`, Note: "sent as %22…%22"},
	{Operator: "OR", Status: StatusWorks, Field: "any_of", Example: "boeing OR airbus", Note: "uppercase only; a lowercase or is a word"},
	{Operator: "( … OR … )", Status: StatusWorks, Field: "any_of", Example: "strike (boeing OR airbus)",
		Note: "grouping is used in the wild, unverified; emitted only when the group is not the whole query"},
	{Operator: "-term", Status: StatusWorks, Field: "exclude", Example: `boeing -rumor -"press release"`, Note: "excludes a word or phrase"},
	{Operator: "+term", Status: StatusWorks, Field: "terms", Example: "+boeing", Note: "old Google syntax; normalized to the plain word"},
	{Operator: "intitle:", Status: StatusWorks, Field: "intitle", Example: "intitle:boeing when:1h", Note: "one word per intitle:", name: "intitle"},
	{Operator: "site:", Status: StatusWorks, Field: "site", Example: "site:reuters.com", Note: "a domain; several are ORed (assumed: OR between site: filters)", name: "site"},
	{Operator: "when:Nh / when:Nd", Status: StatusWorks, Field: "when", Example: "oil when:12h", Note: "hours (seen working up to 101h) or days; a bad value is silently ignored by Google, so it is validated here", name: "when"},
	{Operator: "after: / before:", Status: StatusWorks, Field: "after, before", Example: "oil after:2026-01-01 before:2026-02-01", Note: "YYYY-MM-DD; not together with when", name: "after"},
	{Operator: "before:", Status: StatusWorks, Field: "before", Example: "oil before:2026-02-01", Note: "see after:", name: "before"},
	{Operator: "when:Nm / when:Ny", Status: StatusReported, Example: "when:6m", Note: "months/years reported by pygooglenews", Fix: "use when:Nd or after/before"},
	{Operator: "allintitle:", Status: StatusReported, Example: "allintitle:boeing strike", Note: "listed by pygooglenews", Fix: "use intitle:boeing intitle:strike", name: "allintitle"},
	{Operator: "inurl: / allinurl:", Status: StatusReported, Example: "inurl:markets", Note: "listed by pygooglenews, unconfirmed", Fix: "use terms or site:", name: "inurl"},
	{Operator: "allinurl:", Status: StatusReported, Example: "allinurl:markets oil", Note: "listed by pygooglenews, unconfirmed", Fix: "use terms or site:", name: "allinurl"},
	{Operator: "intext: / allintext:", Status: StatusReported, Example: "intext:tariff", Note: "listed by pygooglenews, unconfirmed", Fix: "use terms (text is searched anyway)", name: "intext"},
	{Operator: "allintext:", Status: StatusReported, Example: "allintext:tariff steel", Note: "listed by pygooglenews, unconfirmed", Fix: "use terms", name: "allintext"},
	{Operator: "when: with after:/before:", Status: StatusRejected, Example: "oil when:7d after:2026-01-01", Note: "pygooglenews drops after/before when when is set", Fix: "use either when or an after/before pair"},
	{Operator: "source:", Status: StatusRejected, Example: "source:new_york_times", Note: "legacy Google News (2005), no modern confirmation", Fix: "use site:nytimes.com", name: "source"},
	{Operator: "location:", Status: StatusRejected, Example: "location:dubai", Note: "legacy Google News (2005), no modern confirmation", Fix: "add the place as a term or pick an edition/preset", name: "location"},
	{Operator: "related:", Status: StatusRejected, Example: "related:reuters.com", Note: "does not work (pygooglenews)", Fix: "use site: or terms", name: "related"},
	{Operator: "allinlinks:", Status: StatusRejected, Example: "allinlinks:boeing", Note: "does not work (pygooglenews)", Fix: "use terms", name: "allinlinks"},
	{Operator: "as_* URL parameters", Status: StatusRejected, Example: "as_qdr=d", Note: "do not work with RSS", Fix: "use phrases (as_epq) or when (as_qdr)"},
}

func operatorByName(name string) (Operator, bool) {
	for _, o := range Operators {
		if o.name == name {
			return o, true
		}
	}
	return Operator{}, false
}

// exampleOf returns the cheat-sheet example of an operator name.
func exampleOf(name string) string {
	if o, ok := operatorByName(name); ok {
		return o.Example
	}
	return name + ":value"
}
