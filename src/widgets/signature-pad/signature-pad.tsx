/**
 * The signature pad (spec 02 section 2): a drawing canvas (react-signature-pad-wrapper, loaded
 * on demand with the module that imports this one) that reports each finished stroke as a PNG
 * data URL, or null when it is empty; clear() through the handle empties it.
 *
 * The pad shows where to sign: a baseline with an "×" at its start and "Sign here"
 * under it, as on a paper form; a free drawing (a scribble question) asks for no guide. The hint goes
 * when the pen first touches the pad and comes back when the pad is cleared; the line and the
 * "×" stay while signing. The guide is drawn over the canvas, not on it: the PNG holds the
 * signature alone, and the pen passes through the guide to the canvas.
 */
import { useLingui } from "@lingui/react/macro";
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import ReactSignaturePad from "react-signature-pad-wrapper";
import "./signature-pad.css";

const PEN_COLOUR = "#1b2a33";
const PAD_BACKGROUND = "#ffffff";

export type SignaturePadHandle = { clear: () => void };

export type SignaturePadProps = {
  /** What the pad is for and how to use it: its accessible name. */
  label: string;
  /** Shows where to sign (the default); false: a plain pad, for a drawing that is not a signature. */
  guide?: boolean;
  onChange: (pngDataUrl: string | null) => void;
  ref?: Ref<SignaturePadHandle>;
};

export function SignaturePad({ label, guide = true, onChange, ref }: SignaturePadProps) {
  const { t } = useLingui();
  const padRef = useRef<ReactSignaturePad>(null);
  const onChangeRef = useRef(onChange);
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useImperativeHandle(
    ref,
    () => ({
      clear: () => {
        padRef.current?.clear();
        setEmpty(true);
      },
    }),
    [],
  );

  useEffect(() => {
    const pad = padRef.current;
    if (!pad) return;
    const instance = pad.instance;
    const onBeginStroke = () => setEmpty(false);
    const onEndStroke = () => {
      const isEmpty = instance.isEmpty();
      setEmpty(isEmpty);
      onChangeRef.current(isEmpty ? null : pad.toDataURL("image/png"));
    };
    instance.addEventListener("beginStroke", onBeginStroke);
    instance.addEventListener("endStroke", onEndStroke);
    return () => {
      instance.removeEventListener("beginStroke", onBeginStroke);
      instance.removeEventListener("endStroke", onEndStroke);
    };
  }, []);

  return (
    <div className={guide ? "scribble__pad signature-pad--guided" : "scribble__pad"}>
      <ReactSignaturePad
        ref={padRef}
        redrawOnResize
        options={{ penColor: PEN_COLOUR, backgroundColor: PAD_BACKGROUND }}
        canvasProps={{ className: "scribble__canvas", role: "img", "aria-label": label }}
      />
      {guide ? (
        <div className="signature-pad__guide" aria-hidden="true" data-testid="signature-pad-guide">
          <span className="signature-pad__cross">×</span>
          <span className="signature-pad__line" />
          {/* Kept in the layout when hidden: the line does not move as the pen touches down. */}
          <span className={empty ? "signature-pad__hint" : "signature-pad__hint signature-pad__hint--gone"}>
            {t({ id: "signature_pad_sign_here", message: "Sign here" })}
          </span>
        </div>
      ) : null}
    </div>
  );
}
