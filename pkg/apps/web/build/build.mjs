// make apps: bundles mcpapp.js (and the ext-apps SDK it imports) into one
// deterministic IIFE, ../mcpapp.bundle.js, that cmd/appbundle inlines into
// every view, and lines.js (uPlot) into ../lines.bundle.js and
// ../lines.bundle.css for the views with line series. Same inputs, same
// bytes: no timestamps, no source maps. With an argument, writes there
// instead (make apps-check compares that with the committed files).
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

// zod re-exports all of its ~70 error-message locales as a namespace
// (z.locales), which defeats tree shaking (~280 KB of the bundle). The SDK
// and the views use only the default English messages, so the namespace is
// replaced by English alone.
const englishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes("/node_modules/zod/") ? { path: "zod-locales", namespace: "zod-en" } : undefined);
    b.onLoad({ filter: /.*/, namespace: "zod-en" }, () => ({
      contents: 'export { default as en } from "zod/v4/locales/en.js";',
      resolveDir: fileURLToPath(new URL(".", import.meta.url)),
    }));
  },
};

await build({
  entryPoints: { "mcpapp.bundle": "mcpapp.js", "lines.bundle": "lines.js" },
  bundle: true,
  format: "iife",
  minify: true,
  target: "es2020",
  legalComments: "none",
  charset: "utf8",
  plugins: [englishOnly],
  outdir: process.argv[2] || "..",
  logLevel: "warning",
});
