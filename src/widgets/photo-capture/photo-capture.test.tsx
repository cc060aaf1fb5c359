import { I18nProvider } from "@lingui/react";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IMAGE_MAX_BYTES } from "../../../core/contracts/files.ts";
import { i18n } from "../../i18n/i18n.ts";
import { PhotoCapture, type CapturedPhoto, type PhotoCaptureProps } from "./photo-capture.tsx";

// jsdom has no canvas: the editor's crop hands back a fixed JPEG here (the e2e tests crop).
const croppedJpeg = new Blob(["cropped"], { type: "image/jpeg" });
vi.mock("./crop-photo.ts", () => ({ cropPhotoToJpeg: vi.fn(() => Promise.resolve(croppedJpeg)) }));

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const choose = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });
const jpeg = (size = 4) => new File([new Uint8Array(size)], "photo.jpg", { type: "image/jpeg" });

function renderWidget(props: Partial<PhotoCaptureProps> = {}) {
  const onChange = vi.fn<(photos: CapturedPhoto[]) => void>();
  render(
    <I18nProvider i18n={i18n}>
      <p id="label">Photograph the wound</p>
      <PhotoCapture photos={[]} onChange={onChange} labelId="label" {...props} />
    </I18nProvider>,
  );
  return onChange;
}

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

describe("photo capture", () => {
  it("starts empty: a named group with Add Photo for JPEGs from the back camera", () => {
    renderWidget({ max: 2 });
    expect(screen.getByRole("group", { name: "Photograph the wound" })).toBeTruthy();
    const add = screen.getByRole("button", { name: "Add Photo" });
    expect(add.getAttribute("aria-disabled")).toBeNull();
    expect(screen.getByText("0 of 2 photos")).toBeTruthy();
    expect(screen.queryByRole("list")).toBeNull();
    expect(fileInput().accept).toBe("image/jpeg");
    expect(fileInput().getAttribute("capture")).toBe("environment");
    const click = vi.spyOn(fileInput(), "click");
    fireEvent.click(add);
    expect(click).toHaveBeenCalledTimes(1);
  });

  it("refuses a file that is not a JPEG, and one over 2.5 MB, without opening the editor", () => {
    const onChange = renderWidget();
    choose(new File(["png"], "photo.png", { type: "image/png" }));
    expect(screen.getByRole("alert").textContent).toBe(
      "Sorry, we can't accept this file type. Please try with a different type of file.",
    );
    choose(jpeg(IMAGE_MAX_BYTES + 1));
    expect(screen.getByRole("alert").textContent).toBe(
      "Your image exceeded 2.5 mb. Please reduce the file size.",
    );
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });

  it("adds the cropped photo under a new name when the editor is done", async () => {
    const onChange = renderWidget({
      photos: [{ name: "first.jpeg", blob: new Blob(["1"]) }],
      newPhotoName: () => "second.jpeg",
    });
    choose(jpeg());
    const dialog = await screen.findByRole("dialog", { name: "Edit photo" });
    fireEvent.load(screen.getByRole("img", { name: "The photo to crop" }));
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(onChange).toHaveBeenCalledWith([
      { name: "first.jpeg", blob: expect.any(Blob) as Blob },
      { name: "second.jpeg", blob: croppedJpeg },
    ]);
    expect(dialog.isConnected).toBe(false);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith("blob:photo");
  });

  it("drops the chosen photo on Cancel", async () => {
    const onChange = renderWidget();
    choose(jpeg());
    const dialog = await screen.findByRole("dialog", { name: "Edit photo" });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(dialog.isConnected).toBe(false);
    expect(onChange).not.toHaveBeenCalled();
  });

  it("shows the photos (a name where the blob is gone) and deletes one, focus back on Add Photo", () => {
    const first = new Blob(["1"], { type: "image/jpeg" });
    const onChange = renderWidget({
      photos: [
        { name: "a.jpeg", blob: first },
        { name: "b.jpeg", blob: undefined },
      ],
    });
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
    expect(screen.getByRole("img", { name: "Photo 1" }).getAttribute("src")).toBe("blob:photo");
    expect(screen.getByText("b.jpeg")).toBeTruthy();
    expect(screen.getByText("2 of 3 photos")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Delete photo 2" }));
    expect(onChange).toHaveBeenLastCalledWith([{ name: "a.jpeg", blob: first }]);
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Add Photo" }));
  });

  it("takes no photo beyond the maximum", () => {
    renderWidget({ max: 1, photos: [{ name: "a.jpeg", blob: undefined }] });
    const add = screen.getByRole("button", { name: "Add Photo" });
    expect(add.getAttribute("aria-disabled")).toBe("true");
    const click = vi.spyOn(fileInput(), "click");
    fireEvent.click(add);
    expect(click).not.toHaveBeenCalled();
  });

  it("read only: the photos without Add Photo or Delete", () => {
    renderWidget({ readOnly: true, photos: [{ name: "a.jpeg", blob: undefined }] });
    expect(screen.getByText("a.jpeg")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
    expect(document.querySelector('input[type="file"]')).toBeNull();
  });
});
