import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { IMAGE_MAX_BYTES } from "../../../core/contracts/files.ts";
import { expectVisible, makeQuestion, renderQuestion } from "./question-harness.tsx";

// The cropper draws on a canvas jsdom lacks: cropping itself is left to the e2e tests; these
// cover choosing, refusing, listing and deleting photos, and the sample viewer.
const question = makeQuestion({
  id: "wound",
  type: "image_capture",
  label: "Photograph the wound",
  camera_tip: "Hold the camera 20 cm away.",
  preview_images: ["/s1.jpg", "/s2.jpg", "/s3.jpg", "/s4.jpg"],
});

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const choose = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });

// The question body loads this type on demand: load it once up front, so that a busy machine
// does not turn the first test's wait into a timeout.
beforeAll(async () => {
  await import("./image-capture-question.tsx");
});

beforeEach(() => {
  vi.stubGlobal(
    "URL",
    Object.assign(URL, { createObjectURL: vi.fn(() => "blob:photo"), revokeObjectURL: vi.fn() }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("image capture", () => {
  it("offers Add Photo for JPEG photos taken with the back camera, with the camera tip", async () => {
    renderQuestion(question);
    expectVisible(await screen.findByRole("button", { name: "Add Photo" }));
    expect(fileInput().accept).toBe("image/jpeg");
    expect(fileInput().getAttribute("capture")).toBe("environment");
    expectVisible(screen.getByText("Hold the camera 20 cm away."));
    expectVisible(screen.getByText("0 of 3 photos"));
  });

  it("refuses a photo over 2.5 MB", async () => {
    renderQuestion(question);
    await screen.findByRole("button", { name: "Add Photo" });
    choose(new File([new Uint8Array(IMAGE_MAX_BYTES + 1)], "big.jpg", { type: "image/jpeg" }));
    expect(screen.getByRole("alert").textContent).toBe(
      "Your image exceeded 2.5 mb. Please reduce the file size.",
    );
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("refuses a photo that is not a JPEG", async () => {
    renderQuestion(question);
    await screen.findByRole("button", { name: "Add Photo" });
    choose(new File(["png"], "photo.png", { type: "image/png" }));
    expect(screen.getByRole("alert").textContent).toContain("we can't accept this file type");
  });

  it("opens the editor with zoom, rotation, Reset and Done for a chosen photo", async () => {
    renderQuestion(question);
    await screen.findByRole("button", { name: "Add Photo" });
    choose(new File(["jpeg"], "photo.jpg", { type: "image/jpeg" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit photo" });
    const zoom = screen.getByRole("slider", { name: "Zoom" });
    expect([zoom.getAttribute("min"), zoom.getAttribute("max"), zoom.getAttribute("step")]).toEqual([
      "1",
      "3",
      "0.1",
    ]);
    for (const name of ["Rotate left", "Rotate right", "Reset", "Done", "Cancel"]) {
      expectVisible(screen.getByRole("button", { name }));
    }
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(dialog.isConnected).toBe(false);
  });

  it("lists the photos and deletes one, keeping the others' blobs", async () => {
    const onChange = vi.fn();
    const first = new Blob(["1"], { type: "image/jpeg" });
    const second = new Blob(["2"], { type: "image/jpeg" });
    renderQuestion(question, {
      onChange,
      answer: [
        { label: "a.jpeg", value: "a.jpeg" },
        { label: "b.jpeg", value: "b.jpeg" },
      ],
      files: new Map([
        ["a.jpeg", first],
        ["b.jpeg", second],
      ]),
    });
    expectVisible(await screen.findByRole("img", { name: "Photo 2" }));
    fireEvent.click(screen.getByRole("button", { name: "Delete photo 1" }));
    expect(onChange).toHaveBeenLastCalledWith(
      [{ label: "b.jpeg", value: "b.jpeg" }],
      new Map([["b.jpeg", second]]),
    );
    expectVisible(screen.getByText("1 of 3 photos"));
    fireEvent.click(screen.getByRole("button", { name: "Delete photo 1" }));
    expect(onChange).toHaveBeenLastCalledWith([], new Map());
    expect(screen.queryByRole("img", { name: /^Photo/ })).toBeNull();
  });

  it("takes no fourth photo", async () => {
    renderQuestion(question, {
      answer: ["a", "b", "c"].map((name) => ({ label: name, value: name })),
    });
    const add = await screen.findByRole("button", { name: "Add Photo" });
    expect(add.getAttribute("aria-disabled")).toBe("true");
    const click = vi.spyOn(fileInput(), "click");
    fireEvent.click(add);
    expect(click).not.toHaveBeenCalled();
  });

  it("shows the sample images, back to the first after the third", async () => {
    renderQuestion(question);
    expect((await screen.findByRole("img", { name: "Sample photo 1 of 3" })).getAttribute("src")).toBe(
      "/s1.jpg",
    );
    const next = screen.getByRole("button", { name: "Next sample" });
    fireEvent.click(next);
    expectVisible(screen.getByRole("img", { name: "Sample photo 2 of 3" }));
    fireEvent.click(next);
    expectVisible(screen.getByRole("img", { name: "Sample photo 3 of 3" }));
    fireEvent.click(next);
    expectVisible(screen.getByRole("img", { name: "Sample photo 1 of 3" }));
  });
});
