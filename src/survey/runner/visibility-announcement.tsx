/**
 * Says, politely, which questions an answer showed or hid on the same screen (spec 02 §4:
 * visibility follows the answers), so a screen reader user knows a new question follows the one
 * they answered; it is next in the Tab order, after the control they are on. A new step is not
 * announced here: its first question takes the focus.
 */
import { useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import type { Question } from "../../../core/contracts/survey-definition.ts";

export function VisibilityAnnouncement({
  stepId,
  questions,
}: {
  stepId: string;
  questions: readonly Question[];
}) {
  const { t } = useLingui();
  const [message, setMessage] = useState("");
  const previous = useRef<{ stepId: string; ids: string[] } | undefined>(undefined);
  const ids = questions.map((question) => question.id);
  const key = `${stepId}:${ids.join("\u0000")}`;

  useEffect(() => {
    const before = previous.current;
    previous.current = { stepId, ids };
    if (!before || before.stepId !== stepId) {
      setMessage("");
      return;
    }
    const shown = questions.filter((question) => !before.ids.includes(question.id));
    const hidden = before.ids.filter((id) => !ids.includes(id)).length;
    const parts = shown.map((question) => {
      const label = question.label.trim();
      return t({ id: "survey_question_shown", message: `Question shown: ${label}` });
    });
    if (hidden > 0) {
      parts.push(
        hidden === 1
          ? t({ id: "survey_question_hidden_one", message: "One question is no longer shown." })
          : t({ id: "survey_question_hidden_many", message: `${hidden} questions are no longer shown.` }),
      );
    }
    if (parts.length > 0) setMessage(parts.join(" "));
    // The key names the step and its questions: nothing else changes what is said.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  return (
    // A live region, not a status: the step's own notices (a slow save) keep that role.
    <p className="visually-hidden" aria-live="polite">
      {message}
    </p>
  );
}
