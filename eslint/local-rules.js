/** The project's own ESLint rules, as one plugin (`local/...` in eslint.config.js). */
import { noCrossFeatureImports } from "./no-cross-feature-imports.js";
import { noIssueCitations } from "./no-issue-citations.js";

export default {
  rules: { "no-cross-feature-imports": noCrossFeatureImports, "no-issue-citations": noIssueCitations },
};
