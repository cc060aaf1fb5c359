/**
 * ESLint rule: a comment says why (the rule, or the spec section it stands for), never which
 * tracker issue brought the code; that history belongs in git and docs/. A reference to another
 * project's tracker by its number ("porsager/postgres issues #1066") is a source, and stays.
 */
const ISSUE_CITATION = /\bissues? \d+/i;

export const noIssueCitations = {
  meta: {
    type: "suggestion",
    docs: { description: "Comments say why, not which issue" },
    messages: {
      issueCitation:
        "This comment cites an issue: say the rule or the spec section instead (the history belongs in git and docs/).",
    },
    schema: [],
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          if (ISSUE_CITATION.test(comment.value)) {
            context.report({ loc: comment.loc, messageId: "issueCitation" });
          }
        }
      },
    };
  },
};
