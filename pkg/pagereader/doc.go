// Package pagereader reads one web page the way an agent needs it: the
// readable text of an article (title, byline, date, main text as Markdown,
// its links), plain text as it is, within bounds a hostile page cannot move.
//
//   - SSRF-safe: the host is resolved here and every address checked before
//     any connection (guard.go: loopback, 0.0.0.0/8, private, CGNAT,
//     link-local and cloud metadata, documentation, multicast, IPv4-mapped,
//     NAT64, unique-local and site-local IPv6 are refused), the checked
//     address is the one connected to, the socket's Control hook checks it
//     again, and every redirect is a new connection through the same check.
//     Only Config.AllowLoopback (MCPFLEET_FETCH_ALLOW_LOOPBACK=1, for tests
//     and local fakes) opens 127.0.0.0/8 and ::1. No proxy from the
//     environment is used: it would connect on our behalf, unchecked.
//   - Bounded: bytes read (the rest of a larger page is left out and the
//     result says so), one deadline for robots.txt, redirects and the body,
//     at most Config.MaxRedirects redirects, http and https only.
//   - Content-type and charset aware: HTML and XHTML through readability
//     (codeberg.org/readeck/go-readability/v2, a port of Mozilla's
//     Readability.js) and html-to-markdown; text/plain, Markdown, JSON, XML
//     and CSV as text; every charset golang.org/x/net/html/charset knows
//     (the Content-Type parameter, a BOM, a <meta> in the first 1,024 bytes).
//   - Polite: robots.txt (RFC 9309) is read and honoured for the declared
//     user agent's product token, and each host gets at most
//     Config.PerHostRate requests a second, shared by every process that
//     shares the limit's backend.
//   - Cached: a page read is kept for Config.CacheTTL in the cache backend
//     given (the server's state file or Redis), so a second read costs the
//     site nothing.
//
// Everything a page says is third-party text: the reader removes invisible
// format characters (envelope.CleanThirdParty) and the tools that return it
// list its fields in third_party.
package pagereader
