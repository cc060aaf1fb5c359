/**
 * ESLint rule: a file under src/features/<name>/ imports nothing from another feature.
 * Shared pieces move down (src/widgets, core/contracts, src/i18n, src/api); the app
 * (src/app/router.tsx) is the only place that knows every feature. The import is resolved against
 * the importing file, so `../other/x.ts`, `../../features/other/x.ts` and deeper folders are all
 * caught, whatever the relative spelling.
 */
import path from "node:path";

const FEATURES_DIR = path.join("src", "features");

/** The feature a file belongs to ("instrument" for src/features/instrument/a/b.ts), or undefined. */
function featureOf(file) {
  const relative = path.relative(process.cwd(), file);
  if (!relative.startsWith(FEATURES_DIR + path.sep)) return undefined;
  return relative.slice(FEATURES_DIR.length + 1).split(path.sep)[0];
}

export const noCrossFeatureImports = {
  meta: {
    type: "problem",
    docs: { description: "Features do not import one another" },
    messages: {
      crossFeature:
        "Feature '{{from}}' imports from feature '{{to}}': move the shared piece down (src/widgets, core/contracts, src/i18n, src/api).",
    },
    schema: [],
  },
  create(context) {
    const from = featureOf(context.filename);
    if (!from) return {};
    const check = (node, source) => {
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const to = featureOf(path.resolve(path.dirname(context.filename), source));
      if (to && to !== from) context.report({ node, messageId: "crossFeature", data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};
