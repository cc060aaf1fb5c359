/**
 * The question asked before an answer on the screen hides questions that hold answers (spec 02
 * §4; REDCap asks the same): erase those answers and make the change, or keep them and leave the
 * change unmade. A real dialog (the portal's Modal): focus goes to "Keep", the least
 * destructive choice, Escape keeps, and focus returns to the control that asked.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import type { Question } from "../../../core/contracts/survey-definition.ts";
import { Modal } from "../../widgets/modal/modal.tsx";

export function EraseHiddenAnswersDialog({
  questions,
  onErase,
  onKeep,
}: {
  /** The questions the change hides that hold an answer. */
  questions: readonly Question[];
  onErase: () => void;
  onKeep: () => void;
}) {
  const { t } = useLingui();
  const count = questions.length;
  return (
    <Modal
      title={
        count === 1
          ? t({ id: "survey_erase_title_one", message: "Erase an answer?" })
          : t({ id: "survey_erase_title_many", message: `Erase ${count} answers?` })
      }
      onClose={onKeep}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onKeep}>
            <Trans id="survey_erase_keep">Keep the answer</Trans>
          </button>
          <button type="button" className="button button--danger" onClick={onErase}>
            <Trans id="survey_erase_confirm">Erase and change</Trans>
          </button>
        </>
      }
    >
      <p>
        <Trans id="survey_erase_body">
          This answer hides questions that already have an answer. Their answers are erased and not submitted:
        </Trans>
      </p>
      <ul>
        {questions.map((question) => (
          <li key={question.id}>{question.label.trim()}</li>
        ))}
      </ul>
    </Modal>
  );
}
