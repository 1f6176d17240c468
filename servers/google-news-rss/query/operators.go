package query

// Operator statuses in the cheat-sheet.
const (
	// StatusDocumented: public clients document it and build it into their
	// queries; no public capture shows Google filtering by it (the feed
	// title echoes any q, so an echo proves nothing). Built here.
	StatusDocumented = "documented"
	StatusReported   = "reported" // one public README reports it working; accepted and built here
	StatusRejected   = "rejected" // legacy, or reported not to work; refused with the fix
)

// Sources of the cheat-sheet, cited per row.
const (
	srcPygnExamples = "kotartemiy/pygooglenews README, search examples"
	srcPygnSheet    = `kotartemiy/pygooglenews README, Special Query Terms cheat sheet ("tested one by one")`
	srcPygnWhen     = "kotartemiy/pygooglenews README, when parameter"
	srcPygnNotWork  = `kotartemiy/pygooglenews README, "operators that do not work"`
	srcGoogleHacks  = "Google Hacks (O'Reilly, 2005), chapter 4; no modern News report"
)

// Operator is one row of the cheat-sheet (explain_operators) and of the
// grammar's table tests. Rows follow kotartemiy/pygooglenews README.md, the
// NewsCatcher blog post (newscatcherapi.com/blog/google-news-rss-search-
// parameters-the-missing-documentaiton), Outsharp's SKILL.md and ranahaani/GNews.
type Operator struct {
	Operator string `json:"operator"`
	Status   string `json:"status"`
	Source   string `json:"source"`
	Field    string `json:"field,omitempty"`
	Example  string `json:"example"`
	Note     string `json:"note"`
	Fix      string `json:"fix,omitempty"`
	name     string // the operator name as parsed ("intitle"), "" for syntax rows
}

// Operators is the cheat-sheet, in the canonical q order.
var Operators = []Operator{
	{Operator: "space (AND)", Status: StatusDocumented, Source: srcPygnExamples, Field: "terms", Example: "boeing strike", Note: "all words must match"},
	{Operator: `"exact phrase"`, Status: StatusDocumented, Source: srcPygnSheet + "; Outsharp/shipp-skills google-news SKILL.md", Field: "phrases", Example: `"supply chain"`, Note: "sent as %22…%22"},
	{Operator: "OR", Status: StatusDocumented, Source: srcPygnExamples, Field: "any_of", Example: "boeing OR airbus", Note: "uppercase only; a lowercase or is a word"},
	{Operator: "( … OR … )", Status: StatusReported, Source: "used in public Google News RSS code (news queries like name (a OR b) when:14d)", Field: "any_of", Example: "strike (boeing OR airbus)",
		Note: "emitted only when the group is not the whole query"},
	{Operator: "-term", Status: StatusDocumented, Source: srcPygnExamples + "; Outsharp SKILL.md", Field: "exclude", Example: `boeing -rumor -"press release"`, Note: "excludes a word or phrase"},
	{Operator: "+term", Status: StatusReported, Source: srcPygnSheet, Field: "terms", Example: "+boeing", Note: "old Google syntax; normalized to the plain word"},
	{Operator: "allintitle: / allintext: / allinurl:", Status: StatusReported, Source: srcPygnSheet, Field: "q", Example: "allintitle:boeing strike",
		Note: "at the start of q: every word of the query must be in the title / body text / URL; emitted as allintitle: followed by the query", name: "allintitle"},
	{Operator: "allintext:", Status: StatusReported, Source: srcPygnSheet, Field: "q", Example: "allintext:tariff steel", Note: "see allintitle:", name: "allintext"},
	{Operator: "allinurl:", Status: StatusReported, Source: srcPygnSheet, Field: "q", Example: "allinurl:markets oil", Note: "see allintitle:", name: "allinurl"},
	{Operator: "intitle:", Status: StatusDocumented, Source: srcPygnExamples + ` ("intitle:boeing when:1h")`, Field: "intitle", Example: "intitle:boeing when:1h", Note: "one word per intitle:", name: "intitle"},
	{Operator: "inurl:", Status: StatusReported, Source: srcPygnSheet, Field: "q", Example: "oil inurl:markets", Note: "one word per inurl:; the word must be in the article URL", name: "inurl"},
	{Operator: "site:", Status: StatusDocumented, Source: "Outsharp SKILL.md; ranahaani/GNews get_news_by_site builds site:{domain}", Field: "site", Example: "site:reuters.com", Note: "a domain; several are ORed (assumed: OR between site: filters)", name: "site"},
	{Operator: "when:Nh / when:Nd", Status: StatusDocumented, Source: srcPygnWhen + ` ("worked for up to 101h"); ` + srcPygnExamples, Field: "when", Example: "oil when:12h", Note: "hours (up to 101h) or days (up to 365d); Google silently ignores a bad value, so it is validated here", name: "when"},
	{Operator: "when:Nm", Status: StatusRejected, Source: srcPygnWhen + ` ("m for month", "worked for up to 48m") against kotartemiy/pygooglenews#14 (when:6m returned nothing though results existed)`, Example: "oil when:6m",
		Note: "the reports disagree; if m is minutes, the last 6 months silently becomes 6 minutes", Fix: "use an after/before date pair or days (up to when:365d)"},
	{Operator: "after: / before:", Status: StatusDocumented, Source: "kotartemiy/pygooglenews search(from_, to_); ranahaani/GNews start_date/end_date", Field: "after, before", Example: "oil after:2026-01-01 before:2026-02-01", Note: "YYYY-MM-DD; not together with when", name: "after"},
	{Operator: "before:", Status: StatusDocumented, Source: "see after:", Field: "before", Example: "oil before:2026-02-01", Note: "see after:", name: "before"},
	{Operator: "when:Ny", Status: StatusRejected, Source: srcPygnWhen + " (lists h, d, m only)", Example: "oil when:1y", Note: "years are not reported; a bad when is silently ignored by Google", Fix: "use an after/before date pair or days (up to when:365d)"},
	{Operator: "intext:", Status: StatusRejected, Source: "Google Hacks (O'Reilly, 2005) §4.3 lists intext: as Google News syntax; no report since, and pygooglenews' tested cheat sheet lists allintext: only", Example: "intext:tariff",
		Note: "listed only by a 2005 book; its effect on today's feed is unverified", Fix: "use allintext: (reported working) or terms (the text is searched anyway)", name: "intext"},
	{Operator: "when: with after:/before:", Status: StatusRejected, Source: "kotartemiy/pygooglenews search() drops from_/to_ when when is set", Example: "oil when:7d after:2026-01-01", Note: "Google would get a contradictory range", Fix: "use either when or an after/before pair"},
	{Operator: "source:", Status: StatusRejected, Source: srcGoogleHacks, Example: "source:new_york_times", Note: "legacy Google News (2005)", Fix: "use site:nytimes.com", name: "source"},
	{Operator: "location:", Status: StatusRejected, Source: srcGoogleHacks, Example: "location:dubai", Note: "legacy Google News (2005)", Fix: "add the place as a term or pick an edition/preset", name: "location"},
	{Operator: "related:", Status: StatusRejected, Source: srcPygnNotWork, Example: "related:reuters.com", Note: "does not work", Fix: "use site: or terms", name: "related"},
	{Operator: "allinlinks:", Status: StatusRejected, Source: srcPygnNotWork, Example: "allinlinks:boeing", Note: "does not work", Fix: "use terms", name: "allinlinks"},
	{Operator: "as_* URL parameters", Status: StatusRejected, Source: srcPygnNotWork, Example: "as_qdr=d", Note: "do not work with RSS", Fix: "use phrases (as_epq) or when (as_qdr)"},
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
