// The SDK validates every message with zod. Unless jitless is set before
// the SDK's schemas are built (zod reads the flag when it builds an object
// schema), zod probes `new Function` and compiles parsers with it, which the
// spec's default CSP (no 'unsafe-eval') blocks and reports as a
// securitypolicyviolation. mcpapp.js imports this module first, so it runs
// before any SDK module body.
import { config } from "zod/v4/core";

config({ jitless: true });
