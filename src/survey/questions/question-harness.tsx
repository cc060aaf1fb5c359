/**
 * Test helper (not shipped: nothing in the app imports it): renders QuestionBody the way the
 * instrument page does, holding the draft answer and photo blobs in state so the controls behave
 * as on the page, and reporting every change and submit to the test's spies.
 */
import { I18nProvider } from "@lingui/react";
import { render } from "@testing-library/react";
import { useState } from "react";
import { expect } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import type { Question } from "../../../core/contracts/survey-definition.ts";
import { QuestionBody } from "./question-body.tsx";
import type { QuestionContext } from "./question-props.ts";

export const TEST_CONTEXT: QuestionContext = { studyId: 12, siteId: 3, participantId: 345, instrumentId: 6 };
export const TEST_LABEL_ID = "question-label";

type QuestionInput = Omit<Partial<Question>, "attributes"> & {
  type: string;
  attributes?: Partial<Question["attributes"]>;
};

/** A question as the definition parser gives it: attributes.required defaults to false. */
export function makeQuestion(input: QuestionInput): Question {
  return { id: "q1", label: "", ...input, attributes: { required: false, ...input.attributes } };
}

type RenderOptions = {
  answer?: AnswerEntry[];
  files?: ReadonlyMap<string, Blob>;
  onChange?: (answer: AnswerEntry[], files?: ReadonlyMap<string, Blob>) => void;
  onSubmit?: () => void;
  readOnly?: boolean;
  inSiblingGroup?: boolean;
};

export function renderQuestion(question: Question, options: RenderOptions = {}) {
  function Harness() {
    const [answer, setAnswer] = useState<readonly AnswerEntry[]>(options.answer ?? []);
    const [files, setFiles] = useState<ReadonlyMap<string, Blob>>(options.files ?? new Map());
    return (
      <QuestionBody
        question={question}
        answer={answer}
        files={files}
        onChange={(next, nextFiles) => {
          if (nextFiles) options.onChange?.(next, nextFiles);
          else options.onChange?.(next);
          setAnswer(next);
          if (nextFiles) setFiles(nextFiles);
        }}
        onSubmit={() => options.onSubmit?.()}
        readOnly={options.readOnly}
        inSiblingGroup={options.inSiblingGroup}
        context={TEST_CONTEXT}
        labelId={TEST_LABEL_ID}
      />
    );
  }
  return render(
    <I18nProvider i18n={i18n}>
      <Harness />
    </I18nProvider>,
  );
}

/**
 * Fails unless the element is in the document and nothing hides it: no `hidden` or
 * `aria-hidden="true"` on it or an ancestor, no `display: none` or `visibility: hidden`.
 * (A `getBy...` followed by `toBeDefined()` could never fail.)
 */
export function expectVisible(element: HTMLElement) {
  expect(element.isConnected, "the element is in the document").toBe(true);
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    expect(node.hidden, `${node.tagName} is hidden`).toBe(false);
    expect(node.getAttribute("aria-hidden"), `${node.tagName} is aria-hidden`).not.toBe("true");
    const style = getComputedStyle(node);
    expect(style.display, `${node.tagName} is display: none`).not.toBe("none");
    expect(style.visibility, `${node.tagName} is visibility: hidden`).not.toBe("hidden");
  }
}
