import { I18nProvider } from "@lingui/react";
import { act, cleanup, render as renderBare, screen } from "@testing-library/react";
import { createRef, type ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { SignaturePad, type SignaturePadHandle } from "./signature-pad.tsx";

/** The pad's drawing engine, as the component listens to it: strokes are events here. */
const engine = vi.hoisted(() => ({ target: new EventTarget(), empty: true }));

// jsdom has no canvas: the pad is a plain canvas whose strokes the test sends.
vi.mock("react-signature-pad-wrapper", async () => {
  const { forwardRef, useImperativeHandle } = await import("react");
  return {
    default: forwardRef<unknown, { canvasProps?: Record<string, string> }>(function Pad(props, ref) {
      useImperativeHandle(ref, () => ({
        instance: {
          addEventListener: (type: string, listener: EventListener) =>
            engine.target.addEventListener(type, listener),
          removeEventListener: (type: string, listener: EventListener) =>
            engine.target.removeEventListener(type, listener),
          isEmpty: () => engine.empty,
        },
        clear: () => {
          engine.empty = true;
        },
        toDataURL: () => "data:image/png;base64,c2lnbmVk",
      }));
      return <canvas {...props.canvasProps} />;
    }),
  };
});

const render = (element: ReactElement) => renderBare(<I18nProvider i18n={i18n}>{element}</I18nProvider>);

beforeEach(() => i18n.activate("en"));
afterEach(() => {
  cleanup();
  engine.empty = true;
});

function stroke() {
  act(() => {
    engine.target.dispatchEvent(new Event("beginStroke"));
  });
  engine.empty = false;
  act(() => {
    engine.target.dispatchEvent(new Event("endStroke"));
  });
}

const hint = () => screen.getByText("Sign here");

describe("the signature pad shows where to sign", () => {
  it("a baseline with an × and the hint while empty; the hint goes at the first touch, the line stays", () => {
    const onChange = vi.fn();
    render(<SignaturePad label="Signature area" onChange={onChange} />);
    const guide = screen.getByTestId("signature-pad-guide");
    expect(guide.getAttribute("aria-hidden")).toBe("true");
    expect(guide.querySelector(".signature-pad__cross")?.textContent).toBe("×");
    expect(guide.querySelector(".signature-pad__line")).not.toBeNull();
    expect(hint().classList.contains("signature-pad__hint--gone")).toBe(false);

    act(() => {
      engine.target.dispatchEvent(new Event("beginStroke"));
    });
    expect(hint().classList.contains("signature-pad__hint--gone")).toBe(true);
    engine.empty = false;
    act(() => {
      engine.target.dispatchEvent(new Event("endStroke"));
    });
    expect(onChange).toHaveBeenLastCalledWith("data:image/png;base64,c2lnbmVk");
    expect(hint().classList.contains("signature-pad__hint--gone")).toBe(true);
    expect(guide.querySelector(".signature-pad__line")).not.toBeNull();
  });

  it("the hint comes back when the pad is cleared", () => {
    const ref = createRef<SignaturePadHandle>();
    render(<SignaturePad ref={ref} label="Signature area" onChange={() => {}} />);
    stroke();
    expect(hint().classList.contains("signature-pad__hint--gone")).toBe(true);
    act(() => ref.current?.clear());
    expect(hint().classList.contains("signature-pad__hint--gone")).toBe(false);
  });

  it("a drawing pad (not a signature) has no guide", () => {
    render(<SignaturePad label="Drawing area" guide={false} onChange={() => {}} />);
    expect(screen.queryByTestId("signature-pad-guide")).toBeNull();
    expect(screen.getByRole("img", { name: "Drawing area" })).toBeDefined();
  });
});
