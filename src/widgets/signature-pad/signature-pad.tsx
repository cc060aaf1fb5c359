/**
 * The signature pad (spec 02 section 2): a drawing canvas (react-signature-pad-wrapper, loaded
 * on demand with the module that imports this one) that reports each finished stroke as a PNG
 * data URL, or null when it is empty; clear() through the handle empties it.
 */
import { useEffect, useImperativeHandle, useRef, type Ref } from "react";
import ReactSignaturePad from "react-signature-pad-wrapper";

const PEN_COLOUR = "#1b2a33";
const PAD_BACKGROUND = "#ffffff";

export type SignaturePadHandle = { clear: () => void };

export type SignaturePadProps = {
  /** What the pad is for and how to use it: its accessible name. */
  label: string;
  onChange: (pngDataUrl: string | null) => void;
  ref?: Ref<SignaturePadHandle>;
};

export function SignaturePad({ label, onChange, ref }: SignaturePadProps) {
  const padRef = useRef<ReactSignaturePad>(null);
  const onChangeRef = useRef(onChange);

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useImperativeHandle(ref, () => ({ clear: () => padRef.current?.clear() }), []);

  useEffect(() => {
    const pad = padRef.current;
    if (!pad) return;
    const instance = pad.instance;
    const onEndStroke = () => {
      onChangeRef.current(instance.isEmpty() ? null : pad.toDataURL("image/png"));
    };
    instance.addEventListener("endStroke", onEndStroke);
    return () => instance.removeEventListener("endStroke", onEndStroke);
  }, []);

  return (
    <div className="scribble__pad">
      <ReactSignaturePad
        ref={padRef}
        redrawOnResize
        options={{ penColor: PEN_COLOUR, backgroundColor: PAD_BACKGROUND }}
        canvasProps={{ className: "scribble__canvas", role: "img", "aria-label": label }}
      />
    </div>
  );
}
