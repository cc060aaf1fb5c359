/**
 * Scribble: a drawing pad (react-signature-pad-wrapper, loaded on demand with this module). The
 * answer is the drawing as a PNG data URL, or nothing while the pad is empty. A drawing from an
 * earlier visit of the question is shown as an image with Clear to draw again: the pad cannot
 * keep a loaded image across a resize, and an image kept in sync with the answer can.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useRef, useState } from "react";
import { SignaturePad, type SignaturePadHandle } from "../../widgets/signature-pad/signature-pad.tsx";
import type { QuestionProps } from "./question-props.ts";

export function ScribbleQuestion({
  answer,
  onChange,
  readOnly = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const { t } = useLingui();
  const padRef = useRef<SignaturePadHandle>(null);
  const first = answer[0]?.value;
  const saved = typeof first === "string" && first !== "" ? first : null;
  // A drawing made on this visit stays on the pad; one from before shows as an image.
  const [drawing, setDrawing] = useState(saved === null);

  const clear = () => {
    padRef.current?.clear();
    setDrawing(true);
    onChange([]);
  };

  const showImage = readOnly || !drawing;
  return (
    <div className="scribble" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      {showImage ? (
        saved ? (
          <img
            className="scribble__image"
            src={saved}
            alt={t({ id: "question_scribble_saved", message: "The drawing made earlier" })}
          />
        ) : (
          <p className="scribble__empty">
            <Trans id="question_scribble_none">No drawing.</Trans>
          </p>
        )
      ) : (
        <SignaturePad
          ref={padRef}
          guide={false}
          label={t({
            id: "question_scribble_pad",
            message: "Drawing area: draw with a finger or a stylus",
          })}
          onChange={(png) => onChange(png === null ? [] : [{ label: "", value: png }])}
        />
      )}
      {readOnly ? null : (
        <div className="scribble__actions">
          <button type="button" className="button button--secondary" onClick={clear}>
            <Trans id="question_scribble_clear">Clear</Trans>
          </button>
        </div>
      )}
    </div>
  );
}
