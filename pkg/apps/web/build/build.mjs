// make apps: bundles mcpapp.js (and the SDK it imports) into one
// deterministic IIFE, ../mcpapp.bundle.js, that cmd/appbundle inlines into
// every view. Same inputs, same bytes: no timestamps, no source maps.
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
  entryPoints: ["mcpapp.js"],
  bundle: true,
  format: "iife",
  minify: true,
  target: "es2020",
  legalComments: "none",
  charset: "utf8",
  plugins: [englishOnly],
  outfile: "../mcpapp.bundle.js",
  logLevel: "warning",
});
