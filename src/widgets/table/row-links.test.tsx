import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rowLinksRef } from "./row-links.ts";

afterEach(cleanup);

/** A table like the studies list: one .row-link per row, the cells around it plain text. */
function renderRows(onOpen: (name: string) => void) {
  const rows = ["MDD-301", "SCZ-214", "GAD-118"];
  render(
    // As in DataTable: the table inside a focusable scrolling region (an ancestor with a tabindex).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div role="region" tabIndex={0} aria-label="Studies">
      <table ref={rowLinksRef} className="data-table data-table--rows-link">
        <tbody>
          {rows.map((name) => (
            <tr key={name}>
              <td>
                <a
                  className="row-link"
                  href={`#${name}`}
                  onClick={(event) => {
                    event.preventDefault();
                    onOpen(name);
                  }}
                >
                  {name}
                </a>
              </td>
              <td>Boston {name}</td>
              <td>
                <button type="button">Share {name}</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>,
  );
}

describe("whole-row navigation (WebKit does not position table rows)", () => {
  it("a click on any cell of a row opens that row, never another", () => {
    const onOpen = vi.fn();
    renderRows(onOpen);
    fireEvent.click(screen.getByText("Boston SCZ-214"));
    fireEvent.click(screen.getByText("Boston MDD-301"));
    expect(onOpen.mock.calls).toEqual([["SCZ-214"], ["MDD-301"]]);
  });

  it("the link itself opens its row once; a button of the row does its own thing", () => {
    const onOpen = vi.fn();
    renderRows(onOpen);
    fireEvent.click(screen.getByRole("link", { name: "GAD-118" }));
    fireEvent.click(screen.getByRole("button", { name: "Share GAD-118" }));
    expect(onOpen.mock.calls).toEqual([["GAD-118"]]);
  });

  it("keeps the modifier keys, so a new tab opens as from the link", () => {
    const clicks: boolean[] = [];
    renderRows(() => undefined);
    screen
      .getByRole("link", { name: "MDD-301" })
      .addEventListener("click", (event) => clicks.push(event.metaKey));
    fireEvent.click(screen.getByText("Boston MDD-301"), { metaKey: true });
    expect(clicks).toEqual([true]);
  });
});
