import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RadioGroup } from "./radio-group.tsx";

afterEach(cleanup);

const options = [
  { value: "phone", label: "Phone" },
  { value: "video", label: "Video" },
  { value: "clinic", label: "In clinic", disabled: true },
];

function radio(name: string) {
  return screen.getByRole<HTMLInputElement>("radio", { name });
}

describe("the radio group", () => {
  it("is a group named by its label whose click chooses one option", () => {
    const onChange = vi.fn();
    render(<RadioGroup label="Visit type" options={options} onChange={onChange} />);
    expect(screen.getByRole("radiogroup", { name: "Visit type" })).toBeTruthy();
    expect(radio("Phone").checked).toBe(false);
    fireEvent.click(screen.getByText("Video"));
    expect(onChange).toHaveBeenLastCalledWith("video");
    expect(radio("Video").checked).toBe(true);
    expect(radio("Phone").checked).toBe(false);
    fireEvent.click(screen.getByText("Phone"));
    expect(radio("Phone").checked).toBe(true);
    expect(radio("Video").checked).toBe(false);
    // The mark is drawn by radio.css from the option's state (one radio style).
    const selected = [...document.querySelectorAll(".rac-check--radio")].map((option) =>
      option.hasAttribute("data-selected"),
    );
    expect(selected).toEqual([true, false, false]);
    expect([...document.querySelectorAll(".rac-check__box")].map((mark) => mark.textContent)).toEqual([
      "",
      "",
      "",
    ]);
  });

  it("is one tab stop, the chosen option", () => {
    render(<RadioGroup label="Visit type" options={options} defaultValue="video" />);
    expect(radio("Video").tabIndex).toBe(0);
    expect(radio("Phone").tabIndex).toBe(-1);
  });

  it("moves the choice with the arrow keys, skipping a disabled option", () => {
    const onChange = vi.fn();
    render(<RadioGroup label="Visit type" options={options} defaultValue="phone" onChange={onChange} />);
    act(() => radio("Phone").focus());
    fireEvent.keyDown(radio("Phone"), { key: "ArrowDown" });
    expect(onChange).toHaveBeenLastCalledWith("video");
    expect(radio("Video").checked).toBe(true);
    expect(document.activeElement).toBe(radio("Video"));
    fireEvent.keyDown(radio("Video"), { key: "ArrowDown" });
    // In clinic is disabled: the choice wraps to the first option.
    expect(radio("Phone").checked).toBe(true);
    expect(radio("In clinic").disabled).toBe(true);
  });
});
