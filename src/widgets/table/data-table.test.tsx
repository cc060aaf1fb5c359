import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18n } from "../../i18n/i18n.ts";
import { DataTable, type TableColumn } from "./data-table.tsx";

type Person = { id: string; lastName: string; subjectId: string };

const people: Person[] = [
  { id: "1", lastName: "Rossi", subjectId: "MDD-1001" },
  { id: "2", lastName: "Adams", subjectId: "MDD-1065" },
];

const columns: TableColumn<Person>[] = [
  { id: "lastName", header: "Last name", cell: (p) => p.lastName, sortValue: (p) => p.lastName },
  { id: "subjectId", header: "Subject id", cell: (p) => p.subjectId, nowrap: true },
];

function renderTable() {
  render(
    <I18nProvider i18n={i18n}>
      <DataTable rows={people} columns={columns} rowKey={(p) => p.id} caption="Participants" stackOnPhone />
    </I18nProvider>,
  );
  return screen.getByRole("region", { name: "Participants" });
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("DataTable on a tablet", () => {
  it("marks the cells of a nowrap column (subject ids never wrap) and the sortable headers", () => {
    renderTable();
    const subjectCells = screen.getAllByRole("cell").filter((cell) => /^MDD-/.test(cell.textContent ?? ""));
    expect(subjectCells).toHaveLength(2);
    for (const cell of subjectCells) expect(cell.classList.contains("data-table__nowrap")).toBe(true);
    expect(screen.getByRole("cell", { name: "Rossi" }).classList.contains("data-table__nowrap")).toBe(false);
    expect(
      screen.getByRole("columnheader", { name: /Last name/ }).classList.contains("data-table__sortable"),
    ).toBe(true);
    expect(screen.getByRole("columnheader", { name: "Subject id" }).className).toBe("");
  });

  it("lays a table that fits out without a scrolling region, so its header row can stick", () => {
    vi.spyOn(HTMLTableElement.prototype, "getBoundingClientRect").mockReturnValue({ width: 0 } as DOMRect);
    const region = renderTable();
    expect(region.className).toBe("table-scroll");
    expect(region.hasAttribute("tabindex")).toBe(false);
  });

  it("scrolls a table wider than its region sideways, in a region keyboard users can focus", () => {
    // jsdom lays nothing out: the region is 0 px wide, the table 900.
    vi.spyOn(HTMLTableElement.prototype, "getBoundingClientRect").mockReturnValue({ width: 900 } as DOMRect);
    const region = renderTable();
    expect(region.classList.contains("table-scroll--overflows")).toBe(true);
    expect(region.getAttribute("tabindex")).toBe("0");
  });
});
