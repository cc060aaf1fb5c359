import { I18nProvider } from "@lingui/react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import type { AnswerEntry } from "../../../core/contracts/survey-answers.ts";
import { ConsentSignatureQuestion } from "./consent-signature-question.tsx";
import { makeQuestion, TEST_CONTEXT, TEST_LABEL_ID } from "./question-harness.tsx";

// jsdom has no canvas: the pad is a plain canvas here (its drawing is tested end to end).
vi.mock("react-signature-pad-wrapper", async () => {
  const { forwardRef, useImperativeHandle } = await import("react");
  return {
    default: forwardRef<unknown, { canvasProps?: Record<string, string> }>(function Pad(props, ref) {
      useImperativeHandle(ref, () => ({
        instance: { addEventListener() {}, removeEventListener() {}, isEmpty: () => true },
        clear() {},
        toDataURL: () => "data:image/png;base64,",
      }));
      return <canvas {...props.canvasProps} />;
    }),
  };
});

afterEach(cleanup);

function renderSignature(
  role: "participant" | "clinro" | "witness" | "caregiver",
  options: { answer?: AnswerEntry[]; readOnly?: boolean; requestPassword?: () => Promise<Date | null> } = {},
) {
  const onChange = vi.fn();
  const requestPassword = vi.fn(options.requestPassword ?? (() => Promise.resolve(new Date())));
  const question = makeQuestion({
    id: "sig",
    type: "consent_signature",
    label: "Signature",
    attributes: { signer_role: role },
  });
  render(
    <I18nProvider i18n={i18n}>
      <ConsentSignatureQuestion
        question={question}
        answer={options.answer ?? []}
        files={new Map()}
        onChange={onChange}
        onSubmit={() => {}}
        readOnly={options.readOnly}
        context={TEST_CONTEXT}
        labelId={TEST_LABEL_ID}
        signerName="Ana Ruiz"
        requestPassword={requestPassword}
      />
    </I18nProvider>,
  );
  return { onChange, requestPassword };
}

const signButton = () => screen.getByRole("button", { name: "Sign" }) as HTMLButtonElement;

describe("the consent signature question", () => {
  it("offers the clinician draw, type and camera; the participant also an uploaded image", () => {
    renderSignature("clinro");
    expect(screen.getAllByRole("radio").map((radio) => radio.getAttribute("value"))).toEqual([
      "draw",
      "text",
      "camera",
    ]);
    cleanup();
    renderSignature("participant");
    expect(screen.getAllByRole("radio").map((radio) => radio.getAttribute("value"))).toEqual([
      "draw",
      "text",
      "camera",
      "image",
    ]);
  });

  it("enables Sign only when the typed name has content; signing answers the entry without a password", async () => {
    const { onChange, requestPassword } = renderSignature("participant");
    fireEvent.click(screen.getByRole("radio", { name: "Type" }));
    expect(signButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Type your full name"), { target: { value: "   " } });
    expect(signButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Type your full name"), { target: { value: "Ana Ruiz" } });
    expect(signButton().disabled).toBe(false);
    await act(async () => fireEvent.click(signButton()));
    expect(requestPassword).not.toHaveBeenCalled();
    const [entries] = onChange.mock.lastCall as [AnswerEntry[]];
    expect(entries).toEqual([
      expect.objectContaining({
        label: "Ana Ruiz",
        value: "Ana Ruiz",
        question: "sig",
        signature_type: "text",
      }),
    ]);
  });

  it("a clinician signature asks for the password; refused, nothing is signed", async () => {
    const { onChange, requestPassword } = renderSignature("clinro", {
      requestPassword: () => Promise.resolve(null),
    });
    fireEvent.click(screen.getByRole("radio", { name: "Type" }));
    fireEvent.change(screen.getByLabelText("Type your full name"), { target: { value: "Dr Casey" } });
    await act(async () => fireEvent.click(signButton()));
    expect(requestPassword).toHaveBeenCalledWith("clinro");
    expect(onChange).not.toHaveBeenCalled();
  });

  it("a witness signature accepted takes the capture time of the password check", async () => {
    const at = new Date("2026-11-22T10:00:00.000Z");
    const { onChange } = renderSignature("witness", { requestPassword: () => Promise.resolve(at) });
    fireEvent.click(screen.getByRole("radio", { name: "Type" }));
    fireEvent.change(screen.getByLabelText("Type your full name"), { target: { value: "Wendy" } });
    await act(async () => fireEvent.click(signButton()));
    const [entries] = onChange.mock.lastCall as [AnswerEntry[]];
    expect(Date.parse(entries[0]!.signed_date!)).toBe(at.getTime());
  });

  it("draw and camera start without content: Sign is disabled", () => {
    renderSignature("participant");
    expect(signButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole("radio", { name: "Camera" }));
    expect(signButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole("radio", { name: "Upload image" }));
    expect(signButton().disabled).toBe(true);
  });

  it("a signed answer shows the manifestation: meaning, printed name and time; read-only has no Sign again", () => {
    renderSignature("clinro", {
      readOnly: true,
      answer: [
        {
          label: "Dr Casey",
          value: "Dr Casey",
          question: "sig",
          signature_type: "text",
          signed_date: "2026-11-22T11:00:00+01:00",
        },
      ],
    });
    const manifestation = screen.getByTestId("signature-manifestation");
    expect(manifestation.textContent).toContain("Consent obtained by");
    expect(manifestation.textContent).toContain("Dr Casey");
    expect(manifestation.querySelector("time")?.getAttribute("dateTime")).toBe("2026-11-22T11:00:00+01:00");
    expect(screen.queryByRole("button", { name: "Sign again" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Sign" })).toBeNull();
  });

  it("rejects a picture of another type or over 2.5 MB with the spec's texts", async () => {
    renderSignature("participant");
    fireEvent.click(screen.getByRole("radio", { name: "Upload image" }));
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await act(async () =>
      fireEvent.change(input, { target: { files: [new File(["x"], "sig.gif", { type: "image/gif" })] } }),
    );
    expect(screen.getByRole("alert").textContent).toBe(
      "Sorry, we can't accept this file type. Please try with a different type of file.",
    );
    const big = new File([new Uint8Array(2.5 * 1024 * 1024 + 1)], "sig.png", { type: "image/png" });
    await act(async () => fireEvent.change(input, { target: { files: [big] } }));
    expect(screen.getByRole("alert").textContent).toBe(
      "Your image exceeded 2.5 mb. Please reduce the file size.",
    );
    expect(signButton().disabled).toBe(true);
  });
});
