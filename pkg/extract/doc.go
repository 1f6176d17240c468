// Package extract pulls data out of upstream JSON bodies and recognises the error
// shapes upstreams send, turning both into envelope errors a tool can return as is.
//
// Three families of helpers, with deliberately different strictness:
//
//   - Lenient walkers (List, Object, and the *In variants over decoded maps) follow a
//     path of object keys. A missing key or a JSON null anywhere on the path yields the
//     empty value (a non-nil empty slice, or the zero T) and no error, because upstreams
//     omit empty collections freely. Malformed JSON, or a value of the wrong type on the
//     path or at its end, is an upstream_error naming the path: a shape change must be
//     loud, never silently empty.
//   - The strict Require reads one field a caller cannot do without (an operation id
//     after a start call). Missing, null or "" is an upstream_error whose message names
//     the operation and the field.
//   - Detectors (SuccessFalse, FastAPI, Noren, ChartImg, Generic) look at a status and a
//     body and return the upstream's own error as an *envelope.Error, or nil when the
//     body is not an error of their shape. Detect runs several in order. Detectors never
//     panic on any bytes and never copy whole bodies into messages: upstream text is
//     clipped to MaxUpstreamText runes.
//
// Decoding helpers cover the number and list encodings upstreams use: Num and Int
// accept JSON numbers and numeric strings ("1234.50"; "" and null are 0), JSONStrings
// decodes an array of JSON documents sent as strings (Noren's EODChartData) and
// StringList a JSON array sent inside a string (Polymarket's outcomes). All of them
// marshal back to plain JSON numbers and arrays.
//
// Every error this package returns is an *envelope.Error with code upstream_error
// unless a detector maps the upstream's status or text to a better code.
package extract
