/**
 * What a REDCap field name stands for once the form is mapped, so that branching logic and
 * calculations can be translated: a question of the definition (with the kind of value it
 * holds), a row of a matrix question, or a score (a calc field). A name missing from the map is
 * not a field of the form being imported.
 */
export type ValueKind = "choice" | "multi" | "number" | "text" | "date" | "datetime" | "time" | "none";

export type FieldRef =
  | {
      kind: "question";
      questionId: string;
      valueKind: ValueKind;
      /** The choice ids (REDCap codes) of a choice question. */
      choiceCodes: readonly string[];
      /** Whether every choice has a numeric score_value (its code), so formulas can use it. */
      numericChoices: boolean;
      /** Its place in the definition's order: logic may only name an earlier question. */
      position: number;
    }
  | {
      kind: "matrix-row";
      questionId: string;
      rowId: string;
      choiceCodes: readonly string[];
      position: number;
    }
  | { kind: "score"; scoreId: string; position: number };

export type FieldRefs = ReadonlyMap<string, FieldRef>;
