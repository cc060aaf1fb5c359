/**
 * The bench survey (survey-definition.ts) as SurveyJS Form Library JSON, for
 * `npm run bench:survey -- --reference`: one page per question, the same titles, choices and
 * labels, every question required, the show-ifs as visibleIf expressions, and SurveyJS's defaults
 * for everything else. The closest SurveyJS question type per kind:
 * - scored, yes_no (select one): radiogroup, the choice ids as values (as our inputs have them);
 * - multiple (select multiple): checkbox;
 * - text: comment (a textarea, as ours);
 * - integer: text with inputType "number", min and max;
 * - nrs (numeric rating scale): rating, rateMin to rateMax, the end labels as rate descriptions;
 * - matrix: matrix (a radio per cell), the rows and columns by id, every row required.
 * The score (a sum of choice scores) has no counterpart in the Form Library and is left out.
 */
import type { Question, ShowIfTerm, SurveyDefinition } from "../core/contracts/survey-definition.ts";
import type { PlannedQuestion } from "./survey-definition.ts";

type Choice = { value: string; text: string };

function choicesOf(question: Question): Choice[] {
  const choices = (question.choices ?? {}) as Record<string, { label: string }>;
  return (question.choices_order ?? Object.keys(choices)).map((id) => ({
    value: id,
    text: choices[id]!.label,
  }));
}

function attribute<T>(question: Question, name: string): T {
  return (question.attributes as Record<string, unknown> | undefined)?.[name] as T;
}

/** A show-if term as a SurveyJS expression. */
function expressionOf(term: ShowIfTerm, questions: SurveyDefinition["questions"]): string {
  if (term.comparator === "boolean_combine") {
    return `(${term.terms.map((inner) => expressionOf(inner, questions)).join(` ${term.operator} `)})`;
  }
  const name = `{${term.question}}`;
  const target = questions[term.question]!;
  switch (term.comparator) {
    case "is_answered":
      return `${name} notempty`;
    case "=":
      return `${name} = ${typeof term.value === "string" ? `'${term.value}'` : String(term.value)}`;
    case ">": {
      // On a select one, ours compares the choice's score: the ids of the choices scored above.
      if (target.type === "select_one") {
        const choices = (target.choices ?? {}) as Record<string, { score_value?: number }>;
        const above = Object.entries(choices)
          .filter(([, choice]) => (choice.score_value ?? Number.NaN) > Number(term.value))
          .map(([id]) => `'${id}'`);
        return `${name} anyof [${above.join(", ")}]`;
      }
      return `${name} > ${Number(term.value)}`;
    }
    default:
      throw new Error(`No SurveyJS expression for the comparator ${term.comparator}`);
  }
}

export function surveyJsDefinition(definition: SurveyDefinition, plan: readonly PlannedQuestion[]) {
  const pages = plan.map((planned, index) => {
    const question = definition.questions[planned.id]!;
    const base: Record<string, unknown> = { name: planned.id, title: planned.label, isRequired: true };
    const showIf = question.logic?.show_if;
    if (showIf && showIf.length > 0) {
      base.visibleIf = showIf
        .map((term) => expressionOf(term, definition.questions))
        .join(` ${question.logic?.operator ?? "and"} `);
    }
    let element: Record<string, unknown>;
    switch (planned.kind) {
      case "scored":
      case "yes_no":
        element = { type: "radiogroup", ...base, choices: choicesOf(question) };
        break;
      case "multiple":
        element = { type: "checkbox", ...base, choices: choicesOf(question) };
        break;
      case "text":
        element = { type: "comment", ...base };
        break;
      case "integer":
        element = {
          type: "text",
          ...base,
          inputType: "number",
          min: attribute<number>(question, "min"),
          max: attribute<number>(question, "max"),
        };
        break;
      case "nrs":
        element = {
          type: "rating",
          ...base,
          rateMin: attribute<number>(question, "min"),
          rateMax: attribute<number>(question, "max"),
          minRateDescription: attribute<string>(question, "min_label"),
          maxRateDescription: attribute<string>(question, "max_label"),
        };
        break;
      case "matrix": {
        const rows = (question.questions ?? {}) as Record<string, { label: string }>;
        element = {
          type: "matrix",
          ...base,
          isAllRowRequired: true,
          columns: choicesOf(question),
          rows: (question.questions_order ?? Object.keys(rows)).map((id) => ({
            value: id,
            text: rows[id]!.label,
          })),
        };
        break;
      }
    }
    return { name: `page${index + 1}`, elements: [element] };
  });
  return { title: definition.title, pages };
}
