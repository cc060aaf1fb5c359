import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { TextField } from "./text-field.tsx";

afterEach(cleanup);

describe("TextField", () => {
  it("labels its input, and describes it by the hint and the error", () => {
    render(<TextField label="Subject id" hint="As on the screening log." error="Already in the study." />);
    const input = screen.getByRole("textbox", { name: "Subject id" });
    expect(
      input
        .getAttribute("aria-describedby")
        ?.split(" ")
        .map((id) => document.getElementById(id)?.textContent),
    ).toEqual(["As on the screening log.", "Already in the study."]);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("alert").textContent).toBe("Already in the study.");
  });

  it("keeps the id it is given and the attributes of its input", () => {
    render(
      <TextField label="Password" id="login-password" type="password" autoComplete="current-password" />,
    );
    const input = document.getElementById("login-password") as HTMLInputElement;
    expect(input.type).toBe("password");
    expect(input.autocomplete).toBe("current-password");
    expect(screen.getByLabelText("Password")).toBe(input);
    expect(input.hasAttribute("aria-describedby")).toBe(false);
  });
});
