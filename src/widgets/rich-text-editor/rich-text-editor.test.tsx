import { I18nProvider } from "@lingui/react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { linkAddress } from "./link-address.ts";
import { RichTextEditor } from "./rich-text-editor.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderEditor(value: string, onChange = vi.fn()) {
  const view = render(
    <I18nProvider i18n={i18n}>
      <RichTextEditor label="Message" value={value} onChange={onChange} id="message" />
    </I18nProvider>,
  );
  return { ...view, onChange };
}

const textbox = () => screen.getByRole("textbox", { name: "Message" });
const button = (name: string) => screen.getByRole("button", { name });
/** Ctrl+A inside the text: ProseMirror's select-all. */
const selectAll = () => fireEvent.keyDown(textbox(), { key: "a", code: "KeyA", ctrlKey: true });

describe("rich text editor", () => {
  it("names the text by its label and the toolbar after it, with toggles not pressed", () => {
    renderEditor("<p>Hello</p>");
    const text = textbox();
    expect(text.getAttribute("contenteditable")).toBe("true");
    expect(text.getAttribute("aria-multiline")).toBe("true");
    expect(text.id).toBe("message");
    expect(text.textContent).toBe("Hello");
    const toolbar = screen.getByRole("toolbar", { name: "Formatting: Message" });
    for (const name of ["Bold", "Italic", "Bulleted list", "Numbered list", "Link"]) {
      const toggle = button(name);
      expect(toolbar.contains(toggle)).toBe(true);
      expect(toggle.getAttribute("aria-pressed")).toBe("false");
    }
    // Nothing to undo or redo yet.
    expect((button("Undo") as HTMLButtonElement).disabled).toBe(true);
    expect((button("Redo") as HTMLButtonElement).disabled).toBe(true);
  });

  it("makes the selected text bold, sends the HTML and shows Bold pressed; Undo takes it back", () => {
    const { onChange } = renderEditor("<p>Hello</p>");
    selectAll();
    fireEvent.click(button("Bold"));
    expect(onChange).toHaveBeenLastCalledWith("<p><strong>Hello</strong></p>");
    expect(button("Bold").getAttribute("aria-pressed")).toBe("true");
    expect(button("Italic").getAttribute("aria-pressed")).toBe("false");

    fireEvent.click(button("Undo"));
    expect(onChange).toHaveBeenLastCalledWith("<p>Hello</p>");
    expect(button("Bold").getAttribute("aria-pressed")).toBe("false");
    expect((button("Redo") as HTMLButtonElement).disabled).toBe(false);
  });

  it("turns paragraphs into a bulleted list, then a numbered one", () => {
    const { onChange } = renderEditor("<p>One</p>");
    selectAll();
    fireEvent.click(button("Bulleted list"));
    expect(onChange).toHaveBeenLastCalledWith("<ul><li><p>One</p></li></ul>");
    expect(button("Bulleted list").getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(button("Numbered list"));
    expect(onChange).toHaveBeenLastCalledWith("<ol><li><p>One</p></li></ol>");
    expect(button("Numbered list").getAttribute("aria-pressed")).toBe("true");
    expect(button("Bulleted list").getAttribute("aria-pressed")).toBe("false");
  });

  it("links the selected text to a checked address, and refuses a javascript: one", async () => {
    // jsdom has no CSS.escape, which React Aria's popover reads a meta tag with.
    vi.stubGlobal("CSS", { escape: (text: string) => text.replace(/["\\]/g, "\\$&") });
    const { onChange } = renderEditor("<p>Protocol</p>");
    selectAll();
    fireEvent.click(button("Link"));
    const dialog = await screen.findByRole("dialog", { name: "Add a link" });
    const address = screen.getByRole("textbox", { name: "Web address or email link" });
    fireEvent.change(address, { target: { value: "javascript:alert(1)" } });
    fireEvent.click(screen.getByRole("button", { name: "Add link" }));
    expect(address.getAttribute("aria-invalid")).toBe("true");
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.change(address, { target: { value: "example.org/protocol" } });
    fireEvent.click(screen.getByRole("button", { name: "Add link" }));
    expect(dialog.isConnected).toBe(false);
    expect(onChange).toHaveBeenLastCalledWith(
      '<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://example.org/protocol">Protocol</a></p>',
    );
    expect(button("Link").getAttribute("aria-pressed")).toBe("true");
  });

  it("moves between the toolbar's buttons with the arrow keys", () => {
    renderEditor("<p>Hello</p>");
    act(() => button("Bold").focus());
    fireEvent.keyDown(document.activeElement!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(button("Italic"));
    fireEvent.keyDown(document.activeElement!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(button("Bulleted list"));
    fireEvent.keyDown(document.activeElement!, { key: "ArrowLeft" });
    fireEvent.keyDown(document.activeElement!, { key: "ArrowLeft" });
    expect(document.activeElement).toBe(button("Bold"));
  });

  it("takes a new value from outside (not an Undo step), and sends an empty string for an emptied text", () => {
    function Harness({ onChange }: { onChange: (html: string) => void }) {
      const [value, setValue] = useState("<p>Draft</p>");
      return (
        <I18nProvider i18n={i18n}>
          <RichTextEditor
            label="Message"
            value={value}
            onChange={(html) => {
              onChange(html);
              setValue(html);
            }}
          />
          <button type="button" onClick={() => setValue("<p>Restored</p>")}>
            Restore
          </button>
        </I18nProvider>
      );
    }
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Restore" }));
    expect(textbox().textContent).toBe("Restored");
    expect(onChange).not.toHaveBeenCalled();
    // Not a step to undo.
    expect((button("Undo") as HTMLButtonElement).disabled).toBe(true);

    selectAll();
    fireEvent.keyDown(textbox(), { key: "Backspace", code: "Backspace" });
    expect(onChange).toHaveBeenLastCalledWith("");
    expect(textbox().textContent).toBe("");
    expect((button("Undo") as HTMLButtonElement).disabled).toBe(false);
  });
});

describe("link addresses", () => {
  it("keeps web and email addresses, taking a bare one as https", () => {
    expect(linkAddress(" https://example.org/a?b=1 ")).toBe("https://example.org/a?b=1");
    expect(linkAddress("example.org")).toBe("https://example.org/");
    expect(linkAddress("http://localhost:8080/x")).toBe("http://localhost:8080/x");
    expect(linkAddress("mailto:team@example.org")).toBe("mailto:team@example.org");
  });

  it("refuses scripts, data, other schemes, spaces and hosts without a dot", () => {
    for (const typed of [
      "",
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox",
      "ftp://example.org",
      "https://exa mple.org",
      "hello",
      "mailto:nobody",
    ]) {
      expect(linkAddress(typed), typed).toBeNull();
    }
  });
});
