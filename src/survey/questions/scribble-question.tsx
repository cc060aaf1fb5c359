/**
 * Scribble: a drawing pad (react-signature-pad-wrapper, loaded on demand with this module). The
 * answer is the drawing as a PNG data URL, or nothing while the pad is empty. A drawing from an
 * earlier visit of the question is shown as an image with Clear to draw again: the pad cannot
 * keep a loaded image across a resize, and an image kept in sync with the answer can.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import SignaturePad from "react-signature-pad-wrapper";
import type { QuestionProps } from "./question-props.ts";

const PEN_COLOUR = "#1b2a33";
const PAD_BACKGROUND = "#ffffff";

export function ScribbleQuestion({
  answer,
  onChange,
  readOnly = false,
  labelId,
  describedBy,
}: QuestionProps) {
  const { t } = useLingui();
  const padRef = useRef<SignaturePad>(null);
  const onChangeRef = useRef(onChange);
  const first = answer[0]?.value;
  const saved = typeof first === "string" && first !== "" ? first : null;
  // A drawing made on this visit stays on the pad; one from before shows as an image.
  const [drawing, setDrawing] = useState(saved === null);

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const pad = padRef.current;
    if (!drawing || readOnly || !pad) return;
    const instance = pad.instance;
    const onEndStroke = () => {
      onChangeRef.current(instance.isEmpty() ? [] : [{ label: "", value: pad.toDataURL("image/png") }]);
    };
    instance.addEventListener("endStroke", onEndStroke);
    return () => instance.removeEventListener("endStroke", onEndStroke);
  }, [drawing, readOnly]);

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
        <div className="scribble__pad">
          <SignaturePad
            ref={padRef}
            redrawOnResize
            options={{ penColor: PEN_COLOUR, backgroundColor: PAD_BACKGROUND }}
            canvasProps={{
              className: "scribble__canvas",
              role: "img",
              "aria-label": t({
                id: "question_scribble_pad",
                message: "Drawing area: draw with a finger or a stylus",
              }),
            }}
          />
        </div>
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
